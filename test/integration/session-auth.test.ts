// An agent that must be signed in before it opens a session: the methods it offers are listed with
// the session, a person's choice is sent to it as ACP `authenticate`, and session/new is tried
// again. A hostile agent's methods are bounded and checked; a client cannot pick one not offered.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  scriptedAgentLaunch,
  type JsonValue,
  type ScriptedAgentScript,
} from '../support/agents/scripted-agent';
import { startGatehouse, startScriptedSession, type ScriptedSession } from '../support/gatehouse';

let session: ScriptedSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const METHODS = [
  { id: 'oauth', name: 'Sign in with the browser', description: 'Opens a browser window' },
  { id: 'api-key', name: 'Use an API key' },
];

const signIn = (methods: JsonValue[], accept?: string[]): ScriptedAgentScript => ({
  requireAuth: { methods, ...(accept ? { accept } : {}) },
  prompts: [[{ type: 'text', text: 'signed in and working' }]],
});

async function rejection(call: Promise<unknown>): Promise<{ status?: number; message: string }> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: Error & { status?: number }) => ({ status: error.status, message: error.message }),
  );
}

describe('an agent that asks to be signed in', () => {
  it('offers its methods; the one chosen is sent as authenticate and the session opens', async () => {
    session = await startScriptedSession(signIn(METHODS as JsonValue[], ['api-key']));
    const { gh, sessionId } = session;
    const other = await gh.client();
    const [listed] = await other.call('listSessions', {});
    expect(listed).toMatchObject({ sessionId, state: 'starting', authMethods: METHODS });

    // Not open yet: nothing to prompt.
    expect((await rejection(gh.api.call('prompt', { sessionId, text: 'hi' }))).status).toBe(409);
    // A method the agent did not offer never reaches it.
    const unknown = await rejection(
      gh.api.call('authenticateSession', { sessionId, methodId: 'password' }),
    );
    expect(unknown).toMatchObject({ status: 400, message: expect.stringContaining('password') });
    // The agent refuses this one: the methods are offered again.
    const refused = await rejection(
      gh.api.call('authenticateSession', { sessionId, methodId: 'oauth' }),
    );
    expect(refused).toMatchObject({
      status: 400,
      message: expect.stringContaining('Sign-in refused'),
    });
    expect((await other.call('listSessions', {}))[0]).toMatchObject({ authMethods: METHODS });

    const opened = await other.call('authenticateSession', { sessionId, methodId: 'api-key' });
    expect(opened).toMatchObject({ sessionId, state: 'idle' });
    expect(opened.authMethods).toBeUndefined();
    expect(await gh.api.call('prompt', { sessionId, text: 'go' })).toEqual({
      stopReason: 'end_turn',
    });

    const told = session
      .log()
      .filter((l) => l.dir === 'in' && l.msg.method)
      .map((l) => [l.msg.method, (l.msg as { params?: { methodId?: string } }).params?.methodId]);
    expect(told).toEqual([
      ['initialize', undefined],
      ['session/new', undefined],
      ['authenticate', 'oauth'],
      ['authenticate', 'api-key'],
      ['session/new', undefined],
      ['session/prompt', undefined],
    ]);
    // Signed in once: a second sign-in is refused by Gatehouse, not sent.
    const again = await rejection(
      gh.api.call('authenticateSession', { sessionId, methodId: 'api-key' }),
    );
    expect(again.status).toBe(409);
  });

  it('a hostile agent: oversized or malformed methods, or only terminal ones, end the start', async () => {
    const cases: [string, JsonValue[], string][] = [
      ['long', [{ id: 'x', name: 'n'.repeat(10_000) }], 'malformed'],
      [
        'many',
        Array.from({ length: 500 }, (_, i) => ({ id: `m${i}`, name: 'Sign in' })),
        'malformed',
      ],
      [
        'terminal',
        [{ id: 'tui', name: 'Log in', type: 'terminal', args: ['--login'] }],
        'no method',
      ],
    ];
    const agents: Record<string, { command: string; args: string[]; env: Record<string, string> }> =
      {};
    for (const [id, methods] of cases) {
      const launch = scriptedAgentLaunch(signIn(methods));
      agents[id] = { ...launch, env: launch.env as Record<string, string> };
    }
    const gh = await startGatehouse({ agents });
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-auth-')));
    try {
      for (const [agentId, , why] of cases) {
        const refused = await rejection(gh.api.call('createSession', { agentId, cwd: folder }));
        expect(refused, agentId).toMatchObject({
          status: 400,
          message: expect.stringContaining(why),
        });
      }
      // Nothing is left waiting or running.
      expect((await gh.api.call('listSessions', {})).map((s) => s.state)).toEqual([
        'closed',
        'closed',
        'closed',
      ]);
    } finally {
      await gh.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
