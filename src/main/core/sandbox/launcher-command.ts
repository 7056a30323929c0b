// Which package a launcher command line (npx, `npm exec`, `pnpm dlx`, pnpx, bunx, `bun x`, uvx,
// `uv tool run`) would fetch and run. Inside the sandbox the registry is closed, so Gatehouse
// fetches that package itself, outside, and starts its bin instead (launcher-fetch.ts). A command
// line it cannot read with certainty is refused with why, never guessed at.
import { basename } from 'node:path';

export type LauncherTool = 'npx' | 'pnpm dlx' | 'bunx' | 'uvx';

export interface LauncherCall {
  tool: LauncherTool;
  /** The package as written: `name`, `name@range`, `@scope/name@tag`. */
  spec: string;
  /** Its name without the version. */
  name: string;
  /** The bin to run when it is not the package's only or same-named one (`npx -p pkg bin`). */
  bin: string | null;
  /** What the launcher hands the agent: everything after the package (or bin). */
  args: string[];
}

export class LauncherCommandError extends Error {
  override name = 'LauncherCommandError';
}

// npm's rules for a package name, with a bound: lower case, URL-safe, one optional scope.
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]{0,100}\/)?[a-z0-9][a-z0-9._~-]{0,100}$/;
// A version, range or dist-tag: no path, URL or git reference.
const NPM_VERSION = /^[A-Za-z0-9.^~<>=*|+ -]{1,100}$/;
const PYPI_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/;
const PYPI_VERSION = /^[A-Za-z0-9.*!+-]{1,60}$/;

/** Options that take no value and change nothing Gatehouse must follow. */
const FLAGS: Record<LauncherTool, readonly string[]> = {
  npx: ['--yes', '-y', '--no', '--quiet', '-q', '--prefer-offline', '--prefer-online', '--silent'],
  'pnpm dlx': ['--silent', '-s'],
  bunx: ['--bun', '--silent'],
  uvx: ['--quiet', '-q', '--offline', '--no-progress', '--isolated'],
};

/** The launcher and where its own arguments begin, or null for any other command. */
function toolOf(command: string, args: readonly string[]): [LauncherTool, number] | null {
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  if (name === 'npx') return ['npx', 0];
  if (name === 'npm' && args[0] === 'exec') return ['npx', 1];
  if (name === 'pnpx') return ['pnpm dlx', 0];
  if (name === 'pnpm' && args[0] === 'dlx') return ['pnpm dlx', 1];
  if (name === 'bunx') return ['bunx', 0];
  if (name === 'bun' && args[0] === 'x') return ['bunx', 1];
  if (name === 'uvx') return ['uvx', 0];
  if (name === 'uv' && args[0] === 'tool' && args[1] === 'run') return ['uvx', 2];
  return null;
}

/** The package a launcher command line runs; null when the command is no launcher. */
export function launcherCall(command: string, args: readonly string[]): LauncherCall | null {
  const found = toolOf(command, args);
  if (!found) return null;
  const [tool, start] = found;
  let spec: string | null = null;
  let i = start;
  for (; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      i += 1;
      break;
    }
    if (!arg.startsWith('-')) break;
    if (FLAGS[tool].includes(arg)) continue;
    const packageOption = tool === 'uvx' ? ['--from'] : ['--package', '-p'];
    const [option, inline] = arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    if (option && packageOption.includes(option) && spec === null) {
      spec = inline ?? args[i + 1] ?? '';
      if (inline === undefined) i += 1;
      continue;
    }
    throw new LauncherCommandError(
      `${tool} option "${arg.slice(0, 100)}" is not one Gatehouse follows when it fetches the ` +
        'package: write the package right after the command',
    );
  }
  const first = args[i];
  if (first === undefined) throw new LauncherCommandError(`${tool} names no package`);
  const bin = spec === null ? null : first;
  const written = spec ?? first;
  const name = checkedName(tool, written);
  return { tool, spec: written, name, bin, args: args.slice(i + 1) };
}

/** The package's name from what is written, or an error for what is not a registry package. */
function checkedName(tool: LauncherTool, spec: string): string {
  if (tool === 'uvx') {
    const [name, version] = spec.split('==', 2) as [string, string | undefined];
    if (PYPI_NAME.test(name) && (version === undefined || PYPI_VERSION.test(version))) return name;
  } else {
    const at = spec.indexOf('@', 1);
    const name = at === -1 ? spec : spec.slice(0, at);
    const version = at === -1 ? undefined : spec.slice(at + 1);
    if (NPM_NAME.test(name) && (version === undefined || NPM_VERSION.test(version))) return name;
  }
  throw new LauncherCommandError(
    `${tool} package "${spec.slice(0, 200)}" is not a registry package name Gatehouse can fetch ` +
      '(a path, URL or git reference runs as a command of its own)',
  );
}
