import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPreviewer } from './previewer';

const home = mkdtempSync(join(tmpdir(), 'gatehouse-previewer-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('what the previewer takes from the request path', () => {
  const previewer = createPreviewer({
    gatehouseHome: home,
    sandboxOf: () => {
      throw new Error('an input out of bounds reaches no session');
    },
  });
  const base = {
    sessionId: 's',
    command: 'true',
    cwd: '/',
    timeoutMs: 1000,
    signal: new AbortController().signal,
  };

  it('runs nothing for a command, folder, environment or bound out of bounds', async () => {
    for (const wrong of [
      { command: 'x'.repeat(64 * 1024 + 1) },
      { command: '' },
      { cwd: 'relative/folder' },
      { env: { A: 'x'.repeat(40 * 1024) } },
      { timeoutMs: 10 * 60 * 1000 },
      { timeoutMs: -1 },
    ]) {
      const preview = await previewer({ ...base, ...wrong });
      expect(preview.state).toBe('unavailable');
      expect(preview.detail).toMatch(/^not previewed: /);
      expect(preview.timeoutMs).toBeGreaterThanOrEqual(0);
    }
  });
});
