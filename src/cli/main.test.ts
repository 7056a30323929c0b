import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GATEHOUSE_VERSION } from '../shared/control-protocol';
import type { CliIo } from './io';
import { acpHelp, thisGatehouse } from './acp/command';
import { runCli } from './main';
import { databasePath } from '../main/core/store/data-folder';

const home = mkdtempSync(join(tmpdir(), 'gatehouse-cli-unit-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { GATEHOUSE_HOME: home },
  };
  const code = await runCli(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('gatehouse', () => {
  it('prints its version', async () => {
    expect(await run('--version')).toEqual({ code: 0, out: GATEHOUSE_VERSION, err: '' });
  });

  it.each([
    [[], /no command given/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['status', 'extra'], /status takes no arguments/],
    [['audit'], /audit: which check\?/],
    [['audit', 'fix'], /audit: unknown command fix/],
    [['audit', 'verify', 'a.db', 'b.db'], /one database at most/],
    [['audit', 'verify', '--json'], /--json is an option of status only/],
  ])('%j is a usage error (exit 2) with the usage printed', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
    expect(result.err).toContain('Usage: gatehouse');
  });

  it.each([
    [['--help']],
    [['status', '--help']],
    [['audit', '--help']],
    [['audit', 'verify', '--help']],
    [['token', '--help']],
    [['agents', '--help']],
    [['support-bundle', '--help']],
  ])('%j fits a terminal of 100 columns', async (argv) => {
    const { code, out } = await run(...argv);
    expect(code).toBe(0);
    expect(out).toContain('Usage: gatehouse');
    const wide = out.split('\n').filter((line) => line.length > 100);
    expect(wide).toEqual([]);
  });

  it('status with no core on the home exits 3, in text or JSON', async () => {
    const socket = join(home, 'gatehouse.sock');
    expect(await run('status')).toEqual({
      code: 3,
      out: `Gatehouse is not running on ${home} (nothing listens on ${socket})`,
      err: '',
    });
    const json = await run('status', '--json');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.out)).toEqual({ running: false, home, socket });
  });

  it('audit verify without a history exits 2 and says where it looked', async () => {
    expect(await run('audit', 'verify')).toEqual({
      code: 2,
      out: '',
      err: `audit: no history database at ${databasePath(home)} (set GATEHOUSE_HOME or pass the file)`,
    });
  });

  it("acp --help shows the editor's entry with this install's Node and gatehouse, by real path", async () => {
    const entry = realpathSync(join(import.meta.dirname, '../../bin/gatehouse.mjs'));
    expect(thisGatehouse(entry)).toEqual([process.execPath, entry]);
    const help = acpHelp(thisGatehouse(entry));
    const snippet = JSON.parse(`{${help.slice(help.indexOf('"agent_servers"'))}}`);
    expect(snippet.agent_servers['Gemini via Gatehouse']).toEqual({
      type: 'custom',
      command: process.execPath,
      args: [entry, 'acp', '--agent', 'gemini'],
    });
    expect(help).not.toContain('/path/to/gatehouse');
    // Run some other way (a test runner), it names the command as installed on the PATH.
    expect(thisGatehouse('/usr/lib/node_modules/vitest/vitest.mjs')).toEqual(['gatehouse']);
  });
});
