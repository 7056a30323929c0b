// secret_path and outside_session, both judged on the resolved paths a request names.
import { isAbsolute, resolve } from 'node:path';
import { revealInvisibles } from '../../../../shared/invisible';
import { isInside } from '../../fs/containment';
import { NETWORK_PROGRAMS } from '../../rules/shell/programs';
import type { CommandAnalysis } from '../script';
import { secretKind, secretName } from '../secrets';
import { baseName, excerpt } from '../text';
import type { Warning } from '../../../../shared/domain';
import type { PathRef } from './refs';
import type { WarningSink } from './sink';

const VERB = { read: 'reads', write: 'writes to', access: 'uses' } as const;

/**
 * Danger when a secret is written, moved or deleted, or read by a command that also uses the
 * network (it could be sent away); caution when it is only read or used. One warning per file:
 * the most severe way the request touches it, at the first place it is named.
 */
export function secretPathWarnings(
  sink: WarningSink,
  refs: PathRef[],
  analysis: CommandAnalysis | null,
  homeDir: string,
): void {
  const network = analysis
    ? [...analysis.programs].find((p) => NETWORK_PROGRAMS.has(p))
    : undefined;
  const found = new Map<string, { warning: Warning; danger: boolean }>();
  for (const ref of refs) {
    const kind =
      ref.resolved !== null
        ? secretKind(ref.resolved, homeDir)
        : ref.raw.includes('$')
          ? null
          : secretName(baseName(ref.raw));
    if (!kind) continue;
    const exfil = ref.fromCommand && ref.access !== 'write' && network !== undefined;
    const danger = ref.access === 'write' || exfil;
    const key = ref.resolved ?? ref.raw;
    const earlier = found.get(key);
    if (earlier && (earlier.danger || !danger)) continue;
    const shown = excerpt(revealInvisibles(ref.raw), 120);
    const tail = exfil
      ? ` and the command also uses the network (${network}), so it could be sent away`
      : '';
    const warning: Warning = {
      code: 'secret_path',
      severity: danger ? 'danger' : 'caution',
      message: `The request ${VERB[ref.access]} ${kind}: ${shown}${tail}.`,
      where: earlier ? earlier.warning.where : ref.where,
    };
    if (earlier) Object.assign(earlier.warning, warning);
    else found.set(key, { warning, danger });
    if (earlier) earlier.danger = danger;
  }
  for (const { warning } of found.values()) sink.add(warning);
}

/**
 * Caution for every path that resolves outside the session folder (`..` normalized, symlinks not
 * followed), once per resolved path, at the first place it is named.
 */
export function outsideSessionWarnings(
  sink: WarningSink,
  refs: PathRef[],
  sessionCwd: string,
): void {
  if (!isAbsolute(sessionCwd)) return;
  const root = resolve(sessionCwd);
  const seen = new Set<string>();
  for (const ref of refs) {
    if (ref.resolved === null || isInside(ref.resolved, root) || seen.has(ref.resolved)) continue;
    seen.add(ref.resolved);
    const shown = excerpt(revealInvisibles(ref.raw), 120);
    const resolvedNote =
      ref.resolved !== ref.raw
        ? ` (resolves to ${excerpt(revealInvisibles(ref.resolved), 120)})`
        : '';
    sink.add({
      code: 'outside_session',
      severity: 'caution',
      message: `${ref.label} is ${shown}${resolvedNote}, outside the session folder ${excerpt(revealInvisibles(root), 120)}.`,
      where: ref.where,
    });
  }
}
