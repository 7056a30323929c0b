// The words a person may send with a reject ("use the test database instead"): what the text box
// holds, for which request, and what a vote carries. The box belongs to one request: words typed
// for a request that was then decided elsewhere are never sent with the next one.
import { REJECT_MESSAGE_MAX } from '../../../shared/contract';
import type { PermissionOption } from '../../../shared/domain';

/** The counter appears this close to the limit (a short reason needs no count). */
export const REASON_COUNTER_FROM = REJECT_MESSAGE_MAX - 200;

export interface ReasonBox {
  /** The request the box was opened for. */
  requestId: string;
  text: string;
}

/** The box is open on the request on screen (not one that left while the person typed). */
export const reasonFor = (box: ReasonBox | null, requestId: string): ReasonBox | null =>
  box && box.requestId === requestId ? box : null;

/**
 * What a vote for `option` carries: the box's words, trimmed, only with a reject option and only
 * when the box was opened for this request; nothing for empty words.
 */
export function reasonToSend(
  box: ReasonBox | null,
  requestId: string,
  option: Pick<PermissionOption, 'kind'>,
): string | undefined {
  if (!option.kind.startsWith('reject')) return undefined;
  const text = reasonFor(box, requestId)?.text.trim() ?? '';
  return text === '' ? undefined : text.slice(0, REJECT_MESSAGE_MAX);
}

/** "1,850 / 2,000" near the limit; null before it. */
export function reasonCounter(text: string): string | null {
  if (text.length < REASON_COUNTER_FROM) return null;
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(text.length)} / ${n(REJECT_MESSAGE_MAX)}`;
}
