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
    const detail = gh.core.store.historyDetail(first.requestId)!;
    expect(detail.decider).toMatchObject({ type: 'person', surface: 'link' });
    expect(detail.votes[0]).toMatchObject({
      surface: 'link',
      identityProven: true,
      optionId: 'nope',
    });
  });
});
