// What the safety layer finds in a request and how a change is shown: shared by the request itself
// and by a command's preview.
import { z } from 'zod';

export const WarningCode = z.enum([
  'title_mismatch',
  'bidi_control',
  'zero_width',
  'ansi_escape',
  'download_exec',
  'secret_path',
  'outside_session',
  'too_complex',
  'lookalike',
  'disk_differs',
  'link_target',
  'protected_file',
  /** A preview's effects: writes outside the writable roots, into protected files, many deletes. */
  'effect_outside',
  'effect_protected',
  'effect_mass_delete',
]);
export type WarningCode = z.infer<typeof WarningCode>;

export const Warning = z.object({
  code: WarningCode,
  severity: z.enum(['caution', 'danger']),
  /** What is wrong, in one sentence a person can act on. */
  message: z.string(),
  /** Where it was found: 'title', 'command', 'path', 'diff:<path>', 'rawInput.<key>'. */
  where: z.string(),
});
export type Warning = z.infer<typeof Warning>;

/** A file change prepared for display: classified, size-limited, binary-detected. */
export const PreparedDiff = z.object({
  path: z.string(),
  oldPath: z.string().nullable(),
  change: z.enum(['create', 'modify', 'delete', 'move']),
  binary: z.boolean(),
  oldText: z.string().nullable(),
  newText: z.string().nullable(),
  truncated: z.boolean(),
  oldBytes: z.number().int().nonnegative(),
  newBytes: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
  /** sha-256 of old and new text, so the full content can be fetched or verified later. */
  hash: z.string(),
});
export type PreparedDiff = z.infer<typeof PreparedDiff>;
