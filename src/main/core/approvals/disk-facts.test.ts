import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCallSnapshot } from '../../../shared/domain';
import { DISK_MAX_PATHS, gatherDiskFacts } from './disk-facts';

let project: string;
beforeEach(() => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-disk-')));
  mkdirSync(join(project, 'src'));
  writeFileSync(join(project, 'src', 'app.ts'), 'export const a = 1;\n');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const deep = (i: number) =>
  `${Array.from({ length: 40 }, (_, level) => `missing${i}-${level}`).join('/')}/f.txt`;

describe('the disk facts of a request', () => {
  it("read the file a diff replaces, and walk many paths of missing folders off the core's thread", async () => {
    const toolCall: ToolCallSnapshot = {
      toolCallId: 'tc-1',
      kind: 'edit',
      title: 'Edit src/app.ts',
      locations: Array.from({ length: DISK_MAX_PATHS }, (_, i) => ({ path: deep(i) })),
      content: [{ type: 'diff', path: 'src/app.ts', oldText: 'x', newText: 'y' }],
    };
    // A hostile agent's 64 paths of 40 missing folders: the walks must give the loop its turns.
    let turned = false;
    setImmediate(() => (turned = true));
    const facts = await gatherDiskFacts(project, toolCall);
    expect(turned).toBe(true);
    expect(facts.root).toBe(project);
    expect(facts.files).toEqual([
      { path: 'src/app.ts', exists: true, text: 'export const a = 1;\n' },
    ]);
    expect(facts.paths).toHaveLength(DISK_MAX_PATHS);
    expect(facts.paths.find((p) => p.path === deep(3))?.real).toBe(join(project, deep(3)));
  });
});
