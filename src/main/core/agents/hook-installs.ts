// Which settings files `gatehouse hook install` wrote Gatehouse's hook into, so the core watches
// them (after a restart too): hook-installs.json in the data folder, where no sandboxed agent can
// write. Only `gatehouse hook install|uninstall` writes it; the core reads it, bounded and checked.
// Each install keeps what the file held beside the hook when the person installed it (the mode,
// the other hooks, by hash): the watch then names what was added since, not what was already there.
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { HookCli, HookScope } from '../../../shared/hooked-clis';

export const HOOK_INSTALLS_FILE = 'hook-installs.json';
const MAX_BYTES = 128 * 1024;
/** Files watched at most: each is read on every check. */
export const MAX_HOOK_INSTALLS = 64;

export const HookInstall = z
  .object({
    cli: HookCli,
    scope: HookScope,
    /** The settings file, absolute. */
    file: z.string().min(1).max(4096).refine(isAbsolute, 'must be absolute'),
    /** The project folder of a project install. */
    project: z.string().min(1).max(4096).optional(),
    /** The gatehouse the hook runs (bin/gatehouse.mjs, by its real path). */
    entry: z.string().min(1).max(4096),
    installedAt: z.number().int().nonnegative(),
    /** What the file held beside the hook at install. */
    baseline: z
      .object({
        mode: z.string().max(100).nullable(),
        otherHooks: z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(200),
      })
      .strict(),
  })
  .strict();
export type HookInstall = z.infer<typeof HookInstall>;

const InstallsFile = z
  .object({ version: z.literal(1), installs: z.array(HookInstall).max(MAX_HOOK_INSTALLS) })
  .strict();

export type InstallsRead = { installs: HookInstall[] } | { unreadable: string };

export const hookInstallsPath = (home: string): string => join(home, HOOK_INSTALLS_FILE);

/** The record; a missing file is no installs. Never throws. */
export function readHookInstalls(home: string): InstallsRead {
  let fd: number;
  try {
    fd = openSync(hookInstallsPath(home), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { installs: [] } : { unreadable: `cannot be opened (${code})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_BYTES)
      return { unreadable: 'is not a regular file of at most 128 KiB' };
    const buffer = Buffer.alloc(stat.size);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n)
      n = readSync(fd, buffer, length, buffer.length - length, null);
    const parsed = InstallsFile.safeParse(JSON.parse(buffer.subarray(0, length).toString('utf8')));
    return parsed.success
      ? { installs: parsed.data.installs }
      : {
          unreadable: `is not Gatehouse's record: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
        };
  } catch (error) {
    return { unreadable: `cannot be read (${(error as Error).message.slice(0, 200)})` };
  } finally {
    closeSync(fd);
  }
}

/** The installs, or throws naming why the record cannot be kept (the CLI shows it). */
function installsOrThrow(home: string): HookInstall[] {
  const read = readHookInstalls(home);
  if ('unreadable' in read)
    throw new Error(`${hookInstallsPath(home)} ${read.unreadable}; fix or remove it`);
  return read.installs;
}

function save(home: string, installs: HookInstall[]): void {
  mkdirSync(home, { recursive: true });
  const file = hookInstallsPath(home);
  const temporary = `${file}.${process.pid}.tmp`;
  const record: z.infer<typeof InstallsFile> = { version: 1, installs };
  writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** Throws before anything is written when the record cannot take one more install. */
export function checkHookInstalls(home: string, cli: HookCli, file: string): void {
  const installs = installsOrThrow(home);
  const known = installs.some((one) => one.cli === cli && one.file === file);
  if (!known && installs.length >= MAX_HOOK_INSTALLS)
    throw new Error(`Gatehouse watches at most ${MAX_HOOK_INSTALLS} settings files`);
}

/** Adds the install, or replaces the one of the same CLI and file. */
export function recordHookInstall(home: string, install: HookInstall): void {
  checkHookInstalls(home, install.cli, install.file);
  const others = installsOrThrow(home).filter(
    (one) => !(one.cli === install.cli && one.file === install.file),
  );
  save(home, [...others, HookInstall.parse(install)]);
}

/** Forgets the install of that CLI and file (uninstall); returns it, or null when there was none. */
export function forgetHookInstall(home: string, cli: HookCli, file: string): HookInstall | null {
  const installs = installsOrThrow(home);
  const forgotten = installs.find((one) => one.cli === cli && one.file === file);
  if (!forgotten) return null;
  save(
    home,
    installs.filter((one) => one !== forgotten),
  );
  return forgotten;
}
