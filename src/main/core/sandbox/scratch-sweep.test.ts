// A preview's scratch folder, left in a temp folder every program shares when its core was killed:
// removed once its core is gone, and nothing else there is touched.
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { taggedProcess } from '../../../../test/support/process-scan';
import { launchFolderPrefix, SCRATCH_KIND } from './launch-folders';
import { sweepScratchFolders } from './scratch-sweep';

const parent = mkdtempSync(join(tmpdir(), 'gatehouse-sweep-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** The tag of a process that has ended, as its folders would carry it. */
async function goneTag(): Promise<string> {
  const gone = taggedProcess();
  await gone.end();
  return gone.tag;
}

describe.skipIf(process.platform !== 'linux')('what a killed preview left behind', () => {
  it("is removed once its core is gone; this core's, untagged names, links and others' are left", async () => {
    const folder = mkdtempSync(join(parent, 'shared-'));
    const gone = await goneTag();
    const left = join(folder, `${SCRATCH_KIND}-${gone}-Ab12Cd`);
    mkdirSync(join(left, 'upper'), { recursive: true });
    const ours = mkdtempSync(launchFolderPrefix(folder, SCRATCH_KIND));
    // A link named like a leftover, to a folder the person keeps: the link goes, never its target.
    const kept = mkdtempSync(join(parent, 'kept-'));
    writeFileSync(join(kept, 'notes.txt'), 'mine');
    const link = join(folder, `${SCRATCH_KIND}-${gone}-Ef34Gh`);
    symlinkSync(kept, link);
    const untagged = join(folder, `${SCRATCH_KIND}-Ij56Kl`);
    const otherKind = join(folder, `tmp-${gone}-Mn78Op`);
    for (const dir of [untagged, otherKind]) mkdirSync(dir);
    const names = [basename(ours), basename(link), basename(untagged), basename(otherKind)];
    // Another user's folder of the same name (only root can make one here).
    if (process.getuid?.() === 0) {
      const theirs = join(folder, `${SCRATCH_KIND}-${gone}-Qr90St`);
      mkdirSync(theirs);
      chownSync(theirs, 65534, 65534);
      names.push(basename(theirs));
    }

    await sweepScratchFolders(folder);
    expect(readdirSync(folder).sort()).toEqual(names.sort());
    expect(existsSync(left)).toBe(false);
    expect(existsSync(join(kept, 'notes.txt'))).toBe(true);
  });

  it('lists a folder at most once a minute', async () => {
    const folder = mkdtempSync(join(parent, 'minute-'));
    const gone = await goneTag();
    const leftover = (name: string) => {
      const dir = join(folder, `${SCRATCH_KIND}-${gone}-${name}`);
      mkdirSync(dir);
      return dir;
    };
    const start = Date.now();
    const first = leftover('first');
    await sweepScratchFolders(folder, start);
    const second = leftover('second');
    await sweepScratchFolders(folder, start + 59_000);
    expect([existsSync(first), existsSync(second)]).toEqual([false, true]);
    await sweepScratchFolders(folder, start + 61_000);
    expect(existsSync(second)).toBe(false);
  });
});
