// A command line analysed for the warnings: every program call it makes, including those nested
// in `sh -c '…'`, $(…), `…`, <(…), `eval …` and here-documents fed to a shell, with the wrappers
// (sudo, env, xargs, …) peeled off so the real program is known.
import type { CommandView } from '../../../shared/domain';
import {
  SHELL_MAX_CALLS,
  SHELL_MAX_CHARS,
  SHELL_MAX_DEPTH,
  SHELL_MAX_SUBSTITUTIONS,
} from './limits';
import {
  KEYWORDS,
  NON_CALLS,
  SHELLS,
  WRAPPER_VALUE_FLAGS,
  WRAPPERS,
  normalizeProgram,
} from './programs';
import { parseShell, type ShellRedirect, type ShellWord } from './shell';

export type Origin =
  | 'line'
  | 'argv'
  | 'command-substitution'
  | 'process-substitution'
  | 'shell-c'
  | 'eval'
  | 'heredoc';

export interface Call {
  /** Normalized name of the program that runs after the wrappers; null when there is none. */
  program: string | null;
  /** The program word as written (a path, `./install.sh`, …). */
  programWord: ShellWord | null;
  /** Normalized wrappers in order (`sudo`, `env`, …). */
  wrappers: string[];
  /** Words after the program. */
  args: ShellWord[];
  redirects: ShellRedirect[];
  /** Pipelines are numbered across the whole analysis; stage is the position within one. */
  pipeline: number;
  stage: number;
  next: string | null;
  origin: Origin;
  /** Index (in `calls`) of the call whose words contained this nested script. */
  parent: number | null;
  /** In the parent, was the nested script its program word (`$(curl …)` run as a command)? */
  asProgram: boolean;
  depth: number;
}

export interface CommandAnalysis {
  calls: Call[];
  /** Every program and wrapper run anywhere, normalized. */
  programs: Set<string>;
  /** Source texts analysed (the command line and every nested script), for pattern checks. */
  texts: string[];
  /** Nesting deeper than SHELL_MAX_DEPTH was not followed. */
  depthExceeded: boolean;
  /** Why part or all of the command was not analysed (too long, too many calls or nested scripts). */
  tooComplex: string | null;
}

/** Analyses what a CommandView runs. argv views are read as exec'd words, not re-split. */
export function analyzeCommand(view: Pick<CommandView, 'command' | 'args' | 'cwd'>): CommandAnalysis {
  const analysis: CommandAnalysis = {
    calls: [],
    programs: new Set(),
    texts: [],
    depthExceeded: false,
    tooComplex: null,
  };
  const state: State = { pipeline: 0, nested: 0, stopped: false };
  if (view.command.length > SHELL_MAX_CHARS) {
    analysis.tooComplex = `it is ${view.command.length} characters long`;
    return analysis;
  }
  if (view.args && view.args.length > 0) {
    const words = view.args.map<ShellWord>((a) => ({
      value: a,
      raw: a,
      quoted: true,
      expands: false,
      subs: [],
    }));
    analysis.texts.push(view.command);
    addCall(analysis, state, words, [], 0, 0, null, 'argv', null, false, 0);
  } else {
    analyzeText(analysis, state, view.command, 'line', null, false, 0);
  }
  return analysis;
}

interface State {
  pipeline: number;
  /** Nested scripts analysed so far. */
  nested: number;
  /** A budget ran out: nothing more is analysed. */
  stopped: boolean;
}

function analyzeText(
  analysis: CommandAnalysis,
  state: State,
  text: string,
  origin: Origin,
  parent: number | null,
  asProgram: boolean,
  depth: number,
): void {
  if (state.stopped) return;
  if (depth > SHELL_MAX_DEPTH) {
    analysis.depthExceeded = true;
    analysis.tooComplex ??= `it nests scripts more than ${SHELL_MAX_DEPTH} levels deep`;
    return;
  }
  if (depth > 0 && ++state.nested > SHELL_MAX_SUBSTITUTIONS) {
    analysis.tooComplex = `it nests more than ${SHELL_MAX_SUBSTITUTIONS} scripts`;
    state.stopped = true;
    return;
  }
  analysis.texts.push(text);
  const base = state.pipeline;
  let maxPipeline = -1;
  for (const cmd of parseShell(text)) {
    if (analysis.calls.length >= SHELL_MAX_CALLS) {
      analysis.tooComplex = `it runs more than ${SHELL_MAX_CALLS} commands`;
      state.stopped = true;
      break;
    }
    maxPipeline = Math.max(maxPipeline, cmd.pipeline);
    addCall(
      analysis,
      state,
      cmd.words,
      cmd.redirects,
      base + cmd.pipeline,
      cmd.stage,
      cmd.next,
      origin,
      parent,
      asProgram,
      depth,
    );
  }
  state.pipeline = Math.max(state.pipeline, base + maxPipeline + 1);
}

function addCall(
  analysis: CommandAnalysis,
  state: State,
  words: ShellWord[],
  redirects: ShellRedirect[],
  pipeline: number,
  stage: number,
  next: string | null,
  origin: Origin,
  parent: number | null,
  asProgram: boolean,
  depth: number,
): void {
  const { index, wrappers, splitString } = resolveProgram(words);
  const programWord = index < words.length ? (words[index] ?? null) : null;
  // A program word that expands ($CMD, $(…)) names no program we can know.
  const program =
    programWord && !programWord.expands && !NON_CALLS.has(programWord.value)
      ? normalizeProgram(programWord.value)
      : null;
  const call: Call = {
    program,
    programWord,
    wrappers,
    args: programWord ? words.slice(index + 1) : [],
    redirects,
    pipeline,
    stage,
    next,
    origin,
    parent,
    asProgram,
    depth,
  };
  const at = analysis.calls.length;
  analysis.calls.push(call);
  for (const w of wrappers) analysis.programs.add(w);
  if (program) analysis.programs.add(program);

  // Nested scripts, in the order a reader meets them.
  words.forEach((word, wordIndex) => {
    for (const sub of word.subs) {
      analyzeText(
        analysis,
        state,
        sub.body,
        sub.kind === 'process' ? 'process-substitution' : 'command-substitution',
        at,
        wordIndex === index,
        depth + 1,
      );
    }
  });
  for (const r of redirects) {
    for (const sub of r.target?.subs ?? []) {
      analyzeText(analysis, state, sub.body, 'command-substitution', at, false, depth + 1);
    }
  }
  if (splitString !== null)
    analyzeText(analysis, state, splitString, 'shell-c', at, false, depth + 1);
  if (!program) return;
  if (SHELLS.has(program)) {
    const script = shellScriptArg(call.args);
    if (script !== null) analyzeText(analysis, state, script, 'shell-c', at, false, depth + 1);
    else {
      // `bash <<EOF … EOF` runs the here-document.
      for (const r of redirects) {
        if (r.heredoc !== null && (r.op === '<<' || r.op === '<<-')) {
          analyzeText(analysis, state, r.heredoc, 'heredoc', at, false, depth + 1);
        }
      }
      const here = redirects.find((r) => r.op === '<<<' && r.target);
      if (here?.target)
        analyzeText(analysis, state, here.target.value, 'heredoc', at, false, depth + 1);
    }
  } else if (program === 'eval' && call.args.length > 0) {
    analyzeText(
      analysis,
      state,
      call.args.map((a) => a.value).join(' '),
      'eval',
      at,
      false,
      depth + 1,
    );
  }
}

/**
 * Index of the program word after assignments, keywords and wrappers, the wrappers themselves,
 * and the string of `env -S '…'` (which env splits and runs).
 */
function resolveProgram(words: ShellWord[]): {
  index: number;
  wrappers: string[];
  splitString: string | null;
} {
  const wrappers: string[] = [];
  let splitString: string | null = null;
  let k = 0;
  const skipAssignments = (): void => {
    while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[k]?.value ?? '')) k++;
  };
  skipAssignments();
  while (k < words.length && KEYWORDS.has(words[k]?.value ?? '')) {
    k++;
    skipAssignments();
  }
  for (let guard = 0; guard < 16 && k < words.length; guard++) {
    const name = normalizeProgram(words[k]?.value ?? '');
    if (!WRAPPERS.has(name)) break;
    // `command -v x` and `command -V x` only look x up.
    if (name === 'command' && /^-[vV]$/.test(words[k + 1]?.value ?? '')) {
      wrappers.push(name);
      return { index: words.length, wrappers, splitString };
    }
    wrappers.push(name);
    k++;
    const valueFlags = WRAPPER_VALUE_FLAGS[name];
    while (k < words.length) {
      const v = words[k]?.value ?? '';
      if (v === '--') {
        k++;
        break;
      }
      if (name === 'env' && (v === '-S' || v === '--split-string')) {
        splitString = words[k + 1]?.value ?? null;
        k = words.length;
        break;
      }
      if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
        k++;
        continue;
      }
      if (v.startsWith('-') && v.length > 1) {
        k += valueFlags?.has(v) ? 2 : 1;
        continue;
      }
      break;
    }
    if (name === 'sudo' || name === 'doas' || name === 'run0') skipAssignments();
    // Positional values before the program: `timeout 10s cmd`, `chroot DIR cmd`.
    if ((name === 'timeout' && /^\d/.test(words[k]?.value ?? '')) || name === 'chroot') k++;
  }
  return { index: k, wrappers, splitString };
}

/** The script of `sh -c 'script'` (combined flags such as -lc, -ec count), or null. */
function shellScriptArg(args: ShellWord[]): string | null {
  let hasC = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]?.value ?? '';
    if (v === '--') return hasC ? (args[i + 1]?.value ?? null) : null;
    if (
      v === '-o' ||
      v === '+o' ||
      v === '-O' ||
      v === '+O' ||
      v === '--rcfile' ||
      v === '--init-file'
    ) {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(v)) {
      if (v.startsWith('-') && v.includes('c')) hasC = true;
      continue;
    }
    if (v.startsWith('--')) continue;
    return hasC ? v : null;
  }
  return null;
}

/** Non-option arguments of a call (values of `--opt=value` included), as written. */
export function operands(call: Call): ShellWord[] {
  return call.args.filter((w) => !(w.value.startsWith('-') && w.value.length > 1));
}
