// What a browser notification says of a waiting request: built from the same summary as the queue
// and the dialog, leading with what will run or be touched, never with the agent's own description
// alone. The agent's title is shown as its words, and every field has its line breaks and
// invisible characters revealed (a title cannot pose as a second line or reorder itself), bounded.
import { clip } from '../../../shared/approval-summary';
import type { PendingSummary } from '../../../shared/domain';
import { revealInvisibles } from '../../../shared/invisible';
import { KIND_VERB } from '../approvals/KindBadge';
import { approveOption, denyOption, hasDanger } from '../approvals/queue-order';

const LINE = 120;

/** One line of untrusted text, safe to show: breaks and hidden characters made visible, bounded. */
export function safeLine(text: string, max = LINE): string {
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const flat = revealInvisibles(head.replace(/\r\n|\n/g, ' ⏎ ').replace(/\t/g, ' '), {
    lineBreaks: 'reveal',
  });
  return clip(flat, max);
}

export type NotificationAction = 'allow' | 'deny';

export interface NotificationText {
  title: string;
  body: string;
  /** Allow once is offered only where the dialog would not put Deny first (no danger flagged). */
  actions: { action: NotificationAction; title: string }[];
}

export function notificationText(a: PendingSummary): NotificationText {
  // A question is answered in its dialog (a form, or a link the person opens): no buttons here.
  if (a.question)
    return {
      title: `${safeLine(a.agentName, 40)} asks: ${safeLine(a.title, 80)}`,
      body: a.question.host
        ? `A link to ${safeLine(a.question.host, 80)} — open Gatehouse to answer`
        : 'A question — open Gatehouse to answer',
      actions: [],
    };
  const lines: string[] = [];
  if (a.command !== null) lines.push(`$ ${safeLine(a.command)}`);
  else if (a.paths.length > 0) {
    const more = a.pathCount > 1 ? ` (+${a.pathCount - 1} more)` : '';
    lines.push(`${safeLine(a.paths[0]!)}${more}`);
  }
  if (a.effects) lines.push(`Preview: ${safeLine(a.effects)}`);
  lines.push(`The agent calls it: “${safeLine(a.title, 80)}”`);
  const danger = hasDanger(a);
  if (a.warnings.length > 0)
    lines.push(
      `${danger ? 'Danger' : 'Caution'}: ${a.warnings.length} warning${a.warnings.length === 1 ? '' : 's'} — open Gatehouse to review`,
    );
  const actions: NotificationText['actions'] = [];
  if (!danger && approveOption(a)) actions.push({ action: 'allow', title: 'Allow once' });
  if (denyOption(a)) actions.push({ action: 'deny', title: 'Deny' });
  return {
    title: `${safeLine(a.agentName, 40)} asks to ${KIND_VERB[a.kind]}`,
    body: lines.join('\n'),
    actions,
  };
}
