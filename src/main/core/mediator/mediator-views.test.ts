import { describe, expect, it } from 'vitest';
import { MultiClientPermissionMediator } from '.';
import { makeHarness, record, vote } from './harness.test-support';

interface Shown {
  title: string;
}

function withViews() {
  return new MultiClientPermissionMediator<Shown>('first-responder', {
    emit: () => {},
    lateVote: () => {},
    votersForSession: () => [],
  });
}

describe('the view a caller keeps on each pending request', () => {
  it('is held while the request is pending, oldest first, and dropped when it ends', async () => {
    const mediator = withViews();
    const [a, b, c] = [record({ sessionId: 's1' }), record({ sessionId: 's2' }), record()];
    const decided = mediator.request(a, 60_000, undefined, { title: 'a' });
    void mediator.request(b, 60_000, undefined, { title: 'b' });
    void mediator.request(c, 60_000, undefined, { title: 'c' });
    expect([...mediator.views()].map((v) => v.title)).toEqual(['a', 'b', 'c']);
    expect(mediator.viewOf(b.requestId)).toEqual({ title: 'b' });

    mediator.vote(vote(a.requestId, 'allow'));
    await decided;
    expect(mediator.viewOf(a.requestId)).toBeUndefined();
    expect([...mediator.views()].map((v) => v.title)).toEqual(['b', 'c']);
    expect([mediator.pendingCount('s1'), mediator.pendingCount()]).toEqual([1, 2]);
  });

  it('is the caller’s object, not a copy: what the caller changes is what is listed', () => {
    const mediator = withViews();
    const view = { title: 'before' };
    const r = record();
    void mediator.request(r, 60_000, undefined, view);
    view.title = 'after';
    expect(mediator.viewOf(r.requestId)?.title).toBe('after');
  });

  it('a request refused as a duplicate leaves the held view untouched', () => {
    const mediator = withViews();
    const r = record();
    void mediator.request(r, 60_000, undefined, { title: 'first' });
    expect(() => mediator.request(r, 60_000, undefined, { title: 'impostor' })).toThrow();
    expect([...mediator.views()]).toEqual([{ title: 'first' }]);
  });

  it('a mediator without a view type takes requests as before and lists nothing of its own', () => {
    const h = makeHarness();
    void h.request(record(), 60_000);
    expect([...h.mediator.views()]).toEqual([undefined]);
    expect(h.mediator.pendingCount()).toBe(1);
  });

  // Checked by tsc, which runs over the tests: never called, so nothing is issued without a view.
  it('a view-holding mediator does not compile a request without its view', () => {
    const mediator = withViews();
    const r = record();
    // @ts-expect-error the view is required once the mediator holds views
    const issue = () => mediator.request(r, 60_000);
    expect(issue).toBeTypeOf('function');
    expect(mediator.pendingCount()).toBe(0);
  });
});
