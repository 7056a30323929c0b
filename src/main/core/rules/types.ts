/**
 * Shapes of the rules layer: zod schemas for everything that crosses a trust boundary
 * (settings file, IPC, SQLite rows), plain types for what only this module builds.
 *
 * Times are epoch milliseconds everywhere (rules, grants, `now`): one unit, no parsing in the
 * hot path, and SQLite stores them as integers.
 */
import { z } from 'zod';
import {
  ToolKindSchema,
  type Grant,
  type PermissionMode,
  type Rule,
  type ToolKind,
} from '../../../shared/rules';
import type { ShellAnalysis } from './shell/types';

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
  /** Paths the request named beyond those the rules judge (see `paths`). */
  pathsDropped: z.number().int().positive().optional(),
  /** Raw shell text as the agent will run it. */
  command: z.string().optional(),
  /** What the command changed in its preview, for rules that require one (`whenPreviewChangesOnly`). */
  preview: z
    .strictObject({
      /** Finished, not cut short, and every change listed in `changed`. */
      complete: z.boolean(),
      /** It wrote outside the writable roots or into a protected file. */
      beyondRoots: z.boolean(),
      /** Absolute paths of everything it created, modified, deleted or renamed (both ends). */
      changed: z.array(z.string()),
    })
    .optional(),
});
export type RequestFacts = z.infer<typeof RequestFactsSchema>;

export interface EvaluationState {
  /** Effective mode (see resolveMode); undefined means 'default'. */
  mode?: PermissionMode | undefined;
  rules: readonly Rule[];
  /** The managed policy's rules: judged first and alone, and allow like the user's rules after. */
  managed?: readonly Rule[] | undefined;
  grants: readonly Grant[];
  now: number;
}

export type Verdict = 'allow' | 'deny' | 'ask';

export type DecidedBy =
  | { type: 'rule'; ruleId: string }
  | { type: 'grant'; grantId: string }
  | { type: 'mode'; mode: PermissionMode }
  | { type: 'default' };

// The shell model lives with its parser; the rules and the safety warnings both read it.
export type { Redirect, ShellAnalysis, SimpleCommand } from './shell/types';

export interface Evaluation {
  verdict: Verdict;
  decidedBy: DecidedBy;
  reason: string;
  analysis?: ShellAnalysis;
  /** For an allow covered by several sources (compound command, several paths): each of them. */
  deciders?: DecidedBy[];
  /** A deny or ask of the managed rules alone: no user rule, grant or mode can lift it. */
  managed?: true;
  /** An ask for a write to a protected file: no mode, grant or user rule could allow it. */
  protectedWrite?: true;
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
