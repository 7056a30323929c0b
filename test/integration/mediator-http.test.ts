// The mediator's policies over the real HTTP server: identity is proven by token, locality by the
// socket address — never by what a client says about itself.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpServerOptions } from '../../src/main/server/http-server';
import type { ScriptStep } from '../support/agents/scripted-agent';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

const ASK: ScriptStep = {
  type: 'requestPermission',
  toolCall: {
    toolCallId: 'w',
    kind: 'edit',
    title: 'Write a.txt',
    locations: [{ path: '/tmp/a.txt' }],
  },
  options: [
    { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
    { optionId: 'no', name: 'No', kind: 'reject_once' },
  ],
};

/** A raw POST, optionally from a given local address, with whatever headers the test wants. */
function post(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  localAddress?: string,
) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = httpRequest(
      `${url}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, localAddress },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('mediator policies over HTTP', () => {
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function start(policy: string, server: Partial<HttpServerOptions> = {}) {
    session = await startScriptedSession(
      { prompts: [[ASK]] },
      { settings: { policy: { permissionStrategy: policy } }, server },
    );
    return session;
  }

  it('consensus with two proven clients: the first vote is recorded, the second decides', async () => {
    const { gh, sessionId } = await start('consensus');
    const second = await gh.client({ label: 'second' });
    expect((await gh.api.call('health', {})).policy).toBe('consensus');
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    expect(approval.tally).toMatchObject({ votesNeeded: 2, voters: 2 });

    const first = await gh.api.call('vote', { requestId: approval.requestId, optionId: 'yes' });
    expect(first).toMatchObject({ kind: 'recorded', votesNeeded: 1 });
    const progress = gh.events.find((e) => e.type === 'permission_partial_vote');
    expect(progress).toMatchObject({
      requestId: approval.requestId,
      tally: { perOption: { yes: 1 } },
    });
    expect(gh.core.pipeline.pending.get(approval.requestId)?.tally?.perOption).toMatchObject({
      yes: 1,
    });

    expect(await second.call('vote', { requestId: approval.requestId, optionId: 'yes' })).toEqual({
      kind: 'resolved',
      resolvedOptionId: 'yes',
    });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    await gh.core.store.flush();
    const detail = (await gh.core.store.historyDetail(approval.requestId))!;
    expect(detail.decider).toMatchObject({ type: 'consensus' });
    expect(detail.votes.filter((v) => v.outcome === 'counted')).toHaveLength(2);
  });

  it('consensus refuses a spoofed client id without its token (403 identity_unproven), and a stranger', async () => {
    const { gh, sessionId } = await start('consensus');
    const victim = await gh.client({ register: false });
    const { clientId: victimId } = await victim.connect('victim', 'api');
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();

    const spoofed = await post(
      gh.server.url,
      `/api/approvals/${approval.requestId}/vote`,
      { authorization: `Bearer ${gh.token}`, 'x-gatehouse-client-id': victimId },
      { optionId: 'yes' },
    );
    expect(spoofed).toEqual({
      status: 403,
      body: { kind: 'forbidden', reason: 'identity_unproven' },
    });
    const wrongToken = await post(
      gh.server.url,
      `/api/approvals/${approval.requestId}/vote`,
      {
        authorization: `Bearer ${gh.token}`,
        'x-gatehouse-client-id': victimId,
        'x-gatehouse-client-token': 'guess',
      },
      { optionId: 'yes' },
    );
    expect(wrongToken.status).toBe(403);
    // Registered after the request was issued: not in the voter snapshot.
    const late = await gh.client({ label: 'late' });
    await expect(
      late.call('vote', { requestId: approval.requestId, optionId: 'yes' }),
    ).resolves.toEqual({
      kind: 'forbidden',
      reason: 'not_a_voter',
    });
    expect(gh.core.pipeline.pending.size).toBe(1);
    await gh.api.call('cancelTurn', { sessionId });
    await turn;
  });

  it('local-only refuses a voter whose socket is not loopback, whatever its headers say', async () => {
    // This machine's only interface is loopback; treat 127.0.0.2 as "elsewhere" for the test.
    const { gh, sessionId } = await start('local-only', {
      isLoopback: (a: string) => /(^|:)127\.0\.0\.1$/.test(a),
    });
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    const remote = await post(
      gh.server.url,
      `/api/approvals/${approval.requestId}/vote`,
      {
        authorization: `Bearer ${gh.token}`,
        'x-forwarded-for': '127.0.0.1',
        forwarded: 'for=127.0.0.1',
      },
      { optionId: 'yes' },
      '127.0.0.2',
    );
    expect(remote).toEqual({
      status: 403,
      body: { kind: 'forbidden', reason: 'remote_not_allowed' },
    });
    expect(gh.core.pipeline.pending.size).toBe(1);
    const local = await post(
      gh.server.url,
      `/api/approvals/${approval.requestId}/vote`,
      { authorization: `Bearer ${gh.token}` },
      { optionId: 'no' },
      '127.0.0.1',
    );
    expect(local).toEqual({ status: 200, body: { kind: 'resolved', resolvedOptionId: 'no' } });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
  });

  it("designated: only the prompt's originator decides, and only with its token", async () => {
    const { gh, sessionId } = await start('designated');
    const other = await gh.client({ label: 'other' });
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    expect(await other.call('vote', { requestId: approval.requestId, optionId: 'yes' })).toEqual({
      kind: 'forbidden',
      reason: 'designated_mismatch',
    });
    expect(await gh.api.call('vote', { requestId: approval.requestId, optionId: 'yes' })).toEqual({
      kind: 'resolved',
      resolvedOptionId: 'yes',
    });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
  });

  it('first-responder: a bearer-only vote counts as "api (unpaired)"; a claimed id without its token is anonymous', async () => {
    const { gh, sessionId } = await start('first-responder');
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    const claimed = await post(
      gh.server.url,
      `/api/approvals/${approval.requestId}/vote`,
      { authorization: `Bearer ${gh.token}`, 'x-gatehouse-client-id': 'dialog-desktop-owner' },
      { optionId: 'yes' },
    );
    expect(claimed).toEqual({ status: 200, body: { kind: 'resolved', resolvedOptionId: 'yes' } });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    await gh.core.store.flush();
    const detail = (await gh.core.store.historyDetail(approval.requestId))!;
    expect(detail.decider).toEqual({
      type: 'person',
      clientId: null,
      surface: 'api',
      paired: false,
    });
    expect(detail.votes[0]).toMatchObject({
      clientId: null,
      surface: 'api',
      identityProven: false,
    });
  });

  it('designated: a registered but unpaired originator cannot decide its own request (identity_unproven, audited)', async () => {
    const { gh, sessionId } = await start('designated');
    const script = await gh.client({ paired: false, label: 'script' });
    const turn = script.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    expect(await script.call('vote', { requestId: approval.requestId, optionId: 'yes' })).toEqual({
      kind: 'forbidden',
      reason: 'identity_unproven',
    });
    expect(gh.core.pipeline.pending.size).toBe(1);
    await gh.api.call('cancelTurn', { sessionId });
    await turn;
    await gh.core.store.flush();
    expect((await gh.core.store.historyDetail(approval.requestId))!.votes).toEqual([
      expect.objectContaining({
        clientId: null,
        surface: 'api',
        outcome: 'forbidden:identity_unproven',
      }),
    ]);
  });

  it('consensus counts people: 40 unpaired clients cannot decide; two paired ones do', async () => {
    const { gh, sessionId } = await start('consensus', { registrationsPerMinute: 100 });
    const crowd = await Promise.all(
      Array.from({ length: 40 }, (_, i) => gh.client({ paired: false, label: `bot-${i}` })),
    );
    const second = await gh.client({ label: 'second' });
    const turn = gh.api.call('prompt', { sessionId, text: 'go' });
    const approval = await gh.nextApproval();
    expect(approval.tally).toMatchObject({ voters: 2, votesNeeded: 2 });
    const outcomes = await Promise.all(
      crowd.map((bot) => bot.call('vote', { requestId: approval.requestId, optionId: 'yes' })),
    );
    expect(new Set(outcomes.map((o) => JSON.stringify(o)))).toEqual(
      new Set([JSON.stringify({ kind: 'forbidden', reason: 'identity_unproven' })]),
    );
    expect(gh.core.pipeline.pending.get(approval.requestId)).toBeDefined();
    expect(
      await gh.api.call('vote', { requestId: approval.requestId, optionId: 'no' }),
    ).toMatchObject({
      kind: 'recorded',
    });
    expect(await second.call('vote', { requestId: approval.requestId, optionId: 'no' })).toEqual({
      kind: 'resolved',
      resolvedOptionId: 'no',
    });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    for (const bot of crowd) bot.close();
  });

  it('rejects requests without the bearer token, from another Host, and with a non-JSON body', async () => {
    const { gh } = await start('first-responder');
    expect((await fetch(`${gh.server.url}/api/approvals`)).status).toBe(401);
    expect(
      (
        await fetch(`${gh.server.url}/api/approvals`, {
          headers: { authorization: 'Bearer wrong' },
        })
      ).status,
    ).toBe(401);
    const rebind = await new Promise<number>((resolve) => {
      const req = httpRequest(`${gh.server.url}/api/health`, {
        headers: { host: 'evil.example:80', authorization: `Bearer ${gh.token}` },
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.end();
    });
    expect(rebind).toBe(421);
    const form = await fetch(`${gh.server.url}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gh.token}`, 'content-type': 'text/plain' },
      body: 'agentId=a',
    });
    expect(form.status).toBe(415);
    const bad = await fetch(`${gh.server.url}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gh.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: 'a', cwd: 'relative/path', extra: 1 }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { name: string } }).error.name).toBe('ValidationError');
    expect(gh.core.sessions.list()).toHaveLength(1);
  });

  it('reads only application/json: json-patch and bodiless requests without it are 415; too large is PayloadTooLarge', async () => {
    const { gh } = await start('first-responder', { maxBodyBytes: 1024 });
    const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      fetch(`${gh.server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${gh.token}`, ...headers },
        body,
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { error?: { name: string } },
      }));
    const patch = await send(
      'POST',
      '/api/sessions',
      { 'content-type': 'application/json-patch+json' },
      '{}',
    );
    expect(patch).toMatchObject({ status: 415, body: { error: { name: 'UnsupportedMediaType' } } });
    expect((await send('POST', '/api/audit/verify', {})).status).toBe(415);
    expect((await send('DELETE', '/api/grants/g1', {})).status).toBe(415);
    expect(
      (
        await send('POST', '/api/audit/verify', {
          'content-type': 'application/json; charset=utf-8',
        })
      ).status,
    ).toBe(200);
    const large = await send(
      'POST',
      '/api/sessions',
      { 'content-type': 'application/json' },
      JSON.stringify({ agentId: 's', cwd: 'x'.repeat(2000) }),
    );
    expect(large).toMatchObject({ status: 413, body: { error: { name: 'PayloadTooLarge' } } });
    expect(gh.core.sessions.list()).toHaveLength(1);
  });
});
