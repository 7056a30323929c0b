/**
 * What the shell analysis makes of a command line. The rules judge `argv`, `env` and `redirects`;
 * the safety warnings also read where each command was found (pipeline stage, substitution, code
 * in a string) and what runs it (wrappers), so both describe a command from the same parse.
 */

/** A shell redirection as written. `dynamic`: the target is only known when the shell runs. */
export interface Redirect {
  op: string;
  /** The file (or descriptor); for here-documents and here-strings, the text fed to the command. */
  target: string;
  fd?: number;
  dynamic?: boolean;
}

/** A stage of a pipeline: commands with the same `id` are joined by pipes, in `stage` order. */
export interface PipeStage {
  id: number;
  stage: number;
}

/** How a command was found inside another one. */
export interface Within {
  /** In a `$(…)` or backquotes, in a `<(…)` or `>(…)`, or in code given as a string. */
  how: 'command-substitution' | 'process-substitution' | 'code';
  /**
   * Index in `visible` of the command (wrappers peeled off) in whose words or code this one was
   * found, or null when it was in no command's words (`X=$(…)`, `for f in $(…)`). A command is
   * only found inside another in an opaque line.
   */
  parent: number | null;
  /** The substitution is the parent's command name: its output runs as a command. */
  asProgram: boolean;
}

/** Code a shell or interpreter runs that is not a script file. */
export type RunsCode =
  /** `sh -c '…'`, `python -c '…'`: `word` is its index in argv, null when it is not known. */
  | { from: 'argument'; word: number | null }
  /** `curl … | sh`, `python -`, `bash <<EOF`. */
  | { from: 'input' };

export interface SimpleCommand {
  /** Words after quote removal; env assignments (`X=1 cmd`, `env X=1 cmd`) are in `env`. */
  argv: string[];
  env: Record<string, string>;
  redirects: Redirect[];
  /** The original source slice. */
  text: string;
  /**
   * Indices of argv tokens whose value is only known when the shell runs (parameter expansion,
   * unquoted glob or brace pattern). Such a token keeps its source text in argv. Allow matching
   * never accepts them in a compared position; deny/ask matching treats them as "might match".
   */
  dynamic: number[];
  /** When a transparent wrapper was removed (`env X=1 ls`, `time ls`, `nice ls`): its full argv. */
  unwrappedFrom?: string[];
  /** Wrappers this command runs under, outermost first (`sudo nice ls` → sudo, nice), normalised. */
  wrappers?: string[];
  /** A wrapper whose inner command follows it in the list (and names it in its `wrappers`). */
  wraps?: true;
  pipe?: PipeStage;
  within?: Within;
  runsCode?: RunsCode;
}

export type ShellAnalysis =
  | { kind: 'simple'; commands: SimpleCommand[] }
  | {
      kind: 'opaque';
      reasons: string[];
      /**
       * Every simple command that could be seen, including inside `$(…)`, `bash -c '…'`, `sudo …`,
       * control flow. Rules use it ONLY so that deny/ask rules can still match, never to allow;
       * the warnings read it to describe the command.
       */
      visible: SimpleCommand[];
      /**
       * The line was too long or too complex to analyse at all: nothing about it is known, so no
       * rule, grant or mode (not even bypassPermissions) allows it.
       */
      tooComplex?: true;
      /** Why some code nested in the line was not looked into: `visible` is incomplete. */
      partial?: string;
    };
