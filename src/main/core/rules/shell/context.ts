/**
 * The state one analysis carries through the walk, its bounds, and the few steps every part of
 * the walk shares (declaring the line opaque, recording a command).
 */
import type { Node } from 'web-tree-sitter';
import type { PipeStage, Redirect, SimpleCommand, Within } from './types';

/** Longer input is not parsed at all (opaque): nobody reviews 64 KiB of shell anyway. */
export const MAX_COMMAND_LENGTH = 64 * 1024;
/**
 * Syntax-tree nodes (named or not, across the line and all code nested in strings) and command or
 * process substitutions analysed per command. Far beyond real commands; past either bound the line
 * is opaque without being walked, so one request cannot hold the main thread.
 */
export const MAX_TREE_NODES = 50_000;
export const MAX_SUBSTITUTIONS = 256;
/** Time all parsing of one line may take; a legitimate 64 KiB line parses in a fraction of it. */
export const MAX_PARSE_MS = 1000;
/** Levels of code-in-a-string (`bash -c "sh -c '…'"`) we look into for deny rules. */
export const MAX_CODE_NESTING = 4;
/** Syntax-tree depth we walk; deeper input is opaque rather than a stack overflow. */
export const MAX_TREE_DEPTH = 200;

/** Shared by a line and all code nested in it. */
export interface Run {
  nodes: number;
  substitutions: number;
  /** When parsing must have ended (`performance.now()` time). */
  deadline: number;
  /** Why the budget ran out, if it did: then nothing of the analysis may decide. */
  exceeded: string | null;
  /** Why some nested code was not looked into, if any was left out. */
  partial: string | null;
  /** Pipelines numbered so far. */
  pipelines: number;
  reasons: string[];
  top: SimpleCommand[];
  visible: SimpleCommand[];
}

/**
 * The walk is mutually recursive across files (a word holds a substitution that holds statements);
 * its entry points travel with the context instead of importing each other.
 */
export interface Walker {
  statement(node: Node, ctx: Ctx, frame: Frame, tail?: Tail): void;
  /** Collect commands inside something already opaque, for deny rules only. */
  visit(node: Node, ctx: Ctx, frame: Frame): void;
  /** Look into shell code carried as a string (`bash -c`, `eval`, `ssh host …`). */
  code(code: string, ctx: Ctx, frame: Frame): void;
}

export interface Ctx {
  run: Run;
  walker: Walker;
  /** The code being walked: the line, or code nested in one of its strings. */
  source: string;
  codeDepth: number;
  treeDepth: number;
}

/** A substitution met while reading one command's words, tied to the command once it is known. */
export interface PendingSubstitution {
  within: Within;
  /** Index of the word it is in, or -1 outside the command's words (assignments, redirections). */
  word: number;
}

export interface Frame {
  /** Inside something opaque: commands found here are only "visible". */
  nested: boolean;
  /** Standard input is fed by a pipe or redirect (matters for `sh`, `python`, …). */
  stdinFed: boolean;
  /** Redirects of enclosing statements (`(ls; rm x) > out`). */
  redirects: Redirect[];
  /** Source slice to report for the command (the whole redirected statement). */
  text?: string;
  pipe?: PipeStage;
  within?: Within;
  /** Where substitutions in the words being read are recorded, and the index of that word. */
  pending?: PendingSubstitution[];
  word?: number;
}

/**
 * Redirections (and stray words) written after a list or pipeline. tree-sitter-bash attaches
 * `a && b > f` to the whole list, but in bash redirections belong to one command: the last one.
 */
export interface Tail {
  redirects: Redirect[];
  extraArgs: Word[];
}

export interface Word {
  value: string;
  dynamic: boolean;
  skeleton: string;
  /** Why the word is dynamic, for the command-name message. */
  pattern?: boolean;
}

export function opaque(ctx: Ctx, reason: string): void {
  ctx.run.reasons.push(reason);
}

/** Record a command the walk found; returns its index in `visible`. */
export function record(ctx: Ctx, frame: Frame, cmd: SimpleCommand): number {
  if (frame.pipe) cmd.pipe = frame.pipe;
  if (frame.within) cmd.within = frame.within;
  ctx.run.visible.push(cmd);
  if (!frame.nested) ctx.run.top.push(cmd);
  return ctx.run.visible.length - 1;
}

/** Tie the substitutions read in a command's words to the command that stands for it. */
export function settle(pending: PendingSubstitution[], parent: number, nameWord: number): void {
  for (const p of pending) {
    p.within.parent = parent;
    p.within.asProgram = p.word === nameWord;
  }
}

/** The frame for the commands of a `$(…)`, backquotes or `<(…)`: a script of their own. */
export function substitutionFrame(frame: Frame, type: string): Frame {
  const within: Within = {
    how: type === 'process_substitution' ? 'process-substitution' : 'command-substitution',
    parent: null,
    asProgram: false,
  };
  frame.pending?.push({ within, word: frame.word ?? -1 });
  return { ...frame, within, pipe: undefined, pending: undefined, word: undefined };
}
