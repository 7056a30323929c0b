/**
 * Shells and interpreters: where the code they run comes from. A script file is an ordinary
 * command as far as rules go (like `./script.sh`); code given as an argument or read from their
 * input is opaque, and shell code given as text is looked into for deny rules.
 */
import { opaque, type Ctx, type Frame } from './context';
import { SHELL_ARG_OPTIONS, STDIN_PATHS, type InterpreterSpec } from './programs';
import type { SimpleCommand } from './types';

/** Walk `code`, which the command at `parent` (in the visible list) runs as shell code. */
export function runCodeOf(parent: number, code: string, ctx: Ctx, frame: Frame): void {
  ctx.walker.code(code, ctx, { ...frame, within: { how: 'code', parent, asProgram: false } });
}

/** The word holding the code, when it is in argv (`-c code`, `--command=code`). */
function codeWordAt(argv: string[], index: number | undefined): number | null {
  return index !== undefined && index < argv.length ? index : null;
}

/** A script operand that is the program's own input (`bash /dev/stdin`), or `-` anywhere. */
function readsStdin(t: string, operand: boolean): boolean {
  return t === '-' || (!operand && STDIN_PATHS.has(t));
}

export function classifyShell(
  cmd: SimpleCommand,
  base: string,
  index: number,
  ctx: Ctx,
  frame: Frame,
): void {
  const { argv } = cmd;
  let operand = false;
  let code: string | undefined;
  let codeWord: number | undefined;
  let codeFlag = false;
  let stdinFlag = false;
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i] ?? '';
    if (cmd.dynamic.includes(i)) {
      if (!operand) codeFlag = true; // an option we cannot read
      continue;
    }
    if (readsStdin(t, operand)) {
      stdinFlag = true;
      continue;
    }
    if (t === '--') continue;
    if (SHELL_ARG_OPTIONS.has(t)) {
      i++;
      continue;
    }
    if (/^--(?:init-)?command(?:=|$)/.test(t)) {
      codeFlag = true;
      if (code === undefined) {
        codeWord = t.includes('=') ? i : i + 1;
        code = t.includes('=') ? t.slice(t.indexOf('=') + 1) : argv[i + 1];
      }
      continue;
    }
    if (t.startsWith('--')) continue;
    if (/^-[A-Za-z]+$/.test(t)) {
      const letters = t.slice(1);
      if (letters.includes('c') || (base === 'fish' && letters.includes('C'))) {
        codeFlag = true;
        const k = argv.findIndex((w, j) => j > i && !/^[-+]/.test(w));
        if (code === undefined && k !== -1) {
          code = argv[k];
          codeWord = k;
        }
      }
      if (letters.includes('s') || letters.includes('i')) stdinFlag = true;
      continue;
    }
    if (/^\+[A-Za-z]+$/.test(t)) continue;
    operand = true;
  }
  if (codeFlag) {
    cmd.runsCode = { from: 'argument', word: codeWordAt(argv, codeWord) };
    opaque(ctx, `\`${base} -c\` runs its argument as shell code`);
    if (code !== undefined) runCodeOf(index, code, ctx, frame);
    return;
  }
  if (stdinFlag || !operand) {
    cmd.runsCode = { from: 'input' };
    opaque(ctx, `\`${base}\` reads shell code from its input`);
    for (const r of cmd.redirects) {
      if ((r.op === '<<<' || r.op === '<<' || r.op === '<<-') && !r.dynamic)
        runCodeOf(index, r.target, ctx, frame);
    }
  }
}

export function classifyInterpreter(
  cmd: SimpleCommand,
  base: string,
  spec: InterpreterSpec,
  ctx: Ctx,
  frame: Frame,
): void {
  const { argv } = cmd;
  let operand = false;
  let stdin = false;
  let code = false;
  let codeWord: number | undefined;
  const found = (word: number): void => {
    if (!code) codeWord = word;
    code = true;
  };
  for (let i = 1; i < argv.length; i++) {
    const raw = argv[i] ?? '';
    if (cmd.dynamic.includes(i)) {
      if (!operand) code = true;
      continue;
    }
    const t = spec.caseInsensitive ? raw.toLowerCase() : raw;
    if (readsStdin(t, operand)) {
      stdin = true;
      continue;
    }
    if (t === '--') continue;
    if (spec.dashLongCode?.some((o) => t === o || t.startsWith(`${o}:`))) {
      found(t.includes(':') ? i : i + 1);
      continue;
    }
    if (t.startsWith('--')) {
      const optName = t.split('=')[0] ?? t;
      if (spec.longCode.includes(optName)) found(t.includes('=') ? i : i + 1);
      continue;
    }
    if (/^-[A-Za-z0-9]/.test(t)) {
      const letters = t.slice(1);
      for (let k = 0; k < letters.length; k++) {
        const letter = letters[k] ?? '';
        const cmpLetter = spec.caseInsensitive ? letter.toLowerCase() : letter;
        if (spec.codeLetters.includes(cmpLetter)) {
          found(k === letters.length - 1 ? i + 1 : i);
          break;
        }
        if (spec.argLetters.includes(letter)) {
          if (k === letters.length - 1) i++; // the argument is the next word
          if (letter === 'm') operand = true; // `python -m module` runs a module, like a script
          break;
        }
      }
      continue;
    }
    if (!operand && spec.codeSubcommands?.includes(t)) found(i + 1);
    operand = true;
  }
  if (code) {
    cmd.runsCode = { from: 'argument', word: codeWordAt(argv, codeWord) };
    opaque(ctx, `\`${base}\` is given code to run on the command line`);
    return;
  }
  if (stdin || (!operand && frame.stdinFed)) {
    cmd.runsCode = { from: 'input' };
    opaque(ctx, `\`${base}\` reads code from its input`);
  }
}
