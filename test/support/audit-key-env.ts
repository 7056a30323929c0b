// One audit key file for the whole run, outside every test's GATEHOUSE_HOME, so tests never create
// the person's real key (~/.local/state/gatehouse/audit-key) and the processes they spawn (npm run
// audit:verify) find the same key. Set before the test processes start, which inherit it; removed
// with its folder when the run ends (a folder per test process was left behind by every run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export default function setup(): (() => void) | undefined {
  if (process.env.GATEHOUSE_AUDIT_KEY_FILE) return undefined;
  const file = join(mkdtempSync(join(tmpdir(), 'gatehouse-test-key-')), 'audit-key');
  process.env.GATEHOUSE_AUDIT_KEY_FILE = file;
  return () => {
    delete process.env.GATEHOUSE_AUDIT_KEY_FILE;
    rmSync(dirname(file), { recursive: true, force: true });
  };
}
