import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../shared/transcript';
import { toolState } from './tool-state';

type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;
const call = (status: ToolEntry['status'], decided?: ToolEntry['decided']): ToolEntry => ({
  id: 0,
  rev: 0,
  at: 0,
  kind: 'tool',
  toolCallId: 'c',
  toolKind: 'execute',
  title: 'npm test',
  status,
  locations: [],
  diffs: [],
  command: 'npm test',
  text: '',
  ...(decided ? { decided } : {}),
});

describe("a tool call's state in the transcript", () => {
  it('a refused call reads denied, whether the agent left it pending, failed or completed', () => {
    expect(toolState(call('pending', 'rejected'))).toBe('denied');
    expect(toolState(call('failed', 'rejected'))).toBe('denied');
    expect(toolState(call('completed', 'rejected'))).toBe('denied');
  });

  it('a cancelled request reads cancelled until the agent says the call ended', () => {
    expect(toolState(call('pending', 'cancelled'))).toBe('cancelled');
    expect(toolState(call('failed', 'cancelled'))).toBe('failed');
  });

  it("otherwise the agent's own status: an allowed call runs and completes", () => {
    expect(toolState(call('pending'))).toBe('pending');
    expect(toolState(call('in_progress', 'allowed'))).toBe('in_progress');
    expect(toolState(call('completed', 'allowed'))).toBe('completed');
  });
});
