// An agent that asks for an API key (as Gemini CLI does without GEMINI_API_KEY: its "Gemini API key"
// sign-in fails with "API key is missing"): the key entered in the sign-in is kept in the agent's
// env in settings.json, and the next session starts with it. The key must not come back out: not in
// the settings a client reads, the event stream, the audit database, the log or a support bundle.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIDDEN_VALUE } from '../../src/main/core/config/secret-env';
import { scriptedAgentConfig } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { databasePath } from '../../src/main/core/store/data-folder';

const KEY = 'AIzaTestKey-6d1f0c9e2b7a4c55';
const digest = createHash('sha256').update(KEY).digest('hex');

async function failure(call: Promise<unknown>): Promise<{ status?: number; message: string }> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: Error & { status?: number }) => ({ status: error.status, message: error.message }),
  );
}

/** Every file under `dir`, but the settings file (where the key belongs), as text. */
function filesOf(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile() && !path.endsWith('settings.json'))
    .map((path) => ({ path, text: readFileSync(path).toString('latin1') }));
}

describe('an API key entered where an agent asks to be signed in', () => {
  let gh: TestGatehouse;
  let folder: string;
  let home: string;
  let stream = '';
  const reading = new AbortController();

  beforeAll(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-key-work-')));
    home = mkdtempSync(join(tmpdir(), 'gatehouse-key-home-'));
    const agent = scriptedAgentConfig({
      // Refuses every sign-in until the key is in its environment, as Gemini CLI does.
      requireAuth: {
        methods: [{ id: 'gemini-api-key', name: 'Gemini API key' }],
        accept: [],
        unlessEnv: 'GEMINI_API_KEY',
      },
      // Says whether it has the key without saying the key.
      prompts: [
        [{ type: 'shell', command: 'printf %s "$GEMINI_API_KEY" | sha256sum | cut -c1-64' }],
      ],
    });
    gh = await startGatehouse(
      { agents: { gemini: { ...agent, sandbox: 'off', env: { ...agent.env, HOME: home } } } },
      {},
      { settingsFile: true },
    );
    // The event stream as a browser reads it, from before the key is entered.
    const response = await fetch(`${gh.server.url}/api/events`, {
      headers: { authorization: `Bearer ${gh.token}` },
      signal: reading.signal,
    });
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) stream += decoder.decode(chunk as Uint8Array);
    })().catch(() => undefined);
  });

  afterAll(async () => {
    reading.abort();
    await gh?.close();
    for (const dir of [folder, home]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is kept in the agent’s env, shown as set only, and the next session starts with it', async () => {
    const first = await gh.api.call('createSession', { agentId: 'gemini', cwd: folder });
    const waiting = (await gh.api.call('listSessions', {})).find(
      (s) => s.sessionId === first.sessionId,
    );
    expect(waiting).toMatchObject({
      state: 'starting',
      apiKey: { variable: 'GEMINI_API_KEY', set: false },
    });
    expect(
      await failure(
        gh.api.call('authenticateSession', {
          sessionId: first.sessionId,
          methodId: 'gemini-api-key',
        }),
      ),
    ).toMatchObject({ status: 400 });

    // Only a paired person keeps a key, and only in a key's variable.
    const tokenOnly = await gh.client({ paired: false, label: 'token only' });
    expect(
      await failure(
        tokenOnly.call('setAgentApiKey', {
          agentId: 'gemini',
          variable: 'GEMINI_API_KEY',
          value: 'x',
        }),
      ),
    ).toMatchObject({ status: 403 });
    for (const variable of ['GOOGLE_GEMINI_BASE_URL', 'NODE_OPTIONS', 'GATEHOUSE_API_KEY']) {
      expect(
        await failure(gh.api.call('setAgentApiKey', { agentId: 'gemini', variable, value: 'x' })),
      ).toMatchObject({ status: 400 });
    }
    expect(
      await failure(
        gh.api.call('setAgentApiKey', {
          agentId: 'gemini',
          variable: 'GEMINI_API_KEY',
          value: 'two\nlines',
        }),
      ),
    ).toMatchObject({ status: 400 });

    expect(
      await gh.api.call('setAgentApiKey', {
        agentId: 'gemini',
        variable: 'GEMINI_API_KEY',
        value: KEY,
      }),
    ).toEqual({ agentId: 'gemini', variable: 'GEMINI_API_KEY', set: true });
    const file = join(gh.home, 'settings.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).agents.gemini.env.GEMINI_API_KEY).toBe(KEY);
    expect(statSync(file).mode & 0o077).toBe(0);

    // The settings a client reads say "set"; sent back as read, they keep the key.
    const read = await fetch(`${gh.server.url}/api/settings`, {
      headers: { authorization: `Bearer ${gh.token}` },
    });
    const text = await read.text();
    expect(text).not.toContain(KEY);
    const shown = await gh.api.call('getSettings', {});
    expect(shown.settings.agents['gemini']!.env['GEMINI_API_KEY']).toBe(HIDDEN_VALUE);
    const saved = await gh.api.call('updateSettings', { settings: shown.settings });
    expect(saved.confirmation).toBeUndefined();
    expect(JSON.stringify(saved)).not.toContain(KEY);
    expect(JSON.parse(readFileSync(file, 'utf8')).agents.gemini.env.GEMINI_API_KEY).toBe(KEY);

    await gh.api.call('closeSession', { sessionId: first.sessionId });
    const next = await gh.api.call('createSession', { agentId: 'gemini', cwd: folder });
    const opened = (await gh.api.call('listSessions', {})).find(
      (s) => s.sessionId === next.sessionId,
    );
    expect(opened?.state).toBe('idle');
    await gh.api.call('prompt', { sessionId: next.sessionId, text: 'have you the key?' });
    const said = gh.events.flatMap((e) =>
      e.type === 'session_update' &&
      e.sessionId === next.sessionId &&
      e.update.sessionUpdate === 'agent_message_chunk'
        ? [(e.update['content'] as { text: string }).text]
        : [],
    );
    expect(said).toEqual([`shell exit 0: ${digest}`]);
    await gh.api.call('closeSession', { sessionId: next.sessionId });

    // The audit says who set which variable of which agent, and refused the token-only client.
    await gh.core.store.flush();
    const set = await gh.core.store.events({ type: 'agent_api_key_set' });
    expect(set.map((e) => [e.agentId, e.payload])).toEqual([
      ['gemini', expect.objectContaining({ variable: 'GEMINI_API_KEY', replaced: false })],
    ]);
    const refused = await gh.core.store.events({ type: 'agent_api_key_refused' });
    expect(refused).toHaveLength(1);
  });

  it('is in no file of the data folder but settings.json, no support bundle and no event', async () => {
    const db = new Database(databasePath(gh.home));
    db.pragma('wal_checkpoint(FULL)');
    db.close();
    const files = filesOf(gh.home);
    expect(files.map((f) => f.path)).toContain(databasePath(gh.home));
    expect(files.filter((f) => f.text.includes(KEY)).map((f) => f.path)).toEqual([]);

    const bundle = await gh.api.call('supportBundle', {});
    const zipped = unzipSync(Buffer.from(bundle.contentBase64, 'base64'));
    expect(Object.keys(zipped)).toContain('settings.json');
    for (const [name, bytes] of Object.entries(zipped))
      expect(strFromU8(bytes), name).not.toContain(KEY);

    expect(stream).toContain('session_state');
    expect(stream).not.toContain(KEY);
    expect(JSON.stringify(gh.events)).not.toContain(KEY);
  });
});
