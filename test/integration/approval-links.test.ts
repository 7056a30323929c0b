// Single-use approval links: bound to one request, good for one vote, worth nothing elsewhere.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const ASK = (id: string): ScriptStep => ({
  type: 'requestPermission',
  toolCall: {
    toolCallId: id,
    kind: 'execute',
    title: 'npm test',
    rawInput: { command: 'npm test' },
  },
  options: [
    { optionId: 'ok', name: 'Run', kind: 'allow_once' },
    { optionId: 'nope', name: 'Skip', kind: 'reject_once' },
  ],
});

describe('approval links', () => {
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  it('a link shows its one request, refuses a bad option without burning, votes once, then is dead', async () => {
    session = await startScriptedSession({
      prompts: [[{ type: 'concurrent', branches: [[ASK('a')], [ASK('b')]] }]],
    });
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const first = await gh.nextApproval((a) => a.toolCall.toolCallId === 'a');
    const other = await gh.nextApproval((a) => a.toolCall.toolCallId === 'b');

    const link = await gh.api.call('createApprovalLink', { requestId: first.requestId });
    expect(link.path).toBe(`/#/link/${link.token}`);
    const withLink = (path: string, body?: unknown) =>
      fetch(`${gh.server.url}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Link ${link.token}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });

    const shown = await withLink('/api/link');
    expect(shown.status).toBe(200);
    expect(((await shown.json()) as { requestId: string }).requestId).toBe(first.requestId);
    // The link opens nothing else: not the queue, not the other request.
    expect((await withLink('/api/approvals')).status).toBe(401);
    expect(
      (await withLink(`/api/approvals/${other.requestId}/vote`, { optionId: 'ok' })).status,
    ).toBe(401);
    // The bearer token is not a link.
    const bearer = await fetch(`${gh.server.url}/api/link`, {
      headers: { authorization: `Bearer ${gh.token}` },
    });
    expect(bearer.status).toBe(401);

    expect((await withLink('/api/link/vote', { optionId: 'bogus' })).status).toBe(400);
    const vote = await withLink('/api/link/vote', { optionId: 'nope' });
    expect(vote.status).toBe(200);
    expect(await vote.json()).toEqual({ kind: 'resolved', resolvedOptionId: 'nope' });
    expect((await withLink('/api/link/vote', { optionId: 'ok' })).status).toBe(401);
    expect((await withLink('/api/link')).status).toBe(401);

    await gh.api.call('vote', { requestId: other.requestId, optionId: 'ok' });
    await turn;
    await gh.core.store.flush();
    const detail = (await gh.core.store.historyDetail(first.requestId))!;
    expect(detail.decider).toMatchObject({ type: 'person', surface: 'link' });
    expect(detail.votes[0]).toMatchObject({
      surface: 'link',
      identityProven: true,
      optionId: 'nope',
    });
  });

  const linkFetch = (url: string, token: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Link ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });

  it('a link follows an extended deadline, and only a paired client may make one (audited)', async () => {
    let now = Date.now();
    session = await startScriptedSession(
      { prompts: [[ASK('a')]] },
      { settings: { approvals: { timeoutSeconds: 60 } } },
    );
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    const unpaired = await gh.client({ paired: false });
    await expect(
      unpaired.call('createApprovalLink', { requestId: approval.requestId }),
    ).rejects.toMatchObject({
      status: 403,
    });
    const link = await gh.api.call('createApprovalLink', { requestId: approval.requestId });
    const { expiresAt } = await gh.api.call('extendApproval', {
      requestId: approval.requestId,
      seconds: 600,
    });
    expect(expiresAt).toBeGreaterThan(link.expiresAt);
    // Past the deadline the link was made with, before the extended one: still good.
    now = link.expiresAt + 1;
    const links = gh.core.links as unknown as { now: () => number };
    links.now = () => now;
    expect((await linkFetch(gh.server.url, link.token, '/api/link')).status).toBe(200);
    now = expiresAt;
    expect((await linkFetch(gh.server.url, link.token, '/api/link')).status).toBe(401);
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'ok' });
    await turn;
    await gh.core.store.flush();
    expect(await gh.core.store.events({ type: 'link_created' })).toEqual([
      expect.objectContaining({
        requestId: approval.requestId,
        payload: expect.objectContaining({ by: gh.api.clientId, expiresAt: link.expiresAt }),
      }),
    ]);
    expect(JSON.stringify(await gh.core.store.events({ type: 'link_created' }))).not.toContain(
      link.token,
    );
  });

  it('a link vote the policy refuses does not spend the link', async () => {
    session = await startScriptedSession(
      { prompts: [[ASK('a')]] },
      { settings: { policy: { permissionStrategy: 'designated' } } },
    );
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    const link = await gh.api.call('createApprovalLink', { requestId: approval.requestId });
    const refused = await linkFetch(gh.server.url, link.token, '/api/link/vote', {
      optionId: 'ok',
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ kind: 'forbidden', reason: 'designated_mismatch' });
    expect((await linkFetch(gh.server.url, link.token, '/api/link')).status).toBe(200);
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'nope' });
    await turn;
  });

  it('two votes at once with one link: exactly one counts', async () => {
    session = await startScriptedSession({
      prompts: [[{ type: 'concurrent', branches: [[ASK('a')], [ASK('b')]] }]],
    });
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const first = await gh.nextApproval((a) => a.toolCall.toolCallId === 'a');
    const other = await gh.nextApproval((a) => a.toolCall.toolCallId === 'b');
    const link = await gh.api.call('createApprovalLink', { requestId: first.requestId });
    const statuses = await Promise.all(
      ['ok', 'nope'].map((optionId) =>
        linkFetch(gh.server.url, link.token, '/api/link/vote', { optionId }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(
      statuses.filter((s) => s !== 200).every((s) => s === 401 || s === 403 || s === 404),
    ).toBe(true);
    await gh.api.call('vote', { requestId: other.requestId, optionId: 'ok' });
    await turn;
    await gh.core.store.flush();
    expect(
      (await gh.core.store.historyDetail(first.requestId))!.votes.filter(
        (v) => v.outcome === 'counted',
      ),
    ).toHaveLength(1);
  });
});
