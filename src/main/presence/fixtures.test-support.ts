// Pending approvals built the way the pipeline builds them (real safety layer), for presence tests.
import { randomUUID } from 'node:crypto';
import type { GatehouseEvent } from '../../shared/contract';
import type { PendingApproval, PermissionOption } from '../../shared/domain';
import type { PendingQuestion } from '../../shared/question';
import { QUESTION_OPTIONS } from '../core/approvals/questions';
import { computeWarnings, extractCommand, normalizeToolCall, prepareDiffs } from '../core/safety';
import { initShellParser } from '../core/rules';

// The warnings read the shell analysis, whose parser loads once, asynchronously.
await initShellParser();

export const CWD = '/home/dev/project';

export const OPTIONS: PermissionOption[] = [
  { optionId: 'proceed_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];

export function approval(
  rawToolCall: Record<string, unknown>,
  extra: Partial<PendingApproval> = {},
): PendingApproval {
  const toolCall = normalizeToolCall({ toolCallId: 't1', ...rawToolCall });
  const command = extractCommand(toolCall, CWD);
  const diffs = prepareDiffs(toolCall);
  return {
    requestId: randomUUID(),
    sessionId: 'session-1',
    agentId: 'claude',
    agentName: 'Claude Code',
    cwd: CWD,
    toolCall,
    options: OPTIONS,
    policy: 'first-responder',
    issuedAt: 1_000,
    expiresAt: 301_000,
    warnings: computeWarnings({ toolCall, command, diffs, sessionCwd: CWD, homeDir: '/home/dev' }),
    diffs,
    command,
    tally: null,
    ...extra,
  };
}

/** An agent's question as the pipeline queues it, with its two answers as the options. */
export const question = (title: string, asked: PendingQuestion) =>
  approval({ kind: 'other', title }, { options: [...QUESTION_OPTIONS], question: asked });

export const bash = (command: string, extra: Partial<PendingApproval> = {}) =>
  approval({ kind: 'execute', title: command, rawInput: { command } }, extra);

export const edit = (
  path: string,
  newText = 'x\n',
  oldText: string | null = null,
  extra: Partial<PendingApproval> = {},
) =>
  approval(
    {
      kind: 'edit',
      title: `Write ${path}`,
      locations: [{ path }],
      content: [{ type: 'diff', path, oldText, newText }],
    },
    extra,
  );

export const requested = (a: PendingApproval): GatehouseEvent => ({
  type: 'permission_requested',
  approval: a,
});

export const resolved = (a: PendingApproval, optionId = 'proceed_once'): GatehouseEvent => ({
  type: 'permission_resolved',
  requestId: a.requestId,
  sessionId: a.sessionId,
  reply: { outcome: 'selected', optionId, optionKind: 'allow_once' },
  decider: { type: 'person', clientId: 'desktop', surface: 'dialog' },
  reason: 'first-responder',
});
