// The package a launcher command would fetch (launcher-command.ts), fetched by Gatehouse outside the
// sandbox with the person's own npm (or uv) and configuration, into its data folder:
// `launchers/npm/<name>@<version>`. The agent then starts that package's bin inside the sandbox with
// the registry still closed, and the folder is bound read-only there (the rest of the data folder is
// hidden): a package the agent could rewrite is exactly what would run later, outside any sandbox.
// What a name resolved to is pinned (`launchers/pins.json`), so later starts run the same version
// without asking the registry. Install scripts are not run: they would run outside the sandbox.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { isInside } from '../fs/containment';
import type { LauncherCall } from './launcher-command';

const execFileAsync = promisify(execFile);

export class LauncherFetchError extends Error {
  override name = 'LauncherFetchError';
}

export interface FetchedLauncher {
  /** The bin to start, inside `folder`. */
  command: string;
  args: string[];
  /** Bound read-only into the sandbox. */
  folder: string;
  /** What was resolved and is run from now on: `name@version`. */
  pinned: string;
  /** Fetched by this start (not found pinned and present). */
  fetched: boolean;
}

/** A fetch takes minutes at most; a hung registry must not hold a start for ever. */
const FETCH_TIMEOUT_MS = 10 * 60_000;
const PINS_MAX = 500;
const Pins = z
  .record(z.string().max(400), z.string().max(300))
  .refine((pins) => Object.keys(pins).length <= PINS_MAX, 'too many pins');
const BIN_NAME = /^[A-Za-z0-9._-]{1,100}$/;
const Manifest = z.looseObject({
  version: z.string().max(100),
  bin: z
    .union([z.string().max(1000), z.record(z.string().max(100), z.string().max(1000))])
    .optional(),
});

/** Fetches under way, shared by the starts that ask for the same package meanwhile. */
const underWay = new Map<string, Promise<FetchedLauncher>>();

/**
 * The launcher's package, fetched once and pinned. `env` is what npm or uv run with: the person's
 * environment and the agent's own npm/uv variables (a registry, offline), never the agent's rest.
 */
export function fetchLauncher(
  call: LauncherCall,
  gatehouseHome: string,
  env: NodeJS.ProcessEnv,
  onFetching: () => void = () => {},
): Promise<FetchedLauncher> {
  const root = join(gatehouseHome, 'launchers');
  const key = `${call.tool === 'uvx' ? 'pypi' : 'npm'}:${call.spec}`;
  const id = `${root}\0${key}\0${call.bin ?? ''}`;
  let fetch = underWay.get(id);
  if (!fetch) {
    fetch = (call.tool === 'uvx' ? fetchPypi : fetchNpm)({ call, root, key, env, onFetching });
    underWay.set(id, fetch);
    void fetch.then(
      () => underWay.delete(id),
      () => underWay.delete(id),
    );
  }
  return fetch;
}

/** One package to fetch: what the agent's command asked for, where and with which environment. */
interface FetchJob {
  call: LauncherCall;
  root: string;
  key: string;
  env: NodeJS.ProcessEnv;
  onFetching: () => void;
}

async function fetchNpm({ call, root, key, env, onFetching }: FetchJob): Promise<FetchedLauncher> {
  if (call.tool === 'bunx') needTool('bun', 'bunx', env);
  const npm = needTool('npm', call.tool, env);
  const npmRoot = join(root, 'npm');
  const pinned = (await readPins(root))[key];
  const at = pinned ? join(npmRoot, folderName(pinned)) : null;
  if (at && existsSync(join(at, 'node_modules'))) return npmBin(call, at, pinned!, false);

  onFetching();
  await mkdir(npmRoot, { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(join(npmRoot, '.fetching-'));
  try {
    await run(
      npm,
      [
        'install',
        '--prefix',
        staging,
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--loglevel=error',
        // The fetched version, not "latest" again at every start.
        pinned ?? call.spec,
      ],
      env,
      call.tool,
      staging,
    );
    const manifest = await readManifest(join(staging, 'node_modules', call.name));
    const resolved = `${call.name}@${manifest.version}`;
    const folder = join(npmRoot, folderName(resolved));
    // Another start may have fetched the same version meanwhile: its folder is as good.
    if (!existsSync(folder)) await rename(staging, folder).catch(ignoreExisting);
    await writePin(root, key, resolved);
    return await npmBin(call, folder, resolved, true);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function fetchPypi({ call, root, key, env, onFetching }: FetchJob): Promise<FetchedLauncher> {
  const uv = needTool('uv', 'uvx', env);
  // uv writes absolute paths into what it installs: the folder is final from the start.
  const folder = join(root, 'pypi', createHash('sha256').update(key).digest('hex').slice(0, 32));
  const toolEnv = {
    ...env,
    UV_TOOL_DIR: join(folder, 'tools'),
    UV_TOOL_BIN_DIR: join(folder, 'bin'),
  };
  const bin = join(folder, 'bin', call.bin ?? call.name);
  const pinned = (await readPins(root))[key];
  const fetched = !pinned || !existsSync(bin);
  if (fetched) {
    onFetching();
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await run(uv, ['tool', 'install', '--force', call.spec], toolEnv, 'uvx', folder);
  }
  if (!(call.bin ?? call.name).match(BIN_NAME) || !existsSync(bin))
    throw new LauncherFetchError(
      `uvx package ${call.spec} has no command "${call.bin ?? call.name}"`,
    );
  const listed = await run(uv, ['tool', 'list'], toolEnv, 'uvx', folder);
  const version = new RegExp(
    `^${call.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} v(\\S+)`,
    'im',
  ).exec(listed)?.[1];
  const resolved = `${call.name}@${version ?? 'unknown'}`;
  await writePin(root, key, resolved);
  return { command: bin, args: call.args, folder, pinned: resolved, fetched };
}

/** The bin of the package installed in `folder`: the one named, its only one, or its own name's. */
async function npmBin(
  call: LauncherCall,
  folder: string,
  pinned: string,
  fetched: boolean,
): Promise<FetchedLauncher> {
  const manifest = await readManifest(join(folder, 'node_modules', call.name));
  const unscoped = call.name.replace(/^@[^/]+\//, '');
  const bins = typeof manifest.bin === 'string' ? [unscoped] : Object.keys(manifest.bin ?? {});
  const chosen = call.bin ?? (bins.length === 1 ? bins[0] : bins.find((name) => name === unscoped));
  if (!chosen || !bins.includes(chosen) || !BIN_NAME.test(chosen)) {
    throw new LauncherFetchError(
      `${pinned} has ${bins.length === 0 ? 'no command' : `the commands ${bins.join(', ')}`}` +
        (call.bin ? `, not "${call.bin}"` : ': name one with -p <package> <command>'),
    );
  }
  const command = join(folder, 'node_modules', '.bin', chosen);
  if (!isInside(command, folder) || !existsSync(command))
    throw new LauncherFetchError(`${pinned}: its command "${chosen}" was not installed`);
  return { command, args: call.args, folder, pinned, fetched };
}

async function readManifest(dir: string): Promise<z.infer<typeof Manifest>> {
  try {
    return Manifest.parse(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')));
  } catch (error) {
    throw new LauncherFetchError(
      `the fetched package has no readable package.json: ${String(error)}`,
    );
  }
}

/** `@scope/name@1.2.3` as one folder name. */
function folderName(pinned: string): string {
  return pinned.replace('/', '+');
}

/** The tool's path on the PATH Gatehouse runs it with, or an error that names the tool. */
function needTool(tool: string, launcher: string, env: NodeJS.ProcessEnv): string {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, tool))) return join(dir, tool);
  }
  const how: Record<string, string> = {
    uv: 'install uv (https://docs.astral.sh/uv/)',
    bun: 'install Bun (https://bun.sh)',
    npm: 'install Node.js with npm',
  };
  throw new LauncherFetchError(
    `${launcher} needs ${tool}, which is not installed (not on PATH): ${how[tool] ?? `install ${tool}`}, ` +
      'or give the agent’s own command instead',
  );
}

async function run(
  tool: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  launcher: string,
  cwd: string,
): Promise<string> {
  try {
    // In Gatehouse's own folder: no project's .npmrc or pyproject.toml (which an agent may have
    // written) is read by a fetch that runs outside the sandbox.
    const { stdout } = await execFileAsync(tool, args, {
      cwd,
      env,
      timeout: FETCH_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const said = (stderr || message).trim().split('\n').slice(-6).join('\n').slice(0, 1500);
    throw new LauncherFetchError(
      `${launcher} could not fetch its package (${args.at(-1)}): ${said}`,
    );
  }
}

async function readPins(root: string): Promise<Record<string, string>> {
  try {
    return Pins.parse(JSON.parse(await readFile(join(root, 'pins.json'), 'utf8')));
  } catch {
    // None yet, or unreadable: resolved again, and written whole.
    return {};
  }
}

async function writePin(root: string, key: string, pinned: string): Promise<void> {
  const pins = await readPins(root);
  if (pins[key] === pinned) return;
  pins[key] = pinned;
  const next = join(root, `pins.json.${process.pid}.${Date.now()}`);
  await writeFile(next, `${JSON.stringify(pins, null, 2)}\n`, { mode: 0o600 });
  await rename(next, join(root, 'pins.json'));
}

function ignoreExisting(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
}
