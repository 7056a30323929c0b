// A killed main process loses no decision an agent already received: the child prints "replied <id>"
// when the pipeline hands the reply to the agent (after the audit commit); whatever it printed must be
// in the database after SIGKILL.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStoreEngine } from '../../src/main/core/store';
import { tempDir, type TempDir } from '../support/store';
import { databasePath } from '../../src/main/core/store/data-folder';

const CHILD = fileURLToPath(new URL('./fixtures/pipeline-crash-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  replied: Map<string, string>;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function runAndKill(home: string, killAfter: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, home], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const replied = new Map<string, string>();
    let buffered = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const match = /^replied (\S+) (yes|no)$/.exec(line);
        if (match) replied.set(match[1]!, match[2]!);
        // Lines after the kill point in the same chunk were printed before the kill: they count too.
        if (!killed && replied.size >= killAfter) {
          killed = true;
          child.kill('SIGKILL');
        }
        if (line === 'done' && !killed)
          reject(new Error('the child finished all decisions before it was killed'));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve({ replied, signal, stderr }));
  });
}

let tmp: TempDir | undefined;
afterEach(() => tmp?.cleanup());

describe('store crash safety', () => {
  // Three different kill points: early, middle, late.
  // The child needs at least ~125 ms for the last 100 decisions, the margin for the kill to land.
  const killPoints = [
    1 + Math.floor(Math.random() * 300),
    300 + Math.floor(Math.random() * 300),
    600 + Math.floor(Math.random() * 300),
  ];
  for (const killAfter of killPoints) {
    it(`keeps every decision the agent heard after SIGKILL at ~${killAfter} replies`, async () => {
      tmp = tempDir();
      const run = await runAndKill(tmp.dir, killAfter);
      const dbPath = databasePath(tmp.dir);
      expect(run.signal, run.stderr).toBe('SIGKILL');
      expect(run.replied.size).toBeGreaterThanOrEqual(killAfter);
      expect(run.replied.size).toBeLessThan(1000);

      const raw = new Database(dbPath);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      raw.close();

      const store = openStoreEngine({ path: dbPath });
      try {
        expect(store.verifyChain()).toMatchObject({ ok: true });
        for (const [requestId, verdict] of run.replied) {
          const detail = store.historyDetail(requestId);
          expect(detail, requestId).not.toBeNull();
          expect(detail!.reply).toMatchObject({ outcome: 'selected', optionId: verdict });
          expect(detail!.decider).toMatchObject({
            type: 'person',
            clientId: 'desktop',
            surface: 'dialog',
          });
          expect(detail!.votes).toHaveLength(1);
        }
        // The store keeps working on the recovered chain.
        expect(store.history({ limit: 500 }).items.length).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    });
  }
});
