import { z } from 'zod';
import { PermissionOption } from '../../../shared/domain';

/**
 * `session/request_permission` params as Gatehouse accepts them. Stricter than the protocol where
 * safety depends on it: option kinds must be known (replies are chosen by kind) and option ids
 * unique (a vote must name exactly one option). Tool kinds stay open: a newer agent's kind is shown
 * as 'other' rather than refused.
 */
export const AcpPermissionRequest = z.object({
  sessionId: z.string().min(1).max(500),
  toolCall: z.looseObject({
    toolCallId: z.string().min(1).max(500),
    kind: z.string().max(100).nullish(),
    title: z.string().nullish(),
    locations: z
      .array(z.looseObject({ path: z.string(), line: z.number().int().nullish() }))
      .nullish(),
    content: z.array(z.looseObject({ type: z.string() })).nullish(),
    rawInput: z.unknown().optional(),
  }),
  options: z
    .array(PermissionOption)
    .min(1, 'a permission request must offer at least one option')
    .max(20)
    .refine((options) => new Set(options.map((o) => o.optionId)).size === options.length, {
      message: 'option ids must be unique',
    }),
});
export type AcpPermissionRequest = z.infer<typeof AcpPermissionRequest>;
