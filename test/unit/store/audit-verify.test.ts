import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/core/store';
import { decide, tempDir, type TempDir } from './helpers';

const SCRIPT = fileURLToPath(new URL('../../../scripts/audit-verify.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function verify(env: Record<string, string>, ...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { code: run.status, out: (run.stdout + run.stderr).trim() };
}

let tmp: TempDir;
const ids: string[] = [];
beforeAll(async () => {
  tmp = tempDir();
  const store = openStore({ path: tmp.dbPath });
  for (let i = 0; i < 3; i++) ids.push((await decide(store, { command: `echo ${i}` })).requestId);
  await store.close();
});
afterAll(() => tmp.cleanup());

describe('npm run audit:verify', () => {
  it('prints one OK line for $GATEHOUSE_HOME/gatehouse.db and exits 0', () => {
    const { code, out } = verify({ GATEHOUSE_HOME: tmp.dir });
    expect(out).toMatch(/^audit: OK, 6 entries verified in .*gatehouse\.db$/);
    expect(code).toBe(0);
  });

  it('names the first broken entry and its request, and exits 1', () => {
    const db = new Database(tmp.dbPath);
    db.prepare("UPDATE decisions SET reason = 'forged' WHERE request_id = ?").run(ids[1]);
    db.close();
    const { code, out } = verify({}, tmp.dbPath);
    expect(out).toMatch(
      new RegExp(`^audit: BROKEN at entry 4 \\(request ${ids[1]}\\): .*decisions row was changed`),
    );
    expect(out.split('\n')).toHaveLength(1);
    expect(code).toBe(1);
  });

  it('exits 2 when there is nothing to verify', () => {
    const { code, out } = verify({ GATEHOUSE_HOME: `${tmp.dir}/missing` });
    expect(out).toMatch(/no history database/);
    expect(code).toBe(2);
  });
});
