// A command line as the warnings read it: every program call the shell analysis of the rules found
// (including those nested in `sh -c '…'`, $(…), `…`, <(…), `eval …` and here-documents fed to a
// shell), with the wrappers (sudo, env, xargs, …) peeled off so the real program is known.
import type { CommandView } from '../../../shared/domain';
import { analyzeCommand } from '../rules/shell/analyze';
import { normalizeProgram } from '../rules/shell/programs';
import type { PipeStage, Redirect, ShellAnalysis, Within } from '../rules/shell/types';
import { quoteArgv } from './command';

export interface Call {
  /** Normalized name of the program that runs after the wrappers; null when there is none. */
  program: string | null;
  /** The command name as the shell reads it (a path, `./install.sh`, …); null when there is none. */
  programWord: string | null;
  /** Normalized wrappers, outermost first (`sudo`, `env`, …). */
  wrappers: readonly string[];
  /** Words after the program. */
  args: readonly string[];
  redirects: readonly Redirect[];
  /** The pipeline stage it runs in, if it is part of a pipeline. */
  pipe: PipeStage | null;
  /** How it was found inside another call (a substitution, code in a string), if it was. */
  within: { how: Within['how']; parent: Call | null; asProgram: boolean } | null;
  /** Index in `args` of the code a shell or interpreter is given (`sh -c '…'`), or null. */
  codeArg: number | null;
  /** A shell or interpreter that runs what it reads on its input (`curl … | sh`). */
  readsCodeFromInput: boolean;
}

export interface CommandAnalysis {
  calls: Call[];
  /** Every program and wrapper run anywhere, normalized. */
  programs: Set<string>;
  /** The command line and the words of every call, for checks on the text (PowerShell). */
  texts: string[];
  /** Why the analysis did not see all of the command, or null. */
  tooComplex: string | null;
}

/** What a CommandView runs. An argv is read as exec'd words, not re-split. */
export function commandCalls(view: Pick<CommandView, 'command' | 'args'>): CommandAnalysis {
  const text = view.args && view.args.length > 0 ? quoteArgv(view.args) : view.command;
  const shell = analyzeCommand(text);
  const calls = callsOf(shell);
  const programs = new Set<string>();
  for (const call of calls) {
    for (const w of call.wrappers) programs.add(w);
    if (call.program !== null) programs.add(call.program);
  }
  const words = calls.map((c) => [c.programWord ?? '', ...c.args].join(' '));
  return { calls, programs, texts: [text, ...words], tooComplex: tooComplex(shell) };
}

function tooComplex(shell: ShellAnalysis): string | null {
  if (shell.kind === 'simple') return null;
  return (shell.tooComplex ? shell.reasons[0] : shell.partial) ?? null;
}

/** The commands of the analysis that run a program, wrappers skipped (their inner call says so). */
function callsOf(shell: ShellAnalysis): Call[] {
  const commands = shell.kind === 'simple' ? shell.commands : shell.visible;
  const byIndex = new Map<number, Call>();
  commands.forEach((cmd, i) => {
    if (cmd.wraps) return;
    const name = cmd.argv[0];
    const code = cmd.runsCode;
    byIndex.set(i, {
      program: name === undefined || cmd.dynamic.includes(0) ? null : normalizeProgram(name),
      programWord: name ?? null,
      wrappers: cmd.wrappers ?? [],
      args: cmd.argv.slice(1),
      redirects: cmd.redirects,
      pipe: cmd.pipe ?? null,
      within: null,
      codeArg: code?.from === 'argument' && code.word !== null ? code.word - 1 : null,
      readsCodeFromInput: code?.from === 'input',
    });
  });
  // Parents are tied once every call exists: a substitution is read before its command.
  for (const [i, call] of byIndex) {
    const within = commands[i]?.within;
    if (!within) continue;
    const parent = within.parent === null ? null : (byIndex.get(within.parent) ?? null);
    call.within = { how: within.how, parent, asProgram: within.asProgram };
  }
  return [...byIndex.values()];
}
