/**
 * A prefix grant: "allow `npm test …`", the first words of one simple command a person picked.
 *
 * It is never wider than those words say:
 * - it is made from a line that runs exactly one simple command (a compound line, a pipe, a list
 *   is remembered exactly or not at all: a prefix of one part says nothing of the others);
 * - the words must say what runs: a prefix that stops at a program which runs whatever follows
 *   it (a shell, an interpreter, a wrapper such as `env` or `xargs`, a builtin such as `exec`, a
 *   package runner such as `npx`) would allow any program, so it is refused;
 * - it covers a command whose words start with the prefix's words, with the same assignments and
 *   the same file writes, and no other redirection: a read from a file, a here-document or a write
 *   the person did not see is asked again. Descriptor copies (`2>&1`) and `/dev/null` open nothing.
 * Substitutions (`$(…)`, backquotes, `<(…)`) make a line opaque, which no grant ever covers.
 */
import { PREFIX_WORD_MAX_CHARS, PREFIX_WORDS_MAX, type PrefixOffer } from '../../../shared/domain';
import { analyzeCommand } from './shell/analyze';
import { OPAQUE_BUILTINS, HARMLESS_SINKS, isFileWrite } from './shell/commands';
import { scriptWordOf } from './shell/interpreters';
import { normalizeProgram, PACKAGE_RUNNERS, POWERSHELL_EVAL } from './shell/programs';
import type { Redirect, SimpleCommand } from './shell/types';
import { WRAPPERS } from './shell/wrappers';

/**
 * How many words a prefix of `cmd` needs at least before it says what runs, or why no prefix of
 * it can say that (it runs whatever follows it, or code it is given).
 */
export function leastPrefixWords(cmd: SimpleCommand): { least: number } | { refused: string } {
  const { argv } = cmd;
  const name = argv[0] ?? '';
  const base = normalizeProgram(name);
  if (WRAPPERS.has(base) || OPAQUE_BUILTINS.has(base) || POWERSHELL_EVAL.has(base))
    return { refused: `\`${name}\` runs whatever command follows it` };
  const script = scriptWordOf(cmd);
  if (script === null)
    return { refused: `\`${name}\` runs code, and this command names no script for it to run` };
  const runner = PACKAGE_RUNNERS.get(base);
  if (runner === undefined) return { least: script === undefined ? 1 : script + 1 };
  // `npx pkg`, `npm exec pkg`: the package is the first word after the runner that is no option;
  // `npm test`: the subcommand must be in the prefix, or `npm …` would allow `npm exec` too.
  const operand = (after: number) => argv.findIndex((w, i) => i > after && !w.startsWith('-'));
  const sub = runner.length === 0 ? 0 : operand(0);
  if (sub === -1)
    return { refused: `\`${name}\` names no subcommand: a prefix of it runs anything` };
  if (runner.length > 0 && !runner.includes(argv[sub] ?? ''))
    return { least: Math.max(sub, script ?? 0) + 1 };
  const pkg = operand(sub);
  if (pkg === -1)
    return { refused: `\`${argv.slice(0, sub + 1).join(' ')}\` names nothing it runs` };
  return { least: pkg + 1 };
}

/** Why `words` leading words of `cmd` cannot be remembered as a prefix, or null when they can. */
export function prefixRefusal(cmd: SimpleCommand, words: number): string | null {
  if (!Number.isInteger(words) || words < 1) return 'a prefix is at least one word';
  if (words > cmd.argv.length)
    return `\`${cmd.text}\` has ${cmd.argv.length} words, fewer than the ${words} picked`;
  if (cmd.dynamic.some((d) => d < words))
    return `the first ${words} words of \`${cmd.text}\` are only known when it runs`;
  const least = leastPrefixWords(cmd);
  const shown = cmd.argv.slice(0, words).join(' ');
  if ('refused' in least) return `no prefix of it can be remembered: ${least.refused}`;
  if (words < least.least)
    return `\`${shown} …\` would run anything: pick at least ${least.least} words (up to what runs)`;
  const unstated = cmd.redirects.find((r) => !opensNothing(r) && !isFileWrite(r.op, r.target));
  if (unstated)
    return `a prefix cannot state the redirection \`${unstated.op}\` of \`${cmd.text}\``;
  return null;
}

/** A descriptor copy or close (`2>&1`, `<&0`, `>&-`), or a write to a sink such as /dev/null. */
function opensNothing(r: Redirect): boolean {
  if (r.dynamic) return false;
  if ((r.op === '>&' || r.op === '<&') && /^(\d+|-)$/.test(r.target)) return true;
  if (r.op === '>&-' || r.op === '<&-') return true;
  return isWriteOp(r.op) && HARMLESS_SINKS.has(r.target);
}

function isWriteOp(op: string): boolean {
  return ['>', '>>', '>|', '&>', '&>>', '>&'].includes(op);
}

/**
 * Whether a prefix grant's redirections allow this command's: every one opens nothing, or is a
 * file write the grant states (compared as a set by the caller).
 */
export function redirectsWithinPrefix(cmd: SimpleCommand): boolean {
  return cmd.redirects.every((r) => opensNothing(r) || (!r.dynamic && isFileWrite(r.op, r.target)));
}

/**
 * What "always" may offer for a shell line: the words of its one simple command up to the first
 * only known when it runs, and the least a prefix needs; null when no prefix can be remembered.
 */
export function prefixOffer(line: string): PrefixOffer | null {
  const analysis = analyzeCommand(line);
  if (analysis.kind !== 'simple' || analysis.commands.length !== 1) return null;
  const cmd = analysis.commands[0] as SimpleCommand;
  const long = cmd.argv.findIndex((w) => w.length > PREFIX_WORD_MAX_CHARS);
  const known = Math.min(...cmd.dynamic, long === -1 ? cmd.argv.length : long, PREFIX_WORDS_MAX);
  const least = leastPrefixWords(cmd);
  if ('refused' in least || least.least > known || prefixRefusal(cmd, known) !== null) return null;
  return { words: cmd.argv.slice(0, known), least: least.least };
}
