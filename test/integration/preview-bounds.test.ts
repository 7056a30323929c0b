// A preview holds its bounds whatever the command does: one that does not end is stopped with every
// process it started, a fork bomb gets no more processes than the bound, a 2 GB write fills only
// the layer's own bounded space (the disk is untouched), memory past the bound fails, an abort ends
// the run at once, and no scratch folder is left behind by any of them.
import { mkdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bwrapMissing } from '../support/bwrap';
import { pidsWithEnv } from '../support/process-scan';
import { previewProject, type PreviewProject } from '../support/preview-project';

const skip = bwrapMissing('preview bounds');
let p: PreviewProject;
const marker = `run-${process.pid}-${Date.now()}`;
const left = () => pidsWithEnv(`GATEHOUSE_PREVIEW_MARKER=${marker}`);

beforeAll(() => {
  p = previewProject({ memoryBytes: 256 * 1024 * 1024 });
});
afterEach(() => {
  expect(left()).toEqual([]);
  expect(p.leftovers()).toEqual([]);
});
afterAll(() => p.remove());

describe.skipIf(skip)('the bounds of a preview', () => {
  it('stops a command that does not end at the time bound, with its children', async () => {
    const preview = await p.preview('sleep 1000 & sleep 1000', { timeoutMs: 1500, marker });
    expect(preview.state).toBe('incomplete');
    expect(preview.reason).toBe('time');
    expect(preview.detail).toBe('still running after 1.5 s');
  });

  it('gives a fork loop no more processes than the bound', async () => {
    const preview = await p.preview(
      // The inner shell ends at its first refused fork; the outer one counts with builtins only.
      `sh -c 'i=0; while [ $i -lt 3000 ]; do sleep 60 & i=$((i+1)); done'; set -- /proc/[0-9]*; echo "processes $#"`,
      { marker },
    );
    const counted = Number(/processes (\d+)/.exec(preview.output)?.[1]);
    expect(counted).toBeGreaterThan(100);
    expect(counted).toBeLessThanOrEqual(1024);
    expect(preview.state).toBe('incomplete');
    expect(preview.reason).toBe('limits');
  });

  it('ends a fork bomb at the time bound', async () => {
    const preview = await p.preview('b() { b | b & }; b; sleep 1000', { timeoutMs: 3000, marker });
    // Cut short at the bound; when the bomb has taken every process the layer allows, the layer
    // may not even be read back, which says unavailable. Never a finished preview.
    expect(['incomplete', 'unavailable']).toContain(preview.state);
  });

  it('keeps a 2 GB write inside the layer’s bounded space, and the disk’s free space stays', async () => {
    const free = () => {
      const stat = statfsSync(p.base);
      return stat.bavail * stat.bsize;
    };
    const before = free();
    const preview = await p.preview(
      'for i in 1 2 3 4 5 6 7 8; do dd if=/dev/zero of=big$i bs=1M count=256 status=none || echo "failed $i"; done',
      { marker },
    );
    expect(preview.state).toBe('incomplete');
    expect(preview.reason).toBe('limits');
    expect(preview.output).toContain('failed 8');
    const written = preview.changes.reduce((sum, change) => sum + (change.size ?? 0), 0);
    expect(written).toBeLessThanOrEqual(512 * 1024 * 1024);
    // Others may write to this disk meanwhile; the preview's 512 MB would be well past this.
    expect(before - free()).toBeLessThan(128 * 1024 * 1024);
  });

  it('fails a process that takes more memory than its bound, and the run ends', async () => {
    const preview = await p.preview(
      `node -e "const a = []; for (;;) a.push(Buffer.alloc(64 * 1024 * 1024, 1))"; echo "exit $?"`,
      { marker },
    );
    expect(preview.output).toMatch(/exit [1-9]/);
    expect(preview.state).toBe('incomplete');
    expect(preview.reason).toBe('limits');
  });

  it('ends the run when the request is decided first', async () => {
    const controller = new AbortController();
    const running = p.preview('sleep 1000', {
      timeoutMs: 60_000,
      marker,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 500);
    const preview = await running;
    expect(preview.state).toBe('incomplete');
    expect(preview.detail).toBe('stopped: the request was decided first');
  });

  it('says unavailable, and runs nothing, where a folder cannot be overlaid', async () => {
    const odd = join(p.base, 'home', 'a,b');
    mkdirSync(odd);
    const preview = await p.previewer({
      sessionId: 'odd',
      command: `touch ${join(p.home, 'ran')}`,
      cwd: odd,
      timeoutMs: 5000,
      signal: new AbortController().signal,
    });
    expect(preview.state).toBe('unavailable');
    expect(preview.reason).toBe('system');
  });
});
