// The commands over what decides before a person is asked: grants and rules.
import { z } from 'zod';
import { command, Empty, Ok } from './contract-command';
import { Id } from './domain';
import { HistoryItem, QueryBool } from './history';
import { GrantSchema, RuleSchema } from './rules';

export const ruleCommands = {
  listGrants: command({
    input: z.object({ includeInactive: QueryBool.optional() }).strict(),
    output: z.array(
      z.object({ grant: GrantSchema, active: z.boolean(), revokeReason: z.string().nullable() }),
    ),
    http: { method: 'GET', path: '/api/grants' },
    summary: 'Remembered "always" decisions, newest first.',
  }),
  revokeGrant: command({
    input: z.object({ grantId: Id }).strict(),
    output: Ok,
    http: { method: 'DELETE', path: '/api/grants/:grantId' },
    summary: 'Revoke a grant; it stops applying at once.',
  }),
  listRules: command({
    input: Empty,
    output: z.array(RuleSchema),
    http: { method: 'GET', path: '/api/rules' },
    summary: 'The rules of settings.json, in order.',
  }),
  saveRule: command({
    input: z
      .object({
        ruleId: Id,
        rule: RuleSchema,
        /**
         * The person confirmed an allow rule that matches any request (no command or path narrows
         * it, or only wildcards do), as they confirm Bypass. Without it such a rule is refused.
         */
        confirmAllowAny: z.literal(true).optional(),
      })
      .strict(),
    output: z.array(RuleSchema),
    http: { method: 'PUT', path: '/api/rules/:ruleId' },
    summary:
      'Add or replace a rule (validated: a rule that can never match is refused; an allow rule that matches any request needs confirmAllowAny); saved in settings.',
  }),
  deleteRule: command({
    input: z.object({ ruleId: Id }).strict(),
    output: z.array(RuleSchema),
    http: { method: 'DELETE', path: '/api/rules/:ruleId' },
    summary: 'Remove a rule from settings.',
  }),
  previewRule: command({
    input: z
      .object({ rule: RuleSchema, limit: z.number().int().min(1).max(2000).default(500) })
      .strict(),
    output: z.object({
      /** What the rule allows when nothing narrows it ("every request from any agent in any
       * folder"): saving it needs the confirmation. null for any other rule. */
      allowsAny: z.string().max(2_000).nullable(),
      scanned: z.number().int(),
      matches: z.array(
        z.object({ item: HistoryItem, match: z.enum(['full', 'partial', 'maybe']) }),
      ),
    }),
    http: { method: 'POST', path: '/api/rules/preview' },
    summary: 'Which recent decided requests a rule would have matched.',
  }),
  suggestRules: command({
    input: Empty,
    output: z.array(z.object({ rule: RuleSchema, count: z.number().int(), message: z.string() })),
    http: { method: 'GET', path: '/api/rules/suggestions' },
    summary: 'Rules suggested by repeated decisions ("you approved npm test here 20 times").',
  }),
} as const;
