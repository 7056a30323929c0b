// How long an allow is held before the agent hears it, while Gatehouse keeps what undo needs: for
// a command, the project's snapshot and the files its preview named; for an edit, its file. Measured
// on generated projects of 5,000 and 50,000 files, against two floors measured in the same run:
// listing the same tree (readdir of every folder), and listing it with one lstat per file (the
// least any snapshot of sizes and times costs).
//   npx tsx bench/effects.ts        (BENCH_EFFECTS_RUNS=15)
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { v7 as uuidv7 } from 'uuid';
import type { PendingApproval } from '../src/shared/domain';
import { emptyPreview } from '../src/shared/preview';
import { EventBus } from '../src/main/core/events/bus';
import { createEffects } from '../src/main/core/effects/service';
import { PROTECTED_FILES } from '../src/main/core/rules/protected-files';
import { printReport, quantiles, round, type Report } from './report';

const RUNS = Number(process.env.BENCH_EFFECTS_RUNS ?? 15);

/** `files` small files, 50 to a folder, folders 20 to a parent: the shape of a source tree. */
function makeProject(files: number): string {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-bench-effects-'));
  for (let i = 0; i < files; i += 1) {
    const folder = join(root, `pkg${Math.floor(i / 1000)}`, `dir${Math.floor(i / 50) % 20}`);
    if (i % 50 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file${i}.ts`), `export const value${i} = ${i};\n`);
  }
  return root;
}

function listTree(folder: string, stat: boolean): number {
  let n = 0;
  for (const d of readdirSync(folder, { withFileTypes: true })) {
    n += 1;
    const path = join(folder, d.name);
    if (d.isDirectory()) n += listTree(path, stat);
    else if (stat) lstatSync(path);
  }
  return n;
}

function approval(root: string, kind: 'command' | 'edit'): PendingApproval {
  const named = ['pkg0/dir0/file0.ts', 'pkg0/dir0/file1.ts', 'pkg0/dir1/file50.ts'];
  const file = join(root, named[0]!);
  return {
    requestId: uuidv7(),
    sessionId: 's',
    agentId: 'bench',
    agentName: 'Bench',
    cwd: root,
    toolCall: {
      toolCallId: uuidv7(),
      kind: kind === 'command' ? 'execute' : 'edit',
      title: 'x',
      locations: [],
      content: [],
    },
    options: [],
    policy: 'first-responder',
    issuedAt: 0,
    expiresAt: 0,
    warnings: [],
    diffs:
      kind === 'edit'
        ? [
            {
              path: file,
              oldPath: null,
              change: 'modify',
              binary: false,
              oldText: '',
              newText: 'x',
              truncated: false,
              oldBytes: 0,
              newBytes: 1,
              oldLines: 0,
              newLines: 1,
              hash: '',
            },
          ]
        : [],
    command:
      kind === 'command' ? { command: 'make', args: null, cwd: root, source: 'rawInput' } : null,
    tally: null,
    ...(kind === 'command'
      ? {
          preview: {
            ...emptyPreview('done', null, 10_000),
            changes: named.map((path) => ({
              path: join(root, path),
              oldPath: null,
              change: 'modified' as const,
              entry: 'file' as const,
              size: 1,
              place: 'root' as const,
            })),
          },
        }
      : {}),
  };
}

export async function benchEffects(report: Report): Promise<void> {
  for (const files of [5_000, 50_000]) {
    const root = makeProject(files);
    const home = mkdtempSync(join(tmpdir(), 'gatehouse-bench-effects-home-'));
    const held: Record<string, number[]> = { command: [], edit: [] };
    const bus = new EventBus();
    const effects = createEffects({
      home,
      store: { recordEvent: () => {} },
      bus,
      now: Date.now,
      protectedEntries: () => PROTECTED_FILES,
      session: () => ({ cwd: root, own: true, observable: true }),
      held: (ms, kind) => void held[kind]!.push(ms),
    });
    const floor: number[] = [];
    const statFloor: number[] = [];
    try {
      for (let run = 0; run < RUNS; run += 1) {
        let started = performance.now();
        listTree(root, false);
        floor.push(performance.now() - started);
        started = performance.now();
        listTree(root, true);
        statFloor.push(performance.now() - started);
        const command = approval(root, 'command');
        await effects.allowed(command);
        // Reported finished and compared before the next run, outside the measure.
        bus.publish({
          type: 'session_update',
          sessionId: command.sessionId,
          update: {
            sessionUpdate: 'tool_call_update',
            toolCallId: command.toolCall.toolCallId,
            status: 'completed',
          },
        });
        await effects.settled();
        await effects.allowed(approval(root, 'edit'));
      }
    } finally {
      // The commands it watches (never reported finished here) are compared before the folders go.
      await effects.settled();
      effects.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
    const command = quantiles(held.command!);
    const edit = quantiles(held.edit!);
    const list = quantiles(floor);
    const stat = quantiles(statFloor);
    report(`effects: the allow held while keeping what undo needs, ${files} files`, {
      command_p50_ms: round(command.p50, 1),
      command_p95_ms: round(command.p95, 1),
      edit_p50_ms: round(edit.p50, 2),
      list_floor_p50_ms: round(list.p50, 1),
      lstat_floor_p50_ms: round(stat.p50, 1),
      command_vs_lstat_floor: round(command.p50 / stat.p50, 2),
    });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchEffects(printReport);
}
