/**
 * Programs with special meaning: builtins that change how later words are read, wrappers whose
 * inner command is found and classified in turn, and programs that run code (interpreters.ts).
 */
import {
  CODE_ARG_BUILTINS,
  isDangerousEnv,
  OPAQUE_BUILTINS,
  SAFE_SET_FLAGS,
  SAFE_SET_O,
} from './commands';
import { opaque, record, type Ctx, type Frame } from './context';
import { classifyCodeRunner, runCodeOf } from './interpreters';
import { isAssignmentWord } from './lexical';
import { normalizeProgram, STDIN_PATHS } from './programs';
import type { SimpleCommand } from './types';
import { WRAPPERS, type WrapperSpec } from './wrappers';

/** The command that stands for a classified one once its wrappers are peeled off. */
export interface Classified {
  /** Its index in the list of visible commands. */
  index: number;
  /** Where its name was in the classified command's argv. */
  nameWord: number;
}

export function classify(cmd: SimpleCommand, ctx: Ctx, frame: Frame): Classified {
  const { argv } = cmd;
  const name = argv[0];
  // A command without words (`> file`) or a job (`%1`) is visible but never a rule's to allow.
  if (name === undefined)
    return { index: record(ctx, { ...frame, nested: true }, cmd), nameWord: 0 };
  const base = normalizeProgram(name);
  const staticName = !cmd.dynamic.includes(0);
  if (name.startsWith('%')) {
    // `%1` / `%name` as a command resumes a background job.
    opaque(ctx, `job control (${name})`);
    return { index: record(ctx, { ...frame, nested: true }, cmd), nameWord: 0 };
  }

  if (staticName && (base === 'env' || base === 'time' || base === 'nice')) {
    const inner = unwrapExactly(cmd, base);
    if (inner) {
      const found = classify(inner, ctx, frame);
      return { index: found.index, nameWord: found.nameWord + argv.length - inner.argv.length };
    }
  }

  const self: Classified = { index: record(ctx, frame, cmd), nameWord: 0 };
  if (!staticName) return self;

  for (const key of Object.keys(cmd.env)) {
    if (isDangerousEnv(key))
      opaque(ctx, `assignment to ${key} can change which program runs or what it loads`);
  }

  const builtinReason = OPAQUE_BUILTINS.get(base);
  if (builtinReason !== undefined) {
    opaque(ctx, builtinReason);
    if (CODE_ARG_BUILTINS.has(base)) {
      const codeWords = base === 'trap' ? argv.slice(1, 2) : argv.slice(1);
      if (!cmd.dynamic.some((i) => i >= 1)) runCodeOf(self.index, codeWords.join(' '), ctx, frame);
    } else if (base === 'source' || base === '.') {
      if (STDIN_PATHS.has(argv[1] ?? '')) cmd.runsCode = { from: 'input' };
    } else if (base === 'exec' || base === 'builtin' || (base === 'command' && !looksUp(argv))) {
      const spec: WrapperSpec = { argOptions: ['-a'], operands: 0, reason: builtinReason };
      return classifyInner(cmd, self.index, extractInner(argv, spec, 1), ctx, frame);
    }
    return self;
  }

  const stateChange = builtinStateChange(cmd, base);
  if (stateChange !== undefined) {
    if (stateChange !== null) opaque(ctx, stateChange);
    return self;
  }
  if (classifyCodeRunner(cmd, base, self.index, ctx, frame)) return self;
  if (base === 'find') {
    classifyFind(cmd, ctx, frame);
    return self;
  }
  if (
    (base === 'npx' || (base === 'npm' && (argv[1] === 'exec' || argv[1] === 'x'))) &&
    argv.some((t) => t === '-c' || t === '--call' || t.startsWith('--call='))
  ) {
    opaque(ctx, `\`${base} … -c\` runs its argument as shell code`);
    const i = argv.findIndex((t) => t === '-c' || t === '--call');
    const code =
      i >= 0 ? argv[i + 1] : argv.find((t) => t.startsWith('--call='))?.slice('--call='.length);
    if (code !== undefined) runCodeOf(self.index, code, ctx, frame);
    return self;
  }
  const wrapper = WRAPPERS.get(base);
  if (!wrapper) return self;
  opaque(ctx, wrapper.reason);
  return classifyWrapper(cmd, self.index, wrapper, ctx, frame);
}

/** `command -v x` and `command -V x` only say what `x` is; they do not run it. */
function looksUp(argv: string[]): boolean {
  return /^-[vV]$/.test(argv[1] ?? '');
}

/**
 * `set`, `read` and `printf`: undefined for other programs; otherwise why the call changes how
 * later words are read, or null when it does not.
 */
function builtinStateChange(cmd: SimpleCommand, base: string): string | null | undefined {
  const { argv } = cmd;
  if (base === 'set') {
    for (let i = 1; i < argv.length; i++) {
      const t = argv[i] ?? '';
      // `-o name` may end a flag cluster: `set -euo pipefail`.
      if (
        /^[-+][euxvEh]*o$/.test(t) &&
        SAFE_SET_O.has(argv[i + 1] ?? '') &&
        !cmd.dynamic.includes(i + 1)
      ) {
        i++;
        continue;
      }
      if (!SAFE_SET_FLAGS.test(t) || cmd.dynamic.includes(i))
        return `\`set ${t}\` changes how later words are interpreted`;
    }
    return null;
  }
  if (base === 'read' && argv.some((t) => t.includes('[')))
    return '`read` into an array element (arithmetic subscript)';
  if (base === 'printf' && argv.slice(1).some((t) => t === '-v' || t.startsWith('-v')))
    return '`printf -v` assigns to a variable (possibly an array element)';
  return undefined;
}

/**
 * `env X=1 cmd`, `time [-p] cmd`, `nice [-n N] cmd`: these run `cmd` with nothing else changed
 * that a rule cares about, so the inner command stands in their place. Returns null when the
 * options are anything else (then the wrapper is opaque).
 */
function unwrapExactly(cmd: SimpleCommand, base: string): SimpleCommand | null {
  const { argv } = cmd;
  const env = { ...cmd.env };
  let i = 1;
  const isStatic = (k: number): boolean => !cmd.dynamic.includes(k);
  if (base === 'env') {
    if (argv[i] === '--') i++;
    while (i < argv.length && isStatic(i) && isAssignmentWord(argv[i] ?? '')) {
      const word = argv[i] ?? '';
      const eq = word.indexOf('=');
      env[word.slice(0, eq)] = word.slice(eq + 1);
      i++;
    }
  } else if (base === 'time') {
    if (argv[i] === '-p') i++;
  } else {
    const a = argv[i];
    if (a === '-n' && /^-?\d+$/.test(argv[i + 1] ?? '') && isStatic(i + 1)) i += 2;
    else if (a !== undefined && /^(-\d+|-n-?\d+|--adjustment=-?\d+)$/.test(a) && isStatic(i)) i++;
  }
  if (i < argv.length && (!isStatic(i) || (argv[i] ?? '').startsWith('-'))) return null;
  if (i >= argv.length) return null; // `env`, `time`, `nice` alone: an ordinary command
  return {
    ...innerCommand(cmd, i, argv.length),
    env,
    unwrappedFrom: cmd.unwrappedFrom ?? argv,
    wrappers: wrappersOf(cmd),
  };
}

/** The command in `cmd.argv[start..end)`. */
function innerCommand(cmd: SimpleCommand, start: number, end: number): SimpleCommand {
  return {
    argv: cmd.argv.slice(start, end),
    env: {},
    redirects: cmd.redirects,
    text: cmd.text,
    dynamic: cmd.dynamic.filter((k) => k >= start && k < end).map((k) => k - start),
  };
}

/** The wrappers of a command `cmd` runs: its own, and itself. */
function wrappersOf(cmd: SimpleCommand): string[] {
  return [...(cmd.wrappers ?? []), normalizeProgram(cmd.argv[0] ?? '')];
}

/** Index where the wrapped command starts, skipping the wrapper's options and operands. */
function extractInner(argv: string[], spec: WrapperSpec, start: number): number | null {
  let i = start;
  while (i < argv.length) {
    const t = argv[i] ?? '';
    if (t === '--') {
      i++;
      break;
    }
    if (t.startsWith('-') && t.length > 1) {
      i += spec.argOptions.includes(t) ? 2 : 1;
      continue;
    }
    if (isAssignmentWord(t)) {
      i++; // env-style assignments (`env -i X=1 cmd`, `sudo X=1 cmd`)
      continue;
    }
    break;
  }
  i += spec.operands;
  return i < argv.length ? i : null;
}

/** Classify what the wrapper at `index` runs, from `start` in its argv. */
function classifyInner(
  cmd: SimpleCommand,
  index: number,
  start: number | null,
  ctx: Ctx,
  frame: Frame,
): Classified {
  if (start === null) return { index, nameWord: 0 };
  cmd.wraps = true;
  const inner = { ...innerCommand(cmd, start, cmd.argv.length), wrappers: wrappersOf(cmd) };
  const found = classify(inner, ctx, { ...frame, nested: true });
  return { index: found.index, nameWord: found.nameWord + start };
}

function classifyWrapper(
  cmd: SimpleCommand,
  index: number,
  spec: WrapperSpec,
  ctx: Ctx,
  frame: Frame,
): Classified {
  const { argv } = cmd;
  const start = extractInner(argv, spec, 1);
  if (spec.codeOptions) {
    const end = spec.codeBeforeCommand ? (start ?? argv.length) : argv.length;
    const code = codeOptionValue(argv, spec.codeOptions, end);
    if (code !== undefined) {
      runCodeOf(index, code, ctx, frame);
      return { index, nameWord: 0 };
    }
  }
  if (spec.joinsCode) {
    if (start !== null && !cmd.dynamic.some((k) => k >= start)) {
      runCodeOf(index, argv.slice(start).join(' '), ctx, frame);
    }
    return { index, nameWord: 0 };
  }
  return classifyInner(cmd, index, start, ctx, frame);
}

/** The code given to one of `options` among `argv[1..end)` (`-c code`, `--command=code`). */
function codeOptionValue(argv: string[], options: string[], end: number): string | undefined {
  const at = argv.findIndex((t, k) => k > 0 && k < end && options.includes(t));
  if (at > 0) return argv[at + 1];
  for (const t of argv.slice(1, end)) {
    const long = options.find((o) => o.startsWith('--') && t.startsWith(`${o}=`));
    if (long !== undefined) return t.slice(long.length + 1);
  }
  return undefined;
}

function classifyFind(cmd: SimpleCommand, ctx: Ctx, frame: Frame): void {
  const { argv } = cmd;
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i] ?? '';
    if (t !== '-exec' && t !== '-execdir' && t !== '-ok' && t !== '-okdir') continue;
    opaque(ctx, `\`find ${t}\` runs a command for each file`);
    let end = i + 1;
    while (end < argv.length && argv[end] !== ';' && argv[end] !== '+') end++;
    if (end > i + 1) {
      const inner = { ...innerCommand(cmd, i + 1, end), redirects: [] };
      classify(inner, ctx, { ...frame, nested: true });
    }
    i = end;
  }
}
