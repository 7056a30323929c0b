// What a command would change, seen by running it once in a throwaway copy-on-write view of the
// session before anyone allows it: the one model of a command's effects, shared by the core (which
// runs and audits it), the rules (which may require it) and every surface that shows it.
import { z } from 'zod';
import { PreparedDiff, Warning } from './findings';

export const PREVIEW_LIMITS = {
  /** Changes listed one by one; past this a count and the first ones, the rest collapsed. */
  changes: 200,
  /** Text diffs carried, of the changed files (the diff view shows them). */
  diffs: 20,
  hosts: 20,
  host: 255,
  /** The last of what the command printed. */
  output: 4_000,
  path: 4_096,
  reason: 500,
  /** "changes 3 files, deletes 1, tried api.example.com" */
  summary: 200,
  /** A preview that deletes more than this many files raises the request's urgency. */
  urgentDeletes: 20,
} as const;

/** Default bound of one preview run; `preview.timeoutSeconds` in the settings. */
export const DEFAULT_PREVIEW_TIMEOUT_SECONDS = 10;
export const MAX_PREVIEW_TIMEOUT_SECONDS = 120;

export const PreviewChange = z.object({
  path: z.string().max(PREVIEW_LIMITS.path),
  /** Where a renamed entry was before. */
  oldPath: z.string().max(PREVIEW_LIMITS.path).nullable(),
  change: z.enum(['created', 'modified', 'deleted', 'renamed']),
  entry: z.enum(['file', 'folder', 'link', 'other']),
  /** Bytes after the change, for files. */
  size: z.number().int().nonnegative().nullable(),
  /** Where it lands: a writable root, outside every writable root, or a protected file inside one. */
  place: z.enum(['root', 'outside', 'protected']),
});
export type PreviewChange = z.infer<typeof PreviewChange>;

export const PreviewCounts = z.object({
  created: z.number().int().nonnegative(),
  modified: z.number().int().nonnegative(),
  deleted: z.number().int().nonnegative(),
  renamed: z.number().int().nonnegative(),
  outside: z.number().int().nonnegative(),
  protected: z.number().int().nonnegative(),
});
export type PreviewCounts = z.infer<typeof PreviewCounts>;

/**
 * - `running`: started; the request is shown meanwhile and the countdown does not wait for it.
 * - `done`: the command ran to its end in the scratch view (whatever its exit code).
 * - `incomplete`: it ran but was cut short — `reason` says by what (`network`: it needed the
 *   network, which a preview never has; `time`: still running at the bound; `limits`: it hit the
 *   memory, file-size, disk or process bound).
 * - `not_previewed`: Gatehouse did not run it — `reason` says why (`title_only`: the command is only
 *   the agent's title; `off`: off for this agent or in the settings; `rule_decided`).
 * - `unavailable`: this system cannot make a scratch view (no unprivileged user namespaces or
 *   overlays); never a run for real.
 */
export const PreviewState = z.enum([
  'running',
  'done',
  'incomplete',
  'not_previewed',
  'unavailable',
]);
export type PreviewState = z.infer<typeof PreviewState>;

export const PreviewReason = z.enum([
  'network',
  'time',
  'limits',
  'title_only',
  'off',
  'rule_decided',
  'system',
]);
export type PreviewReason = z.infer<typeof PreviewReason>;

export const CommandPreview = z.object({
  state: PreviewState,
  reason: PreviewReason.nullable(),
  /** A sentence for `unavailable` and `incomplete` (what the system refused, which bound). */
  detail: z.string().max(PREVIEW_LIMITS.reason).nullable(),
  /** The first PREVIEW_LIMITS.changes changes; `counts` counts them all. */
  changes: z.array(PreviewChange).max(PREVIEW_LIMITS.changes),
  counts: PreviewCounts,
  /** Text diffs of changed files, in the dialog's diff view (binary files: sizes in `changes`). */
  diffs: z.array(PreparedDiff).max(PREVIEW_LIMITS.diffs),
  /** Hosts it tried to reach; every one was blocked. */
  hosts: z.array(z.string().max(PREVIEW_LIMITS.host)).max(PREVIEW_LIMITS.hosts),
  /** Writes outside the writable roots or into protected files, deletes past the bound: danger. */
  warnings: z.array(Warning).max(10),
  exitCode: z.number().int().nullable(),
  output: z.string().max(PREVIEW_LIMITS.output),
  durationMs: z.number().int().nonnegative(),
  timeoutMs: z.number().int().nonnegative(),
});
export type CommandPreview = z.infer<typeof CommandPreview>;

export const NO_COUNTS: PreviewCounts = {
  created: 0,
  modified: 0,
  deleted: 0,
  renamed: 0,
  outside: 0,
  protected: 0,
};

/** A preview that was not run, or has not finished: nothing listed yet. */
export function emptyPreview(
  state: PreviewState,
  reason: PreviewReason | null,
  timeoutMs: number,
  detail: string | null = null,
): CommandPreview {
  return {
    state,
    reason,
    detail,
    changes: [],
    counts: NO_COUNTS,
    diffs: [],
    hosts: [],
    warnings: [],
    exitCode: null,
    output: '',
    durationMs: 0,
    timeoutMs,
  };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * One line for a notification's body and the queue's row: "changes 3 files, deletes 1, tried
 * api.example.com". Empty for a preview that says nothing yet.
 */
export function previewSummary(preview: CommandPreview): string {
  if (preview.state === 'running') return 'previewing…';
  if (preview.state === 'not_previewed' || preview.state === 'unavailable') return '';
  const { counts } = preview;
  const parts: string[] = [];
  const changed = counts.created + counts.modified + counts.renamed;
  if (changed > 0) parts.push(`changes ${plural(changed, 'file')}`);
  if (counts.deleted > 0) parts.push(`deletes ${counts.deleted}`);
  if (counts.outside > 0) parts.push(`${counts.outside} outside the project`);
  if (counts.protected > 0) parts.push(`${plural(counts.protected, 'protected file')}`);
  if (preview.hosts.length > 0) {
    const more = preview.hosts.length > 1 ? ` +${preview.hosts.length - 1}` : '';
    parts.push(`tried ${preview.hosts[0]}${more}`);
  }
  if (parts.length === 0) parts.push('no changes');
  if (preview.state === 'incomplete') parts.push(`incomplete (${preview.reason ?? 'cut short'})`);
  const line = parts.join(', ');
  return line.length <= PREVIEW_LIMITS.summary
    ? line
    : `${line.slice(0, PREVIEW_LIMITS.summary - 1)}…`;
}

/** Raises the request's urgency: a write outside the roots or into a protected file, or many deletes. */
export function previewIsUrgent(preview: CommandPreview): boolean {
  const { counts } = preview;
  return (
    counts.outside > 0 || counts.protected > 0 || counts.deleted > PREVIEW_LIMITS.urgentDeletes
  );
}
