// How a scratch run ended, in the preview's words: done, or incomplete because it ran out of time,
// hit a bound, or needed the network; the hosts it tried; the warnings its effects earn; the last
// lines it printed.
import type { Warning } from '../../../shared/findings';
import {
  PREVIEW_LIMITS,
  type PreviewCounts,
  type PreviewReason,
  type PreviewState,
} from '../../../shared/preview';
import type { NetworkViolation } from '../sandbox/network-bridge';

// What tools print when a bound stopped them: a file too large (SIGXFSZ, EFBIG), the layer full
// (ENOSPC), no memory (ENOMEM), no more processes (EAGAIN on fork).
const LIMIT_WORDS =
  /File too large|File size limit exceeded|No space left on device|Disk quota exceeded|Cannot allocate memory|out of memory|allocation failed|MemoryError|bad_alloc|Cannot fork|fork: retry|fork: Resource temporarily unavailable|Resource temporarily unavailable/i;
/** 128 + SIGXCPU, 128 + SIGXFSZ: the shell's word for a process a CPU or file bound ended. */
const LIMIT_EXITS = new Set([152, 153]);

// What tools print when they could not reach the network: no name resolution (there is no DNS
// inside), no route, the proxy's refusal.
const NETWORK_WORDS =
  /Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo (ENOTFOUND|EAI_AGAIN)|Network is unreachable|ENETUNREACH|blocked by the Gatehouse sandbox|Failed to establish a new connection|Could not connect to/i;
const HOST_WORDS = [
  /Could not resolve host: ([A-Za-z0-9.-]{1,253})/g,
  /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([A-Za-z0-9.-]{1,253})/g,
  /Failed to connect to ([A-Za-z0-9.-]{1,253}) port/g,
];

export interface RunFacts {
  timedOut: boolean;
  exitCode: number | null;
  output: string;
  diskFull: boolean;
  refused: readonly NetworkViolation[];
  timeoutMs: number;
}

/** The hosts it tried, from the proxy's refusals first, then from what it printed. */
export function hostsOf(facts: Pick<RunFacts, 'refused' | 'output'>): string[] {
  const hosts = new Set<string>();
  for (const violation of facts.refused) {
    // The Host header of a plain request is whatever the command wrote: printable only.
    const host = violation.host
      .replace(/:\d+$/, '')
      .toLowerCase()
      .replace(/[^\x21-\x7e]/g, '?');
    if (host) hosts.add(host.slice(0, PREVIEW_LIMITS.host));
  }
  for (const pattern of HOST_WORDS) {
    for (const [, host] of facts.output.matchAll(pattern)) if (host) hosts.add(host.toLowerCase());
  }
  return [...hosts].slice(0, PREVIEW_LIMITS.hosts);
}

export function verdictOf(facts: RunFacts): {
  state: PreviewState;
  reason: PreviewReason | null;
  detail: string | null;
} {
  if (facts.timedOut) {
    const seconds = Math.round(facts.timeoutMs / 100) / 10;
    return { state: 'incomplete', reason: 'time', detail: `still running after ${seconds} s` };
  }
  const words = LIMIT_WORDS.exec(facts.output)?.[0];
  if (facts.diskFull || (facts.exitCode !== null && LIMIT_EXITS.has(facts.exitCode)) || words) {
    const detail = facts.diskFull
      ? 'it filled the disk space a preview may write'
      : words
        ? `it hit a bound: ${words}`
        : 'it hit its CPU or file-size bound';
    return { state: 'incomplete', reason: 'limits', detail };
  }
  if (facts.refused.length > 0 || NETWORK_WORDS.test(facts.output)) {
    return { state: 'incomplete', reason: 'network', detail: 'it needed the network' };
  }
  return { state: 'done', reason: null, detail: null };
}

/** Danger warnings of what it would do: outside the roots, protected files, many deletes. */
export function effectWarnings(
  counts: PreviewCounts,
  firstOf: (place: 'outside' | 'protected') => string | null,
): Warning[] {
  const warnings: Warning[] = [];
  const outside = firstOf('outside');
  if (counts.outside > 0) {
    warnings.push({
      code: 'effect_outside',
      severity: 'danger',
      message: `It writes outside the folders this session may change${outside ? `, such as ${outside}` : ''} (${counts.outside} in all).`,
      where: 'preview',
    });
  }
  const shielded = firstOf('protected');
  if (counts.protected > 0) {
    warnings.push({
      code: 'effect_protected',
      severity: 'danger',
      message: `It writes a file that runs later${shielded ? `: ${shielded}` : ''} (${counts.protected} in all).`,
      where: 'preview',
    });
  }
  if (counts.deleted > PREVIEW_LIMITS.urgentDeletes) {
    warnings.push({
      code: 'effect_mass_delete',
      severity: 'danger',
      message: `It deletes ${counts.deleted} files and folders.`,
      where: 'preview',
    });
  }
  return warnings;
}

/** The last lines it printed, within the bound, cut at a line. */
export function outputTail(output: string): string {
  if (output.length <= PREVIEW_LIMITS.output) return output;
  const tail = output.slice(-PREVIEW_LIMITS.output);
  const newline = tail.indexOf('\n');
  return newline >= 0 && newline < tail.length - 1 ? tail.slice(newline + 1) : tail;
}
