/**
 * Shells and interpreters: where the code they run comes from. A script file is an ordinary
 * command as far as rules go (like `./script.sh`); code given as an argument or read from their
 * input is opaque, and shell code given as text is looked into for deny rules.
 */
import { opaque, type Ctx, type Frame } from './context';
import {
  interpreterSpec,
  normalizeProgram,
  SHELL_ARG_OPTIONS,
  SHELLS,
  STDIN_PATHS,
  type InterpreterSpec,
} from './programs';
import type { SimpleCommand } from './types';

/** What a shell's or interpreter's options say about the code it runs. */
interface Reading {
  /** Code is given on the command line (or an option we cannot read may give it). */
  code: boolean;
  /** The word holding it, and for a shell the code itself, when known. */
  codeWord?: number;
  codeText?: string;
  /** `-`, `-s`, `/dev/stdin`: the code is read from standard input. */
  stdin: boolean;
  /** A script (or module) operand. */
  operand: boolean;
  /** The word that names it. */
  operandWord?: number;
}

/** Walk `code`, which the command at `parent` (in the visible list) runs as shell code. */
export function runCodeOf(parent: number, code: string, ctx: Ctx, frame: Frame): void {
  ctx.walker.code(code, ctx, { ...frame, within: { how: 'code', parent, asProgram: false } });
}

/**
 * Classify a shell or an interpreter (the command at `index`); false for other programs. What it
 * runs is recorded in `cmd.runsCode`.
 */
export function classifyCodeRunner(
  cmd: SimpleCommand,
  base: string,
  index: number,
  ctx: Ctx,
  frame: Frame,
): boolean {
  const shell = SHELLS.has(base);
  const spec = shell ? null : interpreterSpec(base);
  if (!shell && !spec) return false;
  const read = spec ? readInterpreter(cmd, spec) : readShell(cmd, base);
  if (read.code) {
    const word = read.codeWord !== undefined && read.codeWord < cmd.argv.length;
    cmd.runsCode = { from: 'argument', word: word ? (read.codeWord ?? null) : null };
    opaque(
      ctx,
      shell
        ? `\`${base} -c\` runs its argument as shell code`
        : `\`${base}\` is given code to run on the command line`,
    );
    if (read.codeText !== undefined) runCodeOf(index, read.codeText, ctx, frame);
    return true;
  }
  // A shell without a script reads its input; an interpreter waits for a terminal unless fed.
  if (!read.stdin && (read.operand || !(shell || frame.stdinFed))) return true;
  cmd.runsCode = { from: 'input' };
  opaque(
    ctx,
    shell ? `\`${base}\` reads shell code from its input` : `\`${base}\` reads code from its input`,
  );
  if (!shell) return true;
  for (const r of cmd.redirects) {
    if ((r.op === '<<<' || r.op === '<<' || r.op === '<<-') && !r.dynamic)
      runCodeOf(index, r.target, ctx, frame);
  }
  return true;
}

/**
 * The word of a shell's or interpreter's argv that names the script or module it runs; null when it
 * names none (code given, read from its input, or nothing yet); undefined for other programs.
 */
export function scriptWordOf(cmd: SimpleCommand): number | null | undefined {
  const base = normalizeProgram(cmd.argv[0] ?? '');
  const shell = SHELLS.has(base);
  const spec = shell ? null : interpreterSpec(base);
  if (!shell && !spec) return undefined;
  const read = spec ? readInterpreter(cmd, spec) : readShell(cmd, base);
  if (read.code || read.stdin) return null;
  return read.operandWord ?? null;
}

/** A script operand that is the program's own input (`bash /dev/stdin`), or `-` anywhere. */
function readsStdin(t: string, operand: boolean): boolean {
  return t === '-' || (!operand && STDIN_PATHS.has(t));
}

function readShell(cmd: SimpleCommand, base: string): Reading {
  const { argv } = cmd;
  const read: Reading = { code: false, stdin: false, operand: false };
  const codeAt = (word: number, text: string | undefined): void => {
    read.code = true;
    if (read.codeText !== undefined || text === undefined) return;
    read.codeWord = word;
    read.codeText = text;
  };
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i] ?? '';
    if (cmd.dynamic.includes(i)) {
      if (!read.operand) read.code = true; // an option we cannot read
      continue;
    }
    if (readsStdin(t, read.operand)) {
      read.stdin = true;
      continue;
    }
    if (t === '--') continue;
    if (SHELL_ARG_OPTIONS.has(t)) {
      i++;
      continue;
    }
    if (/^--(?:init-)?command(?:=|$)/.test(t)) {
      const eq = t.indexOf('=');
      codeAt(eq === -1 ? i + 1 : i, eq === -1 ? argv[i + 1] : t.slice(eq + 1));
      continue;
    }
    if (t.startsWith('--')) continue;
    if (/^-[A-Za-z]+$/.test(t)) {
      const letters = t.slice(1);
      if (letters.includes('c') || (base === 'fish' && letters.includes('C'))) {
        const k = argv.findIndex((w, j) => j > i && !/^[-+]/.test(w));
        codeAt(k, k === -1 ? undefined : argv[k]);
      }
      if (letters.includes('s') || letters.includes('i')) read.stdin = true;
      continue;
    }
    if (/^\+[A-Za-z]+$/.test(t)) continue;
    read.operand = true;
    read.operandWord ??= i;
  }
  return read;
}

function readInterpreter(cmd: SimpleCommand, spec: InterpreterSpec): Reading {
  const { argv } = cmd;
  const read: Reading = { code: false, stdin: false, operand: false };
  const codeAt = (word: number): void => {
    if (!read.code) read.codeWord = word;
    read.code = true;
  };
  for (let i = 1; i < argv.length; i++) {
    const raw = argv[i] ?? '';
    if (cmd.dynamic.includes(i)) {
      if (!read.operand) read.code = true;
      continue;
    }
    const t = spec.caseInsensitive ? raw.toLowerCase() : raw;
    if (readsStdin(t, read.operand)) {
      read.stdin = true;
      continue;
    }
    if (t === '--') continue;
    if (spec.dashLongCode?.some((o) => t === o || t.startsWith(`${o}:`))) {
      codeAt(t.includes(':') ? i : i + 1);
      continue;
    }
    if (t.startsWith('--')) {
      const optName = t.split('=')[0] ?? t;
      if (spec.longCode.includes(optName)) codeAt(t.includes('=') ? i : i + 1);
      continue;
    }
    if (/^-[A-Za-z0-9]/.test(t)) {
      const letters = t.slice(1);
      for (let k = 0; k < letters.length; k++) {
        const letter = letters[k] ?? '';
        const cmpLetter = spec.caseInsensitive ? letter.toLowerCase() : letter;
        if (spec.codeLetters.includes(cmpLetter)) {
          codeAt(k === letters.length - 1 ? i + 1 : i);
          break;
        }
        if (spec.argLetters.includes(letter)) {
          if (k === letters.length - 1) i++; // the argument is the next word
          if (letter === 'm') {
            // `python -m module` runs a module, like a script
            read.operand = true;
            read.operandWord ??= i;
          }
          break;
        }
      }
      continue;
    }
    if (!read.operand && spec.codeSubcommands?.includes(t)) codeAt(i + 1);
    read.operand = true;
    read.operandWord ??= i;
  }
  return read;
}
