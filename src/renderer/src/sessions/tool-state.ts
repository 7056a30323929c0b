import type { TranscriptEntry } from '../../../shared/transcript';

type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;
export type ToolState = ToolEntry['status'] | 'denied' | 'cancelled';

/**
 * What became of a tool call. A refused call reads denied whatever the agent says of it: an agent
 * may leave it pending for good (Gemini CLI does), or call it completed, and what it was allowed is
 * Gatehouse's answer. A cancelled request reads cancelled until the agent says the call ended.
 */
export function toolState(entry: ToolEntry): ToolState {
  if (entry.decided === 'rejected') return 'denied';
  const ended = entry.status === 'completed' || entry.status === 'failed';
  if (entry.decided === 'cancelled' && !ended) return 'cancelled';
  return entry.status;
}

export const TOOL_STATE_WORDS: Record<ToolState, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
  failed: 'failed',
  denied: 'denied',
  cancelled: 'cancelled',
};
