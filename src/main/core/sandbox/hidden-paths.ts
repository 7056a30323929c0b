// What a sandbox hides from the command inside it: the profile's unreadable paths, the `.env`
// files of the project's ancestors and HOME, the ssh agent's folder and the user's runtime folder,
// and the bound sockets a plan without the socket filter hides one by one. One list for an agent's
// sandbox and for the scratch layer a command is tried in first.
import { dirname, join } from 'node:path';
import { readdir, realpath, stat } from 'node:fs/promises';
import { isInside } from '../fs/containment';
import type { SandboxProfile } from './profile';

export interface HiddenPaths {
  /** Covered by an empty folder nobody may enter. */
  dirs: string[];
  /** Files, sockets and fifos: the unreadable file is mounted over each. */
  files: string[];
}

/** The real paths of what the sandbox hides, split into folders and the rest; only what exists. */
export async function hiddenPaths(
  profile: SandboxProfile,
  env: NodeJS.ProcessEnv,
  sockets: readonly string[],
): Promise<HiddenPaths> {
  const hidden = [
    ...profile.unreadable,
    ...(await envFilesIn(profile.envFileDirs, profile.projectDir)),
  ];
  const agentSocketDir = env['SSH_AUTH_SOCK'] ? dirname(env['SSH_AUTH_SOCK']) : null;
  if (agentSocketDir && !profile.writable.some((path) => isInside(path, agentSocketDir)))
    hidden.push(agentSocketDir);
  const uid = process.getuid?.();
  if (uid !== undefined) hidden.push(`/run/user/${uid}`);
  hidden.push(...sockets);
  const paths = await existingRealPaths(hidden);
  const kinds = await Promise.all(paths.map((path) => stat(path).catch(() => null)));
  const out: HiddenPaths = { dirs: [], files: [] };
  paths.forEach((path, i) => {
    const kind = kinds[i];
    // Gone since its realpath: nothing there to hide. Files, sockets and fifos alike get the
    // unreadable file mounted over them.
    if (kind?.isDirectory()) out.dirs.push(path);
    else if (kind) out.files.push(path);
  });
  return out;
}

/**
 * The real paths of those that exist, resolved off the thread: a sandbox hides dozens of paths,
 * and fifty sandboxes starting at once made thousands of blocking calls of them.
 */
export async function existingRealPaths(paths: readonly string[]): Promise<string[]> {
  // Nothing there to expose or to hide: no path.
  const real = await Promise.all(paths.map((path) => realpath(path).catch(() => null)));
  return [...new Set(real.filter((path): path is string => path !== null))];
}

/**
 * Listings under way, shared by the sandboxes that start while one runs: sessions started together
 * list the same folders (the project's ancestors, /tmp with its thousands of names, HOME). None is
 * kept once read, so a start never sees a listing older than the starts beside it.
 */
const listings = new Map<string, Promise<string[]>>();
function listing(dir: string): Promise<string[]> {
  let names = listings.get(dir);
  if (!names) {
    names = readdir(dir).catch(() => [] as string[]);
    listings.set(dir, names);
    void names.then(() => listings.delete(dir));
  }
  return names;
}

/** `.env*` files directly in the given folders, unless inside the project. */
async function envFilesIn(dirs: readonly string[], projectDir: string): Promise<string[]> {
  // Read without blocking: a home folder can hold thousands of names.
  const listed = await Promise.all(
    dirs
      .filter((dir) => !isInside(dir, projectDir))
      .map(async (dir) => ({ dir, names: await listing(dir) })),
  );
  return listed.flatMap(({ dir, names }) =>
    names.filter((name) => name.startsWith('.env')).map((name) => join(dir, name)),
  );
}
