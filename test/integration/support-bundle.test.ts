// `gatehouse support-bundle` over a real history: a scripted agent asks to run a command and write a
// file, a person allows it, then the bundle is made while the core runs. Every file of the zip is
// searched for the secrets the settings, environment and log hold and for what the agent asked.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import type { CliIo } from '../../src/cli/io';
import { GATEHOUSE_VERSION } from '../../src/shared/control-protocol';
import { scriptedAgentLaunch, type ScriptStep } from '../support/agents/scripted-agent';
import { runNode, startCoreProcess, type CoreProcess } from '../support/core-process';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';
import { databasePath } from '../../src/main/core/store/data-folder';

const SECRETS = {
  agentEnv: 'agent-env-token-7f3a9c1d',
  agentFlag: 'agent-flag-key-2b8e6f04',
  header: 'otlp-header-secret-91c4d7',
  title: 'TITLE-TEXT-d41f0b',
  command: 'COMMAND-SECRET-9e2b57',
  diff: 'DIFF-SECRET-5a7f3e',
  prompt: 'PROMPT-TEXT-b83e11',
};

const made: string[] = [];
let session: ScriptedSession | undefined;
let core: CoreProcess | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
  await core?.stop();
  core = undefined;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function io(env: CliIo['env']) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env },
    out,
    err,
  };
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('gatehouse support-bundle', () => {
  it('holds logs, redacted settings, versions, audit metadata and verify; no secret, no asked text', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'gatehouse-bundle-'));
    made.push(outDir);
    session = await startScriptedSession({
      prompts: [
        [
          {
            type: 'requestPermission',
            toolCall: {
              toolCallId: 't1',
              kind: 'execute',
              title: `Run ${SECRETS.title}`,
              rawInput: { command: `curl -H 'X-Api: ${SECRETS.command}' https://example.invalid` },
              content: [
                { type: 'diff', path: '/tmp/notes.txt', oldText: null, newText: SECRETS.diff },
              ],
            },
            options: [
              { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
              { optionId: 'no', name: 'No', kind: 'reject_once' },
            ],
          },
        ],
      ],
    });
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: `please ${SECRETS.prompt}` });
    const approval = await gh.nextApproval();
    const allow = approval.options.find((o) => o.kind === 'allow_once')!;
    await gh.api.call('vote', { requestId: approval.requestId, optionId: allow.optionId });
    await turn;
    // The turn's end has the allowed command's effects compared and recorded, after the turn: the
    // database is compared below, and a record still to come would change it.
    await expect
      .poll(
        async () => (await gh.api.call('historyDetail', { requestId: approval.requestId })).effects,
      )
      .toBeDefined();
    await gh.core.store.flush();

    // The person's settings file: an agent with a key in its environment and flags, a collector header.
    const launch = scriptedAgentLaunch({ prompts: [] });
    writeFileSync(
      join(gh.home, 'settings.json'),
      JSON.stringify({
        agents: {
          s: {
            command: launch.command,
            args: [...launch.args, `--api-key=${SECRETS.agentFlag}`],
            env: { SERVICE_TOKEN: SECRETS.agentEnv, SCRIPT_MODE: 'plain' },
          },
        },
        telemetry: {
          otlp: {
            endpoint: 'http://127.0.0.1:1/',
            headers: { 'x-honeycomb-team': SECRETS.header },
          },
        },
      }),
    );
    // Log lines that quote secrets, as a careless message might.
    mkdirSync(join(gh.home, 'logs'), { recursive: true });
    writeFileSync(
      join(gh.home, 'logs', 'gatehouse.log'),
      `2025-01-01T00:00:00.000Z info  [core] started\n2025-01-01T00:00:01.000Z warn  [agent] env ${SECRETS.agentEnv}\n`,
    );
    writeFileSync(
      join(gh.home, 'logs', 'gatehouse.1.log'),
      `2025-01-01T00:00:00.000Z warn  [http] refused Bearer ${gh.token}\n`,
    );

    const db = databasePath(gh.home);
    // The running core copies its WAL into the database file on a schedule of its own: done here, so
    // that the file compared is the core's last write and a copy still to come cannot change it.
    // A read of the core's own can hold the checkpoint back: asked again until every frame is in.
    const settle = new Database(db);
    await expect
      .poll(() => {
        const [done] = settle.pragma('wal_checkpoint(FULL)') as {
          busy: number;
          log: number;
          checkpointed: number;
        }[];
        return done!.busy === 0 && done!.checkpointed === done!.log;
      })
      .toBe(true);
    settle.close();
    const before = { files: readdirSync(gh.home).sort(), db: sha(db) };
    const out = join(outDir, 'bundle.zip');
    const run = io({ ...process.env, GATEHOUSE_HOME: gh.home, GATEHOUSE_TOKEN: gh.token });
    expect(await runCli(['support-bundle', '--out', out], run.io)).toBe(0);
    expect(run.out).toEqual([out]);
    expect(run.err).toEqual([]);
    // Read only: no file appears in the data folder and the database is untouched.
    expect({ files: readdirSync(gh.home).sort(), db: sha(db) }).toEqual(before);

    const files = unzipSync(readFileSync(out));
    expect(Object.keys(files).sort()).toEqual([
      'audit-entries.json',
      'audit-verify.txt',
      'logs/gatehouse.1.log',
      'logs/gatehouse.log',
      'settings.json',
      'versions.json',
    ]);
    const forbidden = [...Object.values(SECRETS), gh.token, session.folder];
    for (const [name, bytes] of Object.entries(files)) {
      const text = strFromU8(bytes);
      for (const secret of forbidden) expect(text, `${name} holds ${secret}`).not.toContain(secret);
    }
    const text = (name: string) => strFromU8(files[name]!);
    expect(text('logs/gatehouse.log')).toContain('[core] started');
    expect(text('audit-verify.txt')).toMatch(/^audit: OK, \d+ entries verified in /);

    const entries = JSON.parse(text('audit-entries.json')) as Record<string, unknown>[];
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries.find((e) => e.kind === 'request')).toMatchObject({
      requestId: approval.requestId,
      agentId: 's',
      sessionId,
      toolKind: 'execute',
    });
    expect(entries.find((e) => e.kind === 'decision')).toMatchObject({
      requestId: approval.requestId,
      verdict: 'allow',
      optionKind: 'allow_once',
      deciderType: expect.any(String),
    });

    const settings = JSON.parse(text('settings.json'));
    expect(settings.agents.s.env.SCRIPT_MODE).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(settings.telemetry.otlp.headers).toEqual({ 'x-honeycomb-team': '[redacted]' });
    expect(JSON.parse(text('versions.json'))).toMatchObject({
      gatehouse: GATEHOUSE_VERSION,
      node: process.versions.node,
      platform: process.platform,
      agents: { s: launch.command },
    });
  });

  it('the running core makes it over the API with the chain it holds; no token, no link, no asked text gets it or is in it', async () => {
    const ask = (id: string): ScriptStep => ({
      type: 'requestPermission',
      toolCall: {
        toolCallId: id,
        kind: 'execute',
        title: `Run ${SECRETS.title}`,
        rawInput: { command: SECRETS.command },
      },
      options: [
        { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
        { optionId: 'no', name: 'No', kind: 'reject_once' },
      ],
    });
    session = await startScriptedSession({ prompts: [[ask('t1'), ask('t2')]] });
    const { gh, sessionId } = session;
    const turn = gh.api.call('prompt', { sessionId, text: `please ${SECRETS.prompt}` });
    const first = await gh.nextApproval();
    await gh.api.call('vote', { requestId: first.requestId, optionId: 'no' });
    const second = await gh.nextApproval((a) => a.requestId !== first.requestId);

    const post = (authorization?: string) =>
      fetch(`${gh.server.url}/api/support-bundle`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(authorization ? { authorization } : {}),
        },
        body: '{}',
      });
    expect((await post()).status).toBe(401);
    const link = await gh.api.call('createApprovalLink', { requestId: second.requestId });
    expect((await post(`Link ${link.token}`)).status).toBe(401);

    const bundle = await gh.api.call('supportBundle', {});
    expect(bundle.filename).toMatch(/^gatehouse-support-[0-9TZ-]+\.zip$/);
    const files = unzipSync(Buffer.from(bundle.contentBase64, 'base64'));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'audit-entries.json',
        'audit-verify.txt',
        'settings.json',
        'versions.json',
      ]),
    );
    expect(strFromU8(files['audit-verify.txt']!)).toMatch(/^audit: OK, \d+ entries verified in /);
    const entries = JSON.parse(strFromU8(files['audit-entries.json']!)) as {
      requestId: string | null;
    }[];
    expect(entries.map((e) => e.requestId)).toContain(first.requestId);
    for (const [name, bytes] of Object.entries(files)) {
      const text = strFromU8(bytes);
      for (const secret of [SECRETS.title, SECRETS.command, SECRETS.prompt, gh.token, link.token]) {
        expect(text, `${name} holds ${secret}`).not.toContain(secret);
      }
    }
    await gh.api.call('vote', { requestId: second.requestId, optionId: 'no' });
    await turn;
  });

  it('without a core, settings or history it still writes a bundle, and creates nothing in the home', async () => {
    const home = mkdtempSync(join(tmpdir(), 'gatehouse-bundle-home-'));
    const outDir = mkdtempSync(join(tmpdir(), 'gatehouse-bundle-'));
    made.push(home, outDir);
    const out = join(outDir, 'bundle.zip');
    const run = io({ ...process.env, GATEHOUSE_HOME: home });
    expect(await runCli(['support-bundle', '--out', out], run.io)).toBe(0);
    expect(readdirSync(home)).toEqual([]);
    const files = unzipSync(readFileSync(out));
    expect(Object.keys(files).sort()).toEqual([
      'audit-entries.json',
      'audit-verify.txt',
      'settings.json',
      'versions.json',
    ]);
    expect(strFromU8(files['audit-verify.txt']!)).toMatch(/^audit: no history database at /);

    // The bundle is never written through an existing file.
    const again = io({ ...process.env, GATEHOUSE_HOME: home });
    expect(await runCli(['support-bundle', '--out', out], again.io)).toBe(1);
    expect(again.err.join('\n')).toMatch(/cannot write .*EEXIST/);
  });

  it('the built command, beside a headless core process that logs and audits, leaks none of its secrets', async () => {
    if (!existsSync('out/main/cli.js'))
      throw new Error('the gatehouse command is not built: run `npx electron-vite build` first');
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-bundle-home-')));
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-bundle-work-')));
    const outDir = mkdtempSync(join(tmpdir(), 'gatehouse-bundle-'));
    made.push(home, folder, outDir);
    const token = 'core-process-token-4c2e9a71';
    const launch = scriptedAgentLaunch({ prompts: [] });
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        agents: {
          s: {
            command: launch.command,
            args: launch.args,
            env: { ...launch.env, SERVICE_TOKEN: SECRETS.agentEnv },
            sandbox: 'off',
          },
        },
        // A collector that is not there, and a header the core holds for it.
        telemetry: {
          otlp: {
            endpoint: 'http://127.0.0.1:9/',
            protocol: 'http/json',
            headers: { authorization: `Bearer ${SECRETS.header}` },
            exportDelayMs: 10,
            retryDelayMs: 50,
          },
        },
      }),
    );
    core = await startCoreProcess(home, { GATEHOUSE_TOKEN: token });
    const created = await fetch(`${new URL(core.url).origin}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: 's', cwd: folder }),
    });
    expect(created.status).toBe(200);

    const out = join(outDir, 'bundle.zip');
    const run = await runNode(['bin/gatehouse.mjs', 'support-bundle', '--out', out], {
      GATEHOUSE_HOME: home,
    });
    expect(run).toMatchObject({ code: 0, stdout: `${out}\n` });
    const files = unzipSync(readFileSync(out));
    expect(Object.keys(files)).toContain('logs/gatehouse.log');
    expect(strFromU8(files['logs/gatehouse.log']!).length).toBeGreaterThan(0);
    expect(strFromU8(files['audit-verify.txt']!)).toMatch(/^audit: OK, \d+ entries verified in /);
    for (const [name, bytes] of Object.entries(files)) {
      const text = strFromU8(bytes);
      for (const secret of [token, SECRETS.agentEnv, SECRETS.header]) {
        expect(text, `${name} holds ${secret}`).not.toContain(secret);
      }
    }
  });
});
