// Whether this process holds CAP_SYS_ADMIN (Linux /proc): without it the kernel takes one change of
// a scheduling group's nice every 100 ms, machine-wide, so a test that changes groups one after the
// other is run only where it holds.
import { readFileSync } from 'node:fs';

const CAP_SYS_ADMIN = 21n;

export function hasSysAdmin(): boolean {
  try {
    const effective = /^CapEff:\s*([0-9a-f]+)$/m.exec(
      readFileSync('/proc/self/status', 'utf8'),
    )?.[1];
    return effective !== undefined && ((BigInt(`0x${effective}`) >> CAP_SYS_ADMIN) & 1n) === 1n;
  } catch {
    return false;
  }
}
