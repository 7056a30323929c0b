// Rules and grants as they cross every boundary (settings file, IPC, HTTP, SQLite), shared by the
// core's rules layer and the renderer's settings and history views.
// Times are epoch milliseconds everywhere: one unit, no parsing in the hot path.
import { z } from 'zod';
import { PermissionMode, ToolKind } from './domain';

// The rules layer's names for the shared domain enums.
export const ToolKindSchema = ToolKind;
export const TOOL_KINDS = ToolKind.options;
export type { ToolKind, PermissionMode };
export const PERMISSION_MODES = PermissionMode.options;

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
 * - `project`: absolute project root; the rule applies only to requests from that project (so a
 *   rule suggested from past decisions stays "in this project").
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
  /**
   * An allow that holds only once the command's preview finished and every change it made lies
   * under one of these paths (relative to the session folder; `[]`: it changes nothing). Until the
   * preview is done, or when it changes anything else, the request is asked as if no rule matched.
   */
  whenPreviewChangesOnly: z.array(z.string().min(1).max(1_024)).max(32).optional(),
  createdAt: z.number().int().nonnegative().optional(),
  source: RuleSourceSchema.optional(),
});
export type Rule = z.infer<typeof RuleSchema>;

/**
 * The rules a new settings file starts with: written into it, listed in Settings, edited and
 * removed like any other (a file that exists keeps exactly the rules it lists). Reads and searches
 * inside the project are allowed, so that a person is asked about what changes things; a relative
 * glob matches nothing outside the session folder, and an allow glob reaches a dot-file (`.env`,
 * `.git/…`) only when it names it.
 */
export const DEFAULT_RULES: readonly Rule[] = [
  {
    id: 'read-project',
    action: 'allow',
    toolKind: ['read', 'search'],
    path: '**',
    reason: 'Reads inside the project',
  },
];

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
