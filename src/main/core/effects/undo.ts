// "Undo these file changes": the files an allowed edit or command changed, put back as they were
// before it — previous contents written back, files it created removed, files it deleted made
// again. All or nothing: refused with the reason when any file changed again since (its current
// hash is not the one it was left with), lies outside the writable roots, is protected, or its
// previous contents were not kept; a write that fails halfway puts back what was already done.
import type { UndoOutcome, UndoStatus } from '../../../shared/effects';
import { readSlices, rootOf, sha256 } from './keep';
import { readKept, readManifest, writeManifest, type UndoManifest } from './manifest';
import { relativeSlash } from './snapshot';
import { ConflictError, NotFoundError } from '../errors';
import { EFFECTS_LIMITS } from '../../../shared/effects';
import { realPathOrNull } from '../fs/containment';
import { readInPlace } from '../fs/read-in-place';
import { protectedEntryFor, type ProtectedEntry } from '../rules/protected-files';
import { removeInside, writeInside } from '../agents/fs-access';

/** A write the audit holds for the request: where, and the hash of what was written. */
export interface RecordedWrite {
  path: string;
  sha256: string | null;
}

type Expect = { state: 'absent' } | { state: 'file'; sha256: string };
type Target = { state: 'absent' } | { state: 'file'; blob: string; sha256: string; mode: number };

interface Step {
  path: string;
  expect: Expect;
  target: Target;
}

interface Plan {
  steps: Step[];
  /** Folders the command made, removed when empty once its files are gone. */
  folders: string[];
}

export interface UndoDeps {
  home: string;
  now: () => number;
  protectedEntries: () => readonly ProtectedEntry[];
}

const refuse = (reason: string): never => {
  throw new ConflictError(`Undo refused: ${reason}`);
};

/** What undo would do, from what was kept and recorded; throws ConflictError with why it cannot. */
function planUndo(manifest: UndoManifest, writes: readonly RecordedWrite[]): Plan {
  const root = manifest.roots[0]!;
  const shown = (path: string): string => relativeSlash(root, path) || path;
  if (manifest.undoneAt !== null) refuse('these changes were undone already');
  const beforeOf = new Map(manifest.before.map((b) => [b.path, b]));
  const previous = (path: string, why: string): Target => {
    const b = beforeOf.get(path);
    if (b?.state === 'file') return b;
    return refuse(
      `the contents of ${shown(path)} before were not kept (${b?.state === 'not_kept' ? b.why : why})`,
    );
  };
  const steps: Step[] = [];
  if (manifest.kind === 'edit') {
    for (const b of manifest.before) {
      const written = writes.filter((w) => w.path === b.path).at(-1);
      if (!written) continue;
      if (!written.sha256) refuse(`the write of ${shown(b.path)} has no recorded hash`);
      const target: Target = b.state === 'absent' ? b : previous(b.path, 'unknown');
      steps.push({ path: b.path, expect: { state: 'file', sha256: written.sha256! }, target });
    }
    if (steps.length === 0) refuse('no write through Gatehouse used this approval');
    return { steps, folders: [] };
  }
  if (manifest.changes === null || manifest.after === null)
    refuse('the command has not finished, so what it changed is not known yet');
  if (manifest.incomplete)
    refuse(`what the command changed is not known whole (${manifest.incomplete})`);
  const afterOf = new Map(manifest.after!.map((a) => [a.path, a.sha256]));
  const left = (path: string): Expect => {
    const hash = afterOf.get(path);
    return hash ? { state: 'file', sha256: hash } : refuse(`${shown(path)} is too large to check`);
  };
  const folders: string[] = [];
  const notListed = 'the preview did not list it';
  for (const c of manifest.changes!) {
    if (c.entry === 'folder') {
      if (c.change === 'created') folders.push(c.path);
      continue;
    }
    if (c.entry !== 'file') refuse(`${shown(c.path)} is a ${c.entry}: undo puts back files only`);
    if (c.change === 'created') {
      steps.push({ path: c.path, expect: left(c.path), target: { state: 'absent' } });
    } else if (c.change === 'modified') {
      steps.push({ path: c.path, expect: left(c.path), target: previous(c.path, notListed) });
    } else if (c.change === 'deleted') {
      steps.push({
        path: c.path,
        expect: { state: 'absent' },
        target: previous(c.path, notListed),
      });
    } else {
      const from = c.oldPath!;
      steps.push({ path: from, expect: { state: 'absent' }, target: previous(from, notListed) });
      steps.push({ path: c.path, expect: left(c.path), target: { state: 'absent' } });
    }
  }
  if (steps.length === 0 && folders.length === 0) refuse('the command changed no files');
  // The deepest first, so a folder is empty by the time its turn comes.
  folders.sort((a, b) => b.length - a.length);
  return { steps, folders };
}

/** Whether history may offer undo for the request; null when nothing was kept for it. */
export async function undoStatus(
  home: string,
  requestId: string,
  writes: readonly RecordedWrite[],
): Promise<UndoStatus | null> {
  const manifest = await readManifest(home, requestId);
  if (!manifest) return null;
  try {
    planUndo(manifest, writes);
    return { available: true, reason: null, undoneAt: null };
  } catch (error) {
    const reason = (error as Error).message.replace(/^Undo refused: /, '');
    return { available: false, reason: reason.slice(0, 500), undoneAt: manifest.undoneAt };
  }
}

interface Checked extends Step {
  /** What is there now, to put back if a later step fails. */
  current: { data: Buffer; mode: number } | null;
  /** The kept contents to write. */
  data: Buffer | null;
}

/** Every step's file as it must be now, inside the roots and not protected; refuses otherwise. */
async function check(
  home: string,
  manifest: UndoManifest,
  plan: Plan,
  entries: readonly ProtectedEntry[],
): Promise<Checked[]> {
  const root = manifest.roots[0]!;
  const checked: Checked[] = [];
  // What is there now is held to be put back if a later step fails: bounded like the hashing.
  let held = 0;
  const slice = readSlices();
  for (const step of plan.steps) {
    const shown = relativeSlash(root, step.path);
    const real = await realPathOrNull(step.path);
    if (real !== step.path || rootOf(real, manifest.roots) === null)
      refuse(`${shown} is no longer where it was, inside the session's writable roots`);
    const entry = protectedEntryFor(shown, entries, true);
    if (entry) refuse(`${shown} is a protected file (${entry.runs}); change it by hand`);
    const left = EFFECTS_LIMITS.hashedRequestBytes - held;
    const now = readInPlace(step.path, Math.min(EFFECTS_LIMITS.hashedFileBytes, left));
    if (now.kind === 'file' && now.data === null && now.size <= EFFECTS_LIMITS.hashedFileBytes)
      refuse('the files it changed are too large to undo at once');
    held += now.kind === 'file' ? (now.data?.length ?? 0) : 0;
    await slice(now.kind === 'file' ? (now.data?.length ?? 0) : 0);
    const matches =
      step.expect.state === 'absent'
        ? now.kind === 'absent'
        : now.kind === 'file' && now.data !== null && sha256(now.data) === step.expect.sha256;
    if (!matches) refuse(`${shown} changed since (it is not what the change left)`);
    let data: Buffer | null = null;
    if (step.target.state === 'file') {
      data = await readKept(home, manifest.requestId, step.target.blob).catch(() => null);
      if (!data || sha256(data) !== step.target.sha256)
        refuse(`the kept contents of ${shown} are missing or damaged`);
    }
    const current = now.kind === 'file' && now.data ? { data: now.data, mode: now.mode } : null;
    checked.push({ ...step, current, data });
  }
  return checked;
}

/**
 * Puts one file in the state `target` (or back to `current`) inside the session's root, at the
 * real path the check found it at (`path` itself): a folder swapped for a link since is refused.
 */
async function put(root: string, path: string, content: { data: Buffer; mode: number } | null) {
  if (content) await writeInside(root, path, content.data, { mode: content.mode, judgedAt: path });
  else await removeInside(root, path);
}

/** Undoes the request's file changes, all or nothing. Throws ConflictError with the reason. */
export async function undoChanges(
  deps: UndoDeps,
  requestId: string,
  writes: readonly RecordedWrite[],
): Promise<UndoOutcome & { paths: string[] }> {
  const manifest = await readManifest(deps.home, requestId);
  if (!manifest) throw new NotFoundError(`no file changes were kept for request ${requestId}`);
  const plan = planUndo(manifest, writes);
  const steps = await check(deps.home, manifest, plan, deps.protectedEntries());
  const root = manifest.roots[0]!;
  const done: Checked[] = [];
  try {
    for (const step of steps) {
      const target =
        step.target.state === 'file' ? { data: step.data!, mode: step.target.mode } : null;
      await put(root, step.path, target);
      done.push(step);
    }
  } catch (error) {
    // All or nothing: what was already put back goes back to how the change left it.
    for (const step of done.reverse()) await put(root, step.path, step.current).catch(() => {});
    const failed = steps[done.length]!;
    refuse(
      `${relativeSlash(root, failed.path)} could not be written (${(error as Error).message}); nothing was changed`,
    );
  }
  for (const folder of plan.folders) {
    // Only when empty: anything made in it since stays, with the folder.
    await removeInside(root, folder, { folder: true }).catch(() => false);
  }
  writeManifest(deps.home, { ...manifest, undoneAt: deps.now() });
  const restored = steps.filter((s) => s.target.state === 'file').length;
  return {
    ok: true,
    restored,
    removed: steps.length - restored,
    paths: steps.map((s) => s.path),
  };
}
