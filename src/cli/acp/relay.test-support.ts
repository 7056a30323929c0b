// A relay with a recording link and recording ends, for the relay's tests.
import { vi } from 'vitest';
import type { Submitted } from './core-link';
import { AcpRelay } from './relay';

export function relayWith(
  submit: () => Promise<Submitted>,
  check = vi.fn(async () => ({ allowed: true as const })),
) {
  const toAgent: string[] = [];
  const toEditor: string[] = [];
  /** Exactly what reached each side, bytes as written. */
  const agentBytes: Buffer[] = [];
  const editorBytes: Buffer[] = [];
  const logs: string[] = [];
  const link = {
    editor: 'editor',
    opened: vi.fn(),
    closed: vi.fn(),
    update: vi.fn(),
    turn: vi.fn(),
    cancel: vi.fn(),
    dropped: vi.fn(),
    submit: vi.fn(submit),
    check,
  };
  // Lines go in as the bytes the streams carry and come out without their newline, to compare.
  const line = (data: Buffer | string) => String(data).replace(/\n$/, '');
  const inner = new AcpRelay(link, {
    toAgent: (l) => {
      agentBytes.push(Buffer.from(l));
      toAgent.push(line(l));
    },
    toEditor: (l) => {
      editorBytes.push(Buffer.from(l));
      toEditor.push(line(l));
    },
    log: (l) => logs.push(l),
  });
  const relay = {
    fromAgent: (text: string) => inner.fromAgent(Buffer.from(`${text}\n`)),
    fromEditor: (text: string) => inner.fromEditor(Buffer.from(`${text}\n`)),
  };
  return { relay, inner, link, toAgent, toEditor, agentBytes, editorBytes, logs };
}

export const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
