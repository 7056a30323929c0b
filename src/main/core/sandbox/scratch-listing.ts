// What a command left in a scratch layer, read while the layer's namespace still holds it: the
// upper folder says what was written; what was removed is what the real folder holds and the
// overlay no longer shows (a whiteout, or a folder made opaque — removed and made again — whose
// old content is gone; overlayfs marks those with xattrs, which reading the merged view makes
// unnecessary). Nothing is followed: every entry is read with lstat, so a link the command made
// never leads the reader out of the layer.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export type LayerChangeKind = 'created' | 'modified' | 'deleted';
export type LayerEntry = 'file' | 'folder' | 'link' | 'other';

export interface LayerChange {
  /** The path at the real folder, as the person knows it. */
  path: string;
  change: LayerChangeKind;
  entry: LayerEntry;
  /** Bytes after the change (before it, for a deleted file); null for other entries. */
  size: number | null;
  /** The folder of the layer it fell in (a writable root, or HOME outside them). */
  layer: string;
}

/** Where one layer is read from, on the host. */
export interface LayerPaths {
  /** The folder the overlay covers (the real files, untouched). */
  target: string;
  /** Its upper folder, seen through the namespace. */
  upper: string;
  /** The overlay's merged view, seen through the namespace. */
  merged: string;
}

export interface Listing {
  changes: LayerChange[];
  /** Every change found, also those past `keep`, by kind. */
  totals: Record<LayerChangeKind, number>;
  /** The walk stopped at its bound: there may be more. */
  cut: boolean;
}

function kindOf(stat: { isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }) {
  if (stat.isDirectory()) return 'folder';
  if (stat.isFile()) return 'file';
  return stat.isSymbolicLink() ? 'link' : 'other';
}

async function entryAt(path: string): Promise<{ entry: LayerEntry; size: number } | null> {
  try {
    const stat = await lstat(path);
    return { entry: kindOf(stat), size: stat.size };
  } catch {
    return null;
  }
}

const names = (path: string): Promise<string[]> => readdir(path).catch(() => [] as string[]);

/**
 * Lists every layer: `keep` changes at most are returned, `visit` entries at most are looked at
 * (a removed tree is walked in the real folder to list what it held).
 */
export async function listLayers(
  layers: readonly LayerPaths[],
  keep: number,
  visit: number,
): Promise<Listing> {
  const out: Listing = { changes: [], totals: { created: 0, modified: 0, deleted: 0 }, cut: false };
  let visited = 0;
  const add = (change: LayerChange): void => {
    out.totals[change.change] += 1;
    if (out.changes.length < keep) out.changes.push(change);
  };
  const budget = (): boolean => {
    visited += 1;
    if (visited > visit) out.cut = true;
    return !out.cut;
  };

  /** What a removed folder held, from the real files, each listed as deleted. */
  const removed = async (layer: LayerPaths, rel: string): Promise<void> => {
    const real = join(layer.target, rel);
    const found = await entryAt(real);
    if (!found || !budget()) return;
    const folder = found.entry === 'folder';
    add({
      path: real,
      change: 'deleted',
      entry: found.entry,
      size: found.entry === 'file' ? found.size : null,
      layer: layer.target,
    });
    if (folder)
      for (const name of (await names(real)).sort()) await removed(layer, join(rel, name));
  };

  // `real`: every folder on the way is a folder in the real tree too, so `real` is looked at where
  // it is and not where a link the project holds leads.
  const walk = async (layer: LayerPaths, rel: string, real: boolean): Promise<void> => {
    const before = real ? await entryAt(join(layer.target, rel)) : null;
    const upperNames = (await names(join(layer.upper, rel))).sort();
    if (before?.entry === 'folder') {
      const shown = new Set(await names(join(layer.merged, rel)));
      for (const name of (await names(join(layer.target, rel))).sort()) {
        if (!shown.has(name)) await removed(layer, join(rel, name));
      }
    }
    for (const name of upperNames) {
      if (!budget()) return;
      const relPath = join(rel, name);
      const path = join(layer.target, relPath);
      const now = await lstat(join(layer.upper, relPath)).catch(() => null);
      // A whiteout (a character device 0:0) marks a removal, listed above from the real files.
      if (!now || (now.isCharacterDevice() && now.rdev === 0)) continue;
      const was = before?.entry === 'folder' ? await entryAt(path) : null;
      const entry = kindOf(now);
      if (entry === 'folder') {
        if (was?.entry !== 'folder') {
          if (was)
            add({ path, change: 'deleted', entry: was.entry, size: null, layer: layer.target });
          add({ path, change: 'created', entry, size: null, layer: layer.target });
        }
        await walk(layer, relPath, was?.entry === 'folder');
        continue;
      }
      if (was?.entry === 'folder') await removed(layer, relPath);
      add({
        path,
        change: was && was.entry !== 'folder' ? 'modified' : 'created',
        entry,
        size: entry === 'file' ? now.size : null,
        layer: layer.target,
      });
    }
  };

  for (const layer of layers) await walk(layer, '', true);
  return out;
}
