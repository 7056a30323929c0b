// PROVISIONAL — the previewer the core uses until the preview room's own replaces it, kept to this
// one file so the swap is one import. It runs the command in the scratch layer over the session's
// writable folders and, inside that, in a bubblewrap view where everything else is read-only, /tmp
// is private, there is no network and socket(AF_UNIX) is refused: a write elsewhere fails instead
// of landing on the real disk. Such a write is not listed, so a session whose real runs can write
// where the preview cannot see (no sandbox, a writable folder that cannot be layered) is previewed
// as incomplete. It lists created, modified and deleted entries (no diffs, no renames, no hosts).
import { randomUUID } from 'node:crypto';
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { SessionSandbox } from '../../../shared/domain';
import type { Warning } from '../../../shared/findings';
import {
  emptyPreview,
  NO_COUNTS,
  PREVIEW_LIMITS,
  type CommandPreview,
  type PreviewChange,
} from '../../../shared/preview';
import { isInside } from '../fs/containment';
import { protectedEntryForReal, type ProtectedEntry } from '../rules/protected-files';
import { PRIVATE_TMP_SHOWN } from './launch';
import { runInScratchLayer, type ScratchResult } from './scratch-layer';
import { unixSocketFilterSupported, writeUnixSocketFilter, SECCOMP_FD } from './unix-sockets';
import { findBwrap } from './wrap';

export interface ProvisionalPreviewerOptions {
  /** The session's folder and sandbox: where the command may change things (in its scratch view). */
  sessionOf: (sessionId: string) => { cwd: string; sandbox: SessionSandbox };
  /** Where the scratch folders and the socket filter go; never inside a session folder. */
  scratchParent: string;
  protectedEntries: () => readonly ProtectedEntry[];
}

export interface PreviewInput {
  sessionId: string;
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
}

const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * The command inside bubblewrap: the root (already under its overlay) is the one writable place.
 * The scratch layer stops a run only at its bound, so a watcher here ends every process of the
 * namespace once `stop` exists (the request ended first, or Gatehouse is closing).
 */
function confined(
  bwrap: string,
  filter: string,
  stop: string,
  roots: readonly string[],
  cwd: string,
  command: string,
) {
  const args = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    // After /tmp, so a project under /tmp is still seen.
    ...roots.flatMap((root) => ['--bind', root, root]),
    '--unshare-all',
    '--die-with-parent',
    '--seccomp',
    String(SECCOMP_FD),
    '--chdir',
    cwd,
    '/bin/sh',
    '-c',
    command,
  ];
  return [
    // The namespace's own /proc: bwrap reads its namespaces there by the pid it has in this one.
    'mount -t proc proc /proc || exit 126',
    `exec ${SECCOMP_FD}<${quote(filter)} || exit 126`,
    `( while [ ! -e ${quote(stop)} ]; do sleep 0.1; done; kill -KILL -1 ) &`,
    `${[bwrap, ...args].map(quote).join(' ')}`,
    'code=$?',
    'kill $! 2>/dev/null',
    'exit $code',
  ].join('\n');
}

/**
 * The session's writable folders as real paths the scratch layer can cover (the session folder
 * first), and those it cannot: an unsandboxed session writes anywhere; a folder nested with another
 * or holding the scratch folders cannot have a layer of its own.
 */
async function writableRoots(
  session: { cwd: string; sandbox: SessionSandbox },
  parent: string,
): Promise<{ roots: string[]; unseen: string[] }> {
  const roots = [await realpath(session.cwd)];
  const unseen = session.sandbox.profile === 'off' ? ['everything outside the project'] : [];
  for (const shown of session.sandbox.writable) {
    if (shown === 'project' || shown === PRIVATE_TMP_SHOWN) continue;
    const path = shown.startsWith('~/') ? join(homedir(), shown.slice(2)) : shown;
    // One that does not exist cannot be written through; the sandbox makes none.
    const real = await realpath(path).catch(() => null);
    if (real === null) continue;
    const nested = [...roots, parent].some((r) => isInside(real, r) || isInside(r, real));
    if (nested || real === '/') unseen.push(shown);
    else roots.push(real);
  }
  return { roots, unseen };
}

function mapped(
  result: ScratchResult,
  root: string,
  unseen: readonly string[],
  timeoutMs: number,
  entries: readonly ProtectedEntry[],
): CommandPreview {
  if (result.state === 'unavailable') {
    const detail = (result.reason ?? 'no scratch view here').slice(0, PREVIEW_LIMITS.reason);
    return emptyPreview('unavailable', 'system', timeoutMs, detail);
  }
  const counts = { ...NO_COUNTS };
  const changes: PreviewChange[] = [];
  const warnings: Warning[] = [];
  for (const change of result.changes) {
    const isProtected = protectedEntryForReal(change.path, { root, entries }) !== null;
    counts[change.change] += 1;
    if (isProtected) counts.protected += 1;
    if (isProtected && warnings.length < 5) {
      warnings.push({
        code: 'effect_protected',
        severity: 'danger',
        message: `In its preview it ${change.change} ${change.path.slice(-200)}, which runs or is obeyed later outside the sandbox.`,
        where: 'preview',
      });
    }
    if (changes.length >= PREVIEW_LIMITS.changes) continue;
    changes.push({
      path: change.path.slice(0, PREVIEW_LIMITS.path),
      oldPath: null,
      change: change.change,
      entry: change.entry,
      size: change.size ?? null,
      place: isProtected ? 'protected' : 'root',
    });
  }
  if (counts.deleted > PREVIEW_LIMITS.urgentDeletes) {
    warnings.push({
      code: 'effect_mass_delete',
      severity: 'danger',
      message: `In its preview it deleted ${counts.deleted} entries.`,
      where: 'preview',
    });
  }
  const timedOut = result.state === 'timed_out';
  const blind = !timedOut && unseen.length > 0;
  const where = unseen.join(', ').slice(0, PREVIEW_LIMITS.reason - 80);
  return {
    state: timedOut || blind ? 'incomplete' : 'done',
    reason: timedOut ? 'time' : blind ? 'system' : null,
    detail: timedOut
      ? `still running after ${Math.round(timeoutMs / 1000)} s`
      : blind
        ? `what it writes in ${where} is not seen by this preview`
        : null,
    changes,
    counts,
    diffs: [],
    hosts: [],
    warnings,
    exitCode: result.exitCode,
    output: result.output.slice(-PREVIEW_LIMITS.output),
    durationMs: Math.max(0, Math.round(result.durationMs)),
    timeoutMs,
  };
}

export function provisionalPreviewer(
  options: ProvisionalPreviewerOptions,
): (input: PreviewInput) => Promise<CommandPreview> {
  return async ({ sessionId, command, cwd, timeoutMs, signal }) => {
    const parent = options.scratchParent;
    const { roots, unseen } = await writableRoots(options.sessionOf(sessionId), parent);
    const root = roots[0]!;
    if (root === '/' || isInside(parent, root) || !isAbsolute(cwd))
      return emptyPreview('unavailable', 'system', timeoutMs, 'no scratch view for this folder');
    if (!unixSocketFilterSupported())
      return emptyPreview('unavailable', 'system', timeoutMs, 'no socket filter on this system');
    await mkdir(parent, { recursive: true, mode: 0o700 });
    const filter = writeUnixSocketFilter(parent);
    const stop = join(parent, `stop-${randomUUID()}`);
    let stopping: Promise<void> | undefined;
    const onAbort = () => {
      stopping = writeFile(stop, '').catch(() => {});
    };
    if (signal.aborted) return emptyPreview('not_previewed', null, timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await runInScratchLayer({
        roots,
        cwd: root,
        command: confined(findBwrap(), filter, stop, roots, cwd, command),
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/' },
        timeoutMs,
        scratchParent: parent,
      });
      return mapped(result, root, unseen, timeoutMs, options.protectedEntries());
    } finally {
      signal.removeEventListener('abort', onAbort);
      await stopping;
      await rm(stop, { force: true });
    }
  };
}
