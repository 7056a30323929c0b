/**
 * Shapes of the rules layer: zod schemas for everything that crosses a trust boundary
 * (settings file, IPC, SQLite rows), plain types for what only this module builds.
 *
 * Times are epoch milliseconds everywhere (rules, grants, `now`): one unit, no parsing in the
 * hot path, and SQLite stores them as integers.
 */
import { z } from 'zod';
import { ToolKindSchema, type Grant, type PermissionMode, type Rule, type ToolKind } from '../../../shared/rules';

// Rules and grants themselves are shared with the renderer.
export * from '../../../shared/rules';

/** What the mediator knows about one permission request, reduced to what rules look at. */
export const RequestFactsSchema = z.strictObject({
  agentId: z.string().min(1),
  sessionId: z.string().min(1),
  sessionCwd: z.string().min(1),
  projectRoot: z.string().min(1).optional(),
  toolKind: ToolKindSchema.optional(),
  /** Absolute, or relative to sessionCwd. */
  paths: z.array(z.string()).optional(),
  /** Raw shell text as the agent will run it. */
  command: z.string().optional(),
});
export type RequestFacts = z.infer<typeof RequestFactsSchema>;

export interface EvaluationState {
  /** Effective mode (see resolveMode); undefined means 'default'. */
  mode?: PermissionMode | undefined;
  rules: readonly Rule[];
  grants: readonly Grant[];
  now: number;
}

export type Verdict = 'allow' | 'deny' | 'ask';

export type DecidedBy =
  | { type: 'rule'; ruleId: string }
  | { type: 'grant'; grantId: string }
  | { type: 'mode'; mode: PermissionMode }
  | { type: 'default' };

/** A shell redirection as written. `dynamic`: the target is only known when the shell runs. */
export interface Redirect {
  op: string;
  target: string;
  fd?: number;
  dynamic?: boolean;
}

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
}

export type ShellAnalysis =
  | { kind: 'simple'; commands: SimpleCommand[] }
  | {
      kind: 'opaque';
      reasons: string[];
      /**
       * Every simple command that could be seen, including inside `$(…)`, `bash -c '…'`, `sudo …`,
       * control flow. Used ONLY so that deny/ask rules can still match; never for allowing.
       */
      visible: SimpleCommand[];
      /**
       * The line was too long or too complex to analyse at all: nothing about it is known, so no
       * rule, grant or mode (not even bypassPermissions) allows it.
       */
      tooComplex?: true;
    };

export interface Evaluation {
  verdict: Verdict;
  decidedBy: DecidedBy;
  reason: string;
  analysis?: ShellAnalysis;
  /** For an allow covered by several sources (compound command, several paths): each of them. */
  deciders?: DecidedBy[];
}

/** One past decision, as the history stores it (input of suggestRules). */
export interface HistoryEntry {
  agentId: string;
  projectRoot?: string | undefined;
  /** Used to resolve relative paths; falls back to projectRoot. */
  sessionCwd?: string | undefined;
  toolKind?: ToolKind | undefined;
  command?: string | undefined;
  paths: readonly string[];
  decision: 'allow' | 'deny';
  /** Only 'person' decisions count towards suggestions. */
  decidedBy: string;
}
