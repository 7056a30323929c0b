// Collects warnings: drops exact duplicates and collapses a flood of one code (a hostile text
// with 10 000 bidi characters) into MAX_WARNINGS_PER_CODE warnings plus one "and N more".
import type { Warning, WarningCode } from '../../../../shared/domain';
import { MAX_WARNINGS_PER_CODE } from '../limits';

export class WarningSink {
  private readonly list: Warning[] = [];
  private readonly keys = new Set<string>();
  private readonly perCode = new Map<WarningCode, number>();
  private readonly dropped = new Map<WarningCode, { count: number; danger: boolean }>();

  add(warning: Warning): void {
    const key = `${warning.code}\u0000${warning.where}\u0000${warning.message}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    const count = this.perCode.get(warning.code) ?? 0;
    if (count >= MAX_WARNINGS_PER_CODE) {
      const d = this.dropped.get(warning.code) ?? { count: 0, danger: false };
      d.count += 1;
      d.danger ||= warning.severity === 'danger';
      this.dropped.set(warning.code, d);
      return;
    }
    this.perCode.set(warning.code, count + 1);
    this.list.push(warning);
  }

  /** Danger first, then in the order found. */
  result(): Warning[] {
    const out = [...this.list];
    for (const [code, d] of this.dropped) {
      out.push({
        code,
        severity: d.danger ? 'danger' : 'caution',
        message: `${d.count} more ${code} finding${d.count === 1 ? '' : 's'} not listed; review the raw request.`,
        where: 'request',
      });
    }
    return out
      .map((w, i) => ({ w, i }))
      .sort((a, b) => rank(a.w) - rank(b.w) || a.i - b.i)
      .map(({ w }) => w);
  }
}

function rank(w: Warning): number {
  return w.severity === 'danger' ? 0 : 1;
}
