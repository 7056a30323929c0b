// The folders a sandboxed launch makes carry the core that made them; a later core removes those of
// a core that is gone, with everything in them, and nothing else.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processIdentity } from '../process-identity';
import { taggedProcess } from '../../../../test/support/process-scan';
import { launchFolderPrefix, removeLeftoverLaunchFolders } from './launch-folders';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const runDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-launch-folders-'));
  dirs.push(dir);
  return dir;
};

describe.skipIf(process.platform !== 'linux')('launch folders', () => {
  it('names each folder for this core, which keeps it while it runs', async () => {
    const run = runDir();
    const made = mkdtempSync(launchFolderPrefix(run, 'tmp'));
    const own = processIdentity(process.pid)!;
    expect(basename(made)).toMatch(
      new RegExp(`^tmp-${process.pid.toString(36)}\\.${BigInt(own.startTime).toString(36)}-`),
    );
    expect(await removeLeftoverLaunchFolders(run)).toBe(0);
    expect(existsSync(made)).toBe(true);
  });

  it('removes those of a core that is gone, with what an agent left in them; nothing else', async () => {
    const run = runDir();
    const before = taggedProcess();
    await before.end();
    const gone = before.tag;
    const alive = taggedProcess();
    const running = alive.tag;
    for (const kind of ['tmp', 'net', 'shell', 'launch', 'preview', 'gatehouse-preview']) {
      const left = join(run, `${kind}-${gone}-Ab12Cd`);
      mkdirSync(join(left, 'deep', 'er'), { recursive: true });
      writeFileSync(join(left, 'deep', 'er', 'cache.bin'), Buffer.alloc(1024));
      writeFileSync(join(left, 'read-only'), 'x', { mode: 0o444 });
    }
    const kept = [
      `tmp-${running}-Ef34Gh`, // its core still runs
      'tmp-Ij56Kl', // names no core
      `home-${gone}-Mn78Op`, // not a launch folder
      'agents',
    ];
    for (const name of kept) mkdirSync(join(run, name));
    writeFileSync(join(run, 'unreadable'), '');

    try {
      expect(await removeLeftoverLaunchFolders(run)).toBe(6);
      expect(readdirSync(run).sort()).toEqual([...kept, 'unreadable'].sort());
    } finally {
      await alive.end();
    }
  });

  it('says nothing was removed where there is no such folder', async () => {
    expect(await removeLeftoverLaunchFolders(join(runDir(), 'missing'))).toBe(0);
  });
});
