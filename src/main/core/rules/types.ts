/**
 * Shapes of the rules layer: zod schemas for everything that crosses a trust boundary
 * (settings file, IPC, SQLite rows), plain types for what only this module builds.
 *
 * Times are epoch milliseconds everywhere (rules, grants, `now`): one unit, no parsing in the
 * hot path, and SQLite stores them as integers.
 */
import { z } from 'zod';

/** ACP `ToolKind` values (schema.json of the protocol). */
export const TOOL_KINDS = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
] as const;
export const ToolKindSchema = z.enum(TOOL_KINDS);
export type ToolKind = z.infer<typeof ToolKindSchema>;

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const;
export const PermissionModeSchema = z.enum(PERMISSION_MODES);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

export const RuleActionSchema = z.enum(['allow', 'ask', 'deny']);
export type RuleAction = z.infer<typeof RuleActionSchema>;

export const RuleSourceSchema = z.enum(['settings', 'ui', 'history']);
export type RuleSource = z.infer<typeof RuleSourceSchema>;

/**
 * One rule. Strict object: a typo such as `comand` in the settings file is an error, not a rule
 * that silently matches everything.
 *
 * - `command`: a pattern for ONE simple command, matched token-wise against every simple command
 *   of a shell line. Tokens are separated by blanks; `'…'` / `"…"` / `\x` quote like the shell; an
 *   unquoted `*` inside a token matches any characters within that token (`test:*`).
 * - `commandMatch`: 'prefix' (default: `git status` matches `git status -s`) or 'exact' (the argv
 *   must have exactly the pattern's tokens; used by history suggestions so they are never wider
 *   than what was seen).
 * - `path`: a picomatch glob. Relative globs are relative to the session folder, absolute globs
 *   (or `~/…`) match absolute paths.
 * - `project`: absolute project root; the rule applies only to requests from that project.
 *   (Not in the original brief; history suggestions need it to stay "in this project".)
 */
export const RuleSchema = z.strictObject({
  id: z.string().min(1, 'id must not be empty'),
  action: RuleActionSchema,
  agent: z.string().min(1, 'agent must not be empty').optional(),
  project: z.string().min(1, 'project must not be empty').optional(),
  toolKind: z.union([ToolKindSchema, z.array(ToolKindSchema)]).optional(),
  path: z.string().optional(),
  command: z.string().optional(),
  commandMatch: z.enum(['prefix', 'exact']).optional(),
  reason: z.string().optional(),
  createdAt: z.number().int().nonnegative().optional(),
  source: RuleSourceSchema.optional(),
});
export type Rule = z.infer<typeof RuleSchema>;

export const GrantScopeSchema = z.enum(['once', 'session', 'project', 'agent']);
export type GrantScope = z.infer<typeof GrantScopeSchema>;

/**
 * One remembered simple command. `argv` holds the tokens as shown (dynamic tokens keep their
 * source text, e.g. `$HOME`, and are listed in `dynamic`); `env` and `writes` (output-redirect
 * targets as written) must match exactly too, so a grant never covers more than was shown.
 */
export const GrantCommandSchema = z.strictObject({
  argv: z.array(z.string()).min(1),
  env: z.record(z.string(), z.string()),
  writes: z.array(z.string()),
  dynamic: z.array(z.number().int().nonnegative()),
  match: z.enum(['exact', 'prefix']),
});
export type GrantCommand = z.infer<typeof GrantCommandSchema>;

/**
 * A remembered decision ("allow once / for this session / in this project / always for this
 * agent"). Exactly one of `commands` (execute) or `paths` (exact resolved real paths) is set.
 */
export const GrantSchema = z
  .strictObject({
    id: z.string().min(1),
    agentId: z.string().min(1),
    scope: GrantScopeSchema,
    sessionId: z.string().min(1).optional(),
    projectRoot: z.string().min(1).optional(),
    toolKind: ToolKindSchema,
    commands: z.array(GrantCommandSchema).min(1).optional(),
    paths: z.array(z.string().min(1)).min(1).optional(),
    createdAt: z.number().int().nonnegative(),
    expiresAt: z.number().int().nonnegative().optional(),
    revokedAt: z.number().int().nonnegative().optional(),
  })
  .refine((g) => (g.commands === undefined) !== (g.paths === undefined), {
    message: 'a grant holds either commands or paths',
  })
  .refine((g) => g.scope !== 'session' || g.sessionId !== undefined, {
    message: 'a session grant needs sessionId',
  })
  .refine((g) => g.scope !== 'project' || g.projectRoot !== undefined, {
    message: 'a project grant needs projectRoot',
  });
export type Grant = z.infer<typeof GrantSchema>;

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
