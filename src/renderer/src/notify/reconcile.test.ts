// When the event stream opens again, notifications are set right from the core's list: a request
// that ended unheard loses its notification, one that began unheard is shown while the tab is in
// the background, and nothing that happens while the list is being read is undone by it.
import { describe, expect, it } from 'vitest';
import type { PendingSummary } from '../../../shared/domain';
import { ReadClock } from '../connection/read-order';
import { reconcileNotifications, type Reconcile } from './reconcile';

const waiting = (requestId: string) => ({ requestId }) as PendingSummary;

/** A service worker's notifications and a core whose list is read when `answer` is called. */
function setup(list: string[], shownTags: string[], hidden = true) {
  const shownNow = new Map<string, { tag: string; close(): void }>();
  const add = (tag: string) => shownNow.set(tag, { tag, close: () => shownNow.delete(tag) });
  shownTags.forEach(add);
  let answer!: (total?: number) => void;
  const listed = new Promise<{ items: PendingSummary[]; total: number }>((resolve) => {
    answer = (total = list.length) => resolve({ items: list.map(waiting), total });
  });
  const showed: string[] = [];
  const r: Reconcile = {
    getNotifications: async () => [...shownNow.values()],
    listWaiting: () => listed,
    heard: new Set<string>(),
    clock: new ReadClock<Record<string, never>>(),
    hidden: () => hidden,
    show: (summary) => {
      showed.push(summary.requestId);
      add(summary.requestId);
    },
  };
  return { r, answer, add, shownNow, showed };
}

describe('reconcileNotifications', () => {
  it('closes the notification of a request that waits no more', async () => {
    const s = setup(['a'], ['a', 'gone']);
    s.r.heard.add('a').add('gone');
    const done = reconcileNotifications(s.r);
    s.answer();
    await done;
    expect([...s.shownNow.keys()]).toEqual(['a']);
    expect([...s.r.heard]).toEqual(['a']);
    expect(s.showed).toEqual([]);
  });

  it('keeps a notification shown while the list was being read, though the list is older', async () => {
    const s = setup(['a'], ['a']);
    s.r.heard.add('a');
    const done = reconcileNotifications(s.r);
    await Promise.resolve();
    // The event of a new request arrives before the list's answer, which was read before it began.
    s.r.heard.add('new');
    s.add('new');
    s.answer();
    await done;
    expect([...s.shownNow.keys()].sort()).toEqual(['a', 'new']);
    expect(s.r.heard.has('new')).toBe(true);
  });

  it('shows a request that began unheard, once, while the tab is in the background', async () => {
    const s = setup(['a', 'b'], ['a']);
    s.r.heard.add('a');
    const done = reconcileNotifications(s.r);
    s.answer();
    await done;
    expect(s.showed).toEqual(['b']);
    const again = setup(['a', 'b'], []);
    again.r.heard = s.r.heard;
    const second = reconcileNotifications(again.r);
    again.answer();
    await second;
    expect(again.showed).toEqual([]);
  });

  it('shows nothing while the page is in front, nor a request whose end was heard meanwhile', async () => {
    const front = setup(['b'], [], false);
    const done = reconcileNotifications(front.r);
    front.answer();
    await done;
    expect(front.showed).toEqual([]);
    const ended = setup(['b'], []);
    const second = reconcileNotifications(ended.r);
    await Promise.resolve();
    // Its end is heard after the list was served, before its answer arrives.
    ended.r.clock.touch('b', null);
    ended.answer();
    await second;
    expect(ended.showed).toEqual([]);
  });

  it('closes nothing from a list the core cut short', async () => {
    const s = setup(['a'], ['a', 'past-the-cut']);
    s.r.heard.add('past-the-cut');
    const done = reconcileNotifications(s.r);
    s.answer(2);
    await done;
    expect([...s.shownNow.keys()].sort()).toEqual(['a', 'past-the-cut']);
    expect(s.r.heard.has('past-the-cut')).toBe(true);
  });
});
