// npm run audit:verify [-- <database>]: the same check as `gatehouse audit verify` (src/cli/audit-verify.ts),
// run from the sources without a build.
import { auditVerify } from '../src/cli/audit-verify';
import { processIo } from '../src/cli/io';

process.exitCode = auditVerify(process.argv[2], processIo);
