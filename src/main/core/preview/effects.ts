// A scratch layer's changes as the preview tells them: where each lands (a writable root, outside
// every root, a protected file inside one), a file removed and one made with the same bytes told as
// one rename, and the counts over everything.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { relative } from 'node:path';
import {
  NO_COUNTS,
  PREVIEW_LIMITS,
  type PreviewChange,
  type PreviewCounts,
} from '../../../shared/preview';
import { isInside } from '../fs/containment';
import { openInPlace } from './diffs';
import { protectedEntryFor, type ProtectedEntry } from '../rules/protected-files';
import type { SandboxProfile } from '../sandbox/profile';
import type { LayerChange, LayerView } from '../sandbox/scratch-layer';
import { fileViolationsIn } from '../sandbox/violations';

/** What decides a change's place: the session's writable roots and what in them runs later. */
export interface PlaceRules {
  roots: readonly string[];
  entries: readonly ProtectedEntry[];
  /** Protected inside an agent's own state folder (its settings, hooks). */
  state: SandboxProfile['protectedState'];
}

/** The protected entry a path falls under in a root, or null. */
export function protectedIn(path: string, rules: PlaceRules): ProtectedEntry | null {
  for (const root of rules.roots) {
    if (!isInside(path, root) || path === root) continue;
    const found = protectedEntryFor(
      relative(root, path).split('\\').join('/'),
      rules.entries,
      true,
    );
    if (found) return found;
  }
  const state = rules.state.find((s) => path === s.path || (s.tree && isInside(path, s.path)));
  return state ? { path: state.path, tree: state.tree, runs: 'its agent obeys it later' } : null;
}

export function placeOf(path: string, rules: PlaceRules): PreviewChange['place'] {
  if (!rules.roots.some((root) => isInside(path, root))) return 'outside';
  return protectedIn(path, rules) ? 'protected' : 'root';
}

const RANK = { root: 0, outside: 1, protected: 2 } as const;
const worse = (a: PreviewChange['place'], b: PreviewChange['place']) =>
  RANK[a] >= RANK[b] ? a : b;

/** Largest file hashed to tell a rename, and all of them together. */
const HASH_FILE_MAX = 64 * 1024 * 1024;
const HASH_TOTAL_MAX = 512 * 1024 * 1024;

/** sha-256 of a file, never through a link; null when it is not a plain file. */
async function hashOf(path: string): Promise<string | null> {
  const handle = await openInPlace(path);
  if (!handle) return null;
  try {
    if (!(await handle.stat()).isFile()) return null;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream('', { fd: handle.fd, autoClose: false }))
      hash.update(chunk as Buffer);
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

/**
 * Pairs removed and made files of the same size and content into renames (a folder renamed within
 * an overlay without redirect_dir is copied and removed: each of its files pairs up). Reads the
 * made file in the layer, the removed one in the real folder; while the layer still exists.
 */
export async function pairRenames(
  changes: readonly LayerChange[],
  view: LayerView,
): Promise<Map<LayerChange, LayerChange>> {
  const pairs = new Map<LayerChange, LayerChange>();
  const files = (kind: LayerChange['change']) =>
    changes.filter((c) => c.change === kind && c.entry === 'file' && (c.size ?? 0) > 0);
  const made = files('created');
  const removed = files('deleted');
  const sizes = new Set(removed.map((c) => c.size));
  let budget = HASH_TOTAL_MAX;
  const hashes = new Map<LayerChange, string | null>();
  const hashed = async (change: LayerChange, path: string): Promise<string | null> => {
    if (!hashes.has(change)) {
      const size = change.size ?? 0;
      const fits = size <= HASH_FILE_MAX && size <= budget;
      budget -= fits ? size : 0;
      hashes.set(change, fits ? await hashOf(path) : null);
    }
    return hashes.get(change) ?? null;
  };
  const taken = new Set<LayerChange>();
  for (const to of made) {
    if (!sizes.has(to.size)) continue;
    const toHash = await hashed(to, view.upperPath(to));
    if (!toHash) continue;
    for (const from of removed) {
      if (taken.has(from) || from.size !== to.size) continue;
      if ((await hashed(from, from.path)) !== toHash) continue;
      pairs.set(to, from);
      taken.add(from);
      break;
    }
  }
  return pairs;
}

export interface Effects {
  changes: PreviewChange[];
  counts: PreviewCounts;
}

/**
 * The preview's changes: renames folded in, the dangerous ones first (protected, then outside),
 * the first PREVIEW_LIMITS.changes of them; counts over all, also those the layer counted past
 * what it listed one by one (their places unknown).
 */
export function effectsOf(
  view: Pick<LayerView, 'changes' | 'totals'>,
  renames: ReadonlyMap<LayerChange, LayerChange>,
  rules: PlaceRules,
): Effects {
  const { changes } = view;
  const consumed = new Set(renames.values());
  const all: PreviewChange[] = [];
  for (const change of changes) {
    if (consumed.has(change)) continue;
    const from = renames.get(change);
    const place = placeOf(change.path, rules);
    all.push({
      path: change.path.slice(0, PREVIEW_LIMITS.path),
      oldPath: from ? from.path.slice(0, PREVIEW_LIMITS.path) : null,
      change: from ? 'renamed' : change.change,
      entry: change.entry,
      size: change.size,
      place: from ? worse(place, placeOf(from.path, rules)) : place,
    });
  }
  const counts: PreviewCounts = { ...NO_COUNTS };
  for (const change of all) {
    counts[change.change] += 1;
    if (change.place !== 'root') counts[change.place] += 1;
  }
  for (const kind of ['created', 'modified', 'deleted'] as const) {
    const listed = changes.filter((change) => change.change === kind).length;
    counts[kind] += Math.max(0, view.totals[kind] - listed);
  }
  return { changes: shown(all), counts };
}

/** The dangerous first (protected, then outside), then by path; the first ones only. */
function shown(changes: PreviewChange[]): PreviewChange[] {
  changes.sort((a, b) => RANK[b.place] - RANK[a.place] || (a.path < b.path ? -1 : 1));
  return changes.slice(0, PREVIEW_LIMITS.changes);
}

/**
 * With the writes the read-only system refused (outside HOME and the roots, where no layer
 * reaches): the command tried them, and a run without a sandbox would have made them.
 */
export function withRefusedWrites(effects: Effects, output: string, rules: PlaceRules): Effects {
  const seen = new Set(effects.changes.map((change) => change.path));
  const counts = { ...effects.counts };
  const refused: PreviewChange[] = [];
  for (const violation of fileViolationsIn(output)) {
    if (violation.error !== 'EROFS' || seen.has(violation.path)) continue;
    if (placeOf(violation.path, rules) !== 'outside' || refused.length >= MAX_REFUSED) continue;
    seen.add(violation.path);
    counts.modified += 1;
    counts.outside += 1;
    refused.push({
      path: violation.path.slice(0, PREVIEW_LIMITS.path),
      oldPath: null,
      change: 'modified',
      entry: 'file',
      size: null,
      place: 'outside',
    });
  }
  return { changes: shown([...refused, ...effects.changes]), counts };
}

const MAX_REFUSED = 20;
