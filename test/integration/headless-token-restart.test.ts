// The headless token outlives a restart: the address a browser or phone holds keeps working until
// the person rotates it with `gatehouse token rotate`, after which the old one is refused at once,
// `gatehouse status --url` gives the new address, and every new token is in the audit. A sandboxed
// agent cannot read the token's file.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import type { CliIo } from '../../src/cli/io';
import { serverTokenPath } from '../../src/main/core/store/server-token';
import { bwrapMissing } from '../support/bwrap';
import { startCoreProcess, type CoreProcess } from '../support/core-process';
import { databasePath } from '../../src/main/core/store/data-folder';

const noBwrap = bwrapMissing('headless token');

let core: CoreProcess | undefined;
const folders: string[] = [];
afterEach(async () => {
  await core?.stop();
  core = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const folder = (prefix: string) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  folders.push(dir);
  return dir;
};

async function cli(home: string, ...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const io: CliIo = {
    out: (line) => lines.push(line),
    err: (line) => lines.push(line),
    env: { ...process.env, GATEHOUSE_HOME: home },
  };
  const code = await runCli(argv, io);
  return { code, out: lines.join('\n') };
}

const tokenOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get('token')!;
const sessions = (origin: string, token: string) =>
  fetch(`${origin}/api/sessions`, { headers: { authorization: `Bearer ${token}` } });

describe('the headless token', () => {
  it('survives a restart, is rotated on request, and each new one is audited', async () => {
    const home = folder('gatehouse-token-home-');
    core = await startCoreProcess(home);
    const first = tokenOf(core.url);
    await core.stop();
    core = await startCoreProcess(home);
    expect(tokenOf(core.url)).toBe(first);
    const origin = new URL(core.url).origin;
    expect((await sessions(origin, first)).status).toBe(200);

    const status = await cli(home, 'status', '--url');
    expect(status).toEqual({ code: 0, out: `${origin}/#token=${first}` });

    // An open event stream holding the old token ends at the rotation, and its reconnect is refused.
    const stream = await fetch(`${origin}/api/events`, {
      headers: { authorization: `Bearer ${first}` },
    });
    const ended = stream.text();
    const rotated = await cli(home, 'token', 'rotate');
    expect(rotated.code).toBe(0);
    await ended;
    const second = readFileSync(serverTokenPath(home), 'utf8').trim();
    expect(second).not.toBe(first);
    expect(rotated.out).toContain(`Open: ${origin}/#token=${second}`);
    expect((await sessions(origin, first)).status).toBe(401);
    expect((await sessions(origin, second)).status).toBe(200);
    expect((await cli(home, 'status', '--url')).out).toBe(`${origin}/#token=${second}`);

    // Rotated while stopped: the next start serves a new token.
    await core.stop();
    core = undefined;
    expect((await cli(home, 'token', 'rotate')).out).toContain('next start makes a new');
    core = await startCoreProcess(home);
    const third = tokenOf(core.url);
    expect([first, second]).not.toContain(third);
    await core.stop();
    core = undefined;

    const db = new Database(databasePath(home), { readonly: true });
    const changes = db
      .prepare(`SELECT payload_json FROM events WHERE type = 'server_token_changed' ORDER BY at`)
      .all()
      .map((row) => JSON.parse((row as { payload_json: string }).payload_json) as { how: string });
    db.close();
    expect(changes.map((c) => c.how)).toEqual(['created', 'rotated', 'created']);
    const audited = JSON.stringify(changes);
    for (const token of [first, second, third]) expect(audited).not.toContain(token);
  });

  it.skipIf(noBwrap)('cannot be read by an agent in the sandbox', async () => {
    const home = folder('gatehouse-token-home-');
    const work = folder('gatehouse-token-work-');
    const report = join(work, 'report.txt');
    // The agent knows where the file lies and tries to read it.
    const script = [
      `cat '${serverTokenPath(home)}' > '${report}' 2>&1`,
      `echo "exit $?" >> '${report}'`,
      `echo done >> '${report}'`,
      'exec sleep 30',
    ].join('; ');
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({ agents: { thief: { command: '/bin/sh', args: ['-c', script] } } }),
    );
    core = await startCoreProcess(home);
    const token = tokenOf(core.url);
    const origin = new URL(core.url).origin;
    const controller = new AbortController();
    void fetch(`${origin}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: 'thief', cwd: work }),
      signal: controller.signal,
    }).catch(() => undefined);
    let text = '';
    for (let i = 0; i < 400 && !text.includes('done'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      text = (() => {
        try {
          return readFileSync(report, 'utf8');
        } catch {
          return '';
        }
      })();
    }
    controller.abort();
    // The file is there, outside the sandbox, holding the token the agent is after.
    expect(readFileSync(serverTokenPath(home), 'utf8').trim()).toBe(token);
    expect(text).toContain('done');
    expect(text).not.toContain(token);
    expect(text).toMatch(/No such file|Permission denied/);
    expect(text).not.toContain('exit 0');
  });
});
