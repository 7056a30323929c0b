// What is kept for one allowed request in `<data>/undo/<requestId>/`: the contents before (one file
// each) and `manifest.json`, which names them, the writable roots at the time, and — for a command
// — every change it made with each file's hash afterwards. Read back through zod: a manifest that
// does not read as one is no manifest, and nothing is undone from it.
import { renameSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { EFFECTS_LIMITS } from '../../../shared/effects';
import { PreviewChange } from '../../../shared/preview';

const Path = z.string().min(1).max(4096);
const Sha = z.string().regex(/^[0-9a-f]{64}$/);

export const BeforeState = z.discriminatedUnion('state', [
  z.object({
    path: Path,
    state: z.literal('file'),
    /** The kept file's name in the request's folder. */
    blob: z.string().regex(/^\d{1,6}$/),
    sha256: Sha,
    size: z.number().int().nonnegative(),
    mode: z.number().int().min(0).max(0o7777),
  }),
  z.object({ path: Path, state: z.literal('absent') }),
  z.object({ path: Path, state: z.literal('not_kept'), why: z.string().max(500) }),
]);
export type BeforeState = z.infer<typeof BeforeState>;

/** A file as the command left it: its hash, or null when it was too large to hash. */
export const AfterState = z.object({ path: Path, sha256: Sha.nullable() });
export type AfterState = z.infer<typeof AfterState>;

export const UndoManifest = z.object({
  version: z.literal(1),
  requestId: z.uuid(),
  sessionId: z.string().max(200),
  agentId: z.string().max(200),
  kind: z.enum(['edit', 'command']),
  /** The session's writable roots when it was allowed (real paths): undo writes nowhere else. */
  roots: z.array(Path).min(1).max(64),
  keptAt: z.number(),
  /** Bytes kept in the folder. */
  bytes: z.number().int().nonnegative(),
  /** How long keeping held the reply to the agent. */
  heldMs: z.number().nonnegative(),
  before: z.array(BeforeState).max(EFFECTS_LIMITS.snapshotEntries),
  /** A command's observed changes, all of them; null until it finished, and for edits. */
  changes: z.array(PreviewChange).max(EFFECTS_LIMITS.snapshotEntries).nullable(),
  after: z.array(AfterState).max(EFFECTS_LIMITS.snapshotEntries).nullable(),
  /** Why the comparison cannot be trusted whole (a bound reached); null when it can. */
  incomplete: z.string().max(500).nullable(),
  undoneAt: z.number().nullable(),
});
export type UndoManifest = z.infer<typeof UndoManifest>;

const MANIFEST = 'manifest.json';

export const undoRoot = (home: string): string => join(home, 'undo');
export const requestFolder = (home: string, requestId: string): string =>
  join(undoRoot(home), requestId);

/**
 * Written whole under a temporary name, then renamed: a reader never sees half of it. Written in
 * place: a few kilobytes in the data folder, where the thread pool's round trips cost the allow
 * that waits for them more than the writes themselves.
 */
export function writeManifest(home: string, manifest: UndoManifest): void {
  const dir = requestFolder(home, manifest.requestId);
  const temp = join(dir, `${MANIFEST}.tmp`);
  writeFileSync(temp, JSON.stringify(manifest), { mode: 0o600 });
  renameSync(temp, join(dir, MANIFEST));
}

/** The request's manifest, or null when none was kept (or it does not read as one). */
export async function readManifest(home: string, requestId: string): Promise<UndoManifest | null> {
  let text: string;
  try {
    text = await readFile(join(requestFolder(home, requestId), MANIFEST), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = UndoManifest.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.requestId === requestId ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function readKept(home: string, requestId: string, blob: string): Promise<Buffer> {
  return readFile(join(requestFolder(home, requestId), blob));
}

/**
 * Removes the oldest requests' folders (request ids are UUID v7: their order is their age) until
 * what is kept fits in `maxBytes`. A folder whose manifest is not written yet counts as empty.
 * Returns the folders removed and the bytes still kept.
 */
export async function pruneKept(
  home: string,
  maxBytes: number = EFFECTS_LIMITS.keptTotalBytes,
): Promise<{ removed: string[]; bytes: number }> {
  const names = (await readdir(undoRoot(home)).catch(() => [] as string[])).sort();
  const sizes = await Promise.all(
    names.map(async (name) => (await readManifest(home, name))?.bytes ?? null),
  );
  let total = sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0);
  const removed: string[] = [];
  for (let i = 0; i < names.length && total > maxBytes; i += 1) {
    const name = names[i]!;
    await rm(join(undoRoot(home), name), { recursive: true, force: true });
    total -= sizes[i] ?? 0;
    removed.push(name);
  }
  return { removed, bytes: total };
}
