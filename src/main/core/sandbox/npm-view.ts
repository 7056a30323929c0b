// npm inside a sandbox. The user's cache (~/.npm) cannot be writable there: `npx <pkg>` runs what
// it finds in `_npx/<hash>/node_modules`, and npm trusts its index (`_cacache/index-v5`) for what a
// registry answered, so an agent could plant code that runs on the person's next npx. Nor can it be
// read-only: npm takes a lock inside `_npx/<hash>` on every run, and rewrites an index bucket each
// time it reads one (make-fetch-happen compacts it), so a read-only index reads as empty.
//
// So npm gets a cache of the session's own (/tmp/.npm), in which the packages the person already
// ran with npx are mounted read-only from the user's cache (`node_modules`, `package.json`,
// `package-lock.json` of each `_npx/<hash>`), with a copy of the index bucket of each one's registry
// answer and that answer's content mounted read-only: an agent started with `npx <pkg>`, or an npx
// it runs, finds the cached package offline as before. What npm fetches or writes there is gone
// with the session.
import { createHash } from 'node:crypto';
import { access, copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where npm's cache is inside the sandbox: in its own temp folder. */
export const NPM_CACHE_INSIDE = '/tmp/.npm';
const NPX_FILES = ['node_modules', 'package.json', 'package-lock.json'];
const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';
/** npx folders looked at: a cache with more is unusual, and each costs three mounts. */
const MAX_NPX = 200;

export interface NpmView {
  /** Read-only mounts, made after the private /tmp. */
  binds: { source: string; target: string }[];
  /** Variables for the agent: npm's cache is the session's own. */
  env: Record<string, string>;
}

/**
 * The view of the user's npm cache `userCache` (~/.npm) for a sandbox whose private temp folder is
 * `privateTmp` on the host. `registry` is the agent's npm_config_registry, if set. Whatever cannot
 * be read is left out: the session's npm then fetches, or fails, as with an empty cache.
 */
export async function npmView(
  userCache: string,
  privateTmp: string,
  registry: string | undefined,
): Promise<NpmView> {
  const env = { npm_config_cache: NPM_CACHE_INSIDE };
  const hashes = (await readdir(join(userCache, '_npx')).catch(() => [] as string[]))
    .filter((name) => /^[0-9a-f]{1,64}$/.test(name))
    .sort()
    .slice(0, MAX_NPX);
  const base = (registry ?? DEFAULT_REGISTRY).replace(/\/?$/, '/');
  const local = join(privateTmp, '.npm');
  const binds: NpmView['binds'] = [];
  await Promise.all(
    hashes.map(async (hash) => {
      const real = join(userCache, '_npx', hash);
      const present = await readdir(real).catch(() => [] as string[]);
      // The folder npm locks in is the session's own; what it runs is the user's, read-only.
      await mkdir(join(local, '_npx', hash), { recursive: true });
      for (const name of NPX_FILES.filter((file) => present.includes(file))) {
        binds.push({
          source: join(real, name),
          target: join(NPM_CACHE_INSIDE, '_npx', hash, name),
        });
      }
      for (const name of await packagesOf(join(real, 'package.json'))) {
        binds.push(...(await registryAnswer(userCache, local, `${base}${escaped(name)}`)));
      }
    }),
  );
  // Once each (two npx folders may share a package), and only what exists: bwrap stops on a
  // missing source.
  const unique = [...new Map(binds.map((bind) => [bind.target, bind])).values()];
  const present = await Promise.all(
    unique.map((bind) =>
      access(bind.source).then(
        () => true,
        () => false,
      ),
    ),
  );
  return {
    binds: unique.filter((_, i) => present[i]).sort((a, b) => a.target.localeCompare(b.target)),
    env,
  };
}

async function packagesOf(manifest: string): Promise<string[]> {
  try {
    const parsed = JSON.parse(await readFile(manifest, 'utf8')) as { dependencies?: unknown };
    const deps = parsed.dependencies;
    return deps && typeof deps === 'object' ? Object.keys(deps).slice(0, 16) : [];
  } catch {
    return [];
  }
}

/** The registry's URL path for a name: a scope's slash is escaped, as npm asks for it. */
function escaped(name: string): string {
  return name.startsWith('@') ? name.replace('/', '%2f') : name;
}

/**
 * The index bucket of `url` copied into the session's cache (npm rewrites it when it reads it),
 * and the content each entry names, to mount read-only (npm checks it against its integrity).
 */
async function registryAnswer(
  userCache: string,
  local: string,
  url: string,
): Promise<NpmView['binds']> {
  const key = `make-fetch-happen:request-cache:${url}`;
  const bucket = segments(createHash('sha256').update(key).digest('hex'));
  const source = join(userCache, '_cacache', 'index-v5', ...bucket);
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch {
    return [];
  }
  const target = join(local, '_cacache', 'index-v5', ...bucket);
  await mkdir(join(target, '..'), { recursive: true });
  await copyFile(source, target);
  const binds: NpmView['binds'] = [];
  for (const line of text.split('\n')) {
    const integrity = /"integrity":"(sha\d+)-([A-Za-z0-9+/=]+)/.exec(line);
    if (!integrity?.[1] || !integrity[2]) continue;
    const hex = Buffer.from(integrity[2], 'base64').toString('hex');
    const path = ['_cacache', 'content-v2', integrity[1], ...segments(hex)];
    binds.push({ source: join(userCache, ...path), target: join(NPM_CACHE_INSIDE, ...path) });
  }
  return binds;
}

function segments(hex: string): string[] {
  return [hex.slice(0, 2), hex.slice(2, 4), hex.slice(4)];
}
