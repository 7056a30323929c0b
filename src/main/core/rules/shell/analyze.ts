/**
 * Shell analysis: split a command line into the simple commands bash will run, with exact argv,
 * or declare it opaque (must always ask) when the tree does not let us know what will run.
 *
 * The rule of thumb: anything whose meaning depends on run-time state in a way that can change
 * WHICH program runs or WHAT code runs is opaque. Values that are merely unknown (`$HOME` as an
 * argument, `*.ts`) stay simple but are marked dynamic, so allow matching cannot rely on them.
 *
 * Even when opaque, every simple command we can see (inside `$(…)`, `bash -c '…'`, `sudo …`,
 * loops, …) is collected as `visible`, so a deny rule still fires on `echo $(curl x)`, and the
 * safety warnings can say what the line runs.
 *
 * The parts: walk.ts (statements), statements.ts (simple commands), words.ts, redirects.ts,
 * classify.ts and interpreters.ts (programs with special meaning), tree.ts (budget and
 * parser checks), cache.ts.
 */
import { cachedAnalysis } from './cache';
import { MAX_COMMAND_LENGTH, MAX_PARSE_MS, type Ctx, type Run } from './context';
import { findInvisible } from './lexical';
import { parseShell } from './parse';
import type { ShellAnalysis } from './types';
import { WALKER, walkCode } from './walk';

export { MAX_COMMAND_LENGTH } from './context';

/**
 * Analyse one shell command line. Synchronous; requires `await initShellParser()` first.
 * The result is frozen (deeply) and may be shared: the same text gives the same analysis.
 */
export function analyzeCommand(text: string): ShellAnalysis {
  if (typeof text !== 'string') throw new TypeError('analyzeCommand expects a string');
  return cachedAnalysis(text, analyzeUncached);
}

function analyzeUncached(text: string): ShellAnalysis {
  if (text.length > MAX_COMMAND_LENGTH) {
    // Still make sure the parser was initialised, so misuse is reported consistently.
    parseShell('')?.delete();
    return {
      kind: 'opaque',
      reasons: [`the command is too long to analyse (${text.length} characters)`],
      visible: [],
      tooComplex: true,
    };
  }
  const run: Run = {
    deadline: performance.now() + MAX_PARSE_MS,
    nodes: 0,
    substitutions: 0,
    exceeded: null,
    partial: null,
    pipelines: 0,
    reasons: [],
    top: [],
    visible: [],
  };
  const ctx: Ctx = { run, walker: WALKER, source: text, codeDepth: 0, treeDepth: 0 };
  const invisible = findInvisible(text);
  if (invisible) {
    run.reasons.push(`the command contains an invisible or control character (${invisible})`);
  }
  walkCode(text, ctx, { nested: false, stdinFed: false, redirects: [] });
  if (run.exceeded !== null) {
    // What was seen before the budget ran out is incomplete, so no part of it may decide.
    return { kind: 'opaque', reasons: [run.exceeded], visible: [], tooComplex: true };
  }
  if (run.reasons.length > 0) {
    const partial = run.partial === null ? {} : { partial: run.partial };
    return { kind: 'opaque', reasons: [...new Set(run.reasons)], visible: run.visible, ...partial };
  }
  return { kind: 'simple', commands: run.top };
}
