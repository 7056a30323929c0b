// Every test process gets its own audit key file, outside every test's GATEHOUSE_HOME, so tests
// never create the person's real key (~/.local/state/gatehouse/audit-key) and the processes they
// spawn (npm run audit:verify) find the same key.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.GATEHOUSE_AUDIT_KEY_FILE) {
  process.env.GATEHOUSE_AUDIT_KEY_FILE = join(
    mkdtempSync(join(tmpdir(), 'gatehouse-test-key-')),
    'audit-key',
  );
}
