import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { describe, expect, it, vi } from 'vitest';
import { REJECT_MESSAGE_META_KEY } from '../approvals/reject-message';
import { handOnWords, steeringOffered, withOwedWords, OWED_WORDS_MAX } from './reject-words';

const rejected = (words?: string): RequestPermissionResponse => ({
  outcome: {
    outcome: 'selected',
    optionId: 'no',
    ...(words ? { _meta: { [REJECT_MESSAGE_META_KEY]: words } } : {}),
  },
});

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a reject's words handed on", () => {
  it('without steering they lead the next prompt once, each on its own line', () => {
    const session = { owedWords: [] as string[], steers: false };
    const route = { steer: vi.fn(), shown: vi.fn() };
    handOnWords(session, rejected('use the test db'), route);
    handOnWords(session, rejected(), route);
    handOnWords(session, rejected('and not on Friday'), route);
    expect(route.steer).not.toHaveBeenCalled();
    expect(withOwedWords(session, 'go on')).toBe(
      'Rejected by the person: use the test db\nRejected by the person: and not on Friday\n\ngo on',
    );
    expect(withOwedWords(session, 'again')).toBe('again');
  });

  it('keeps the last few only', () => {
    const session = { owedWords: [] as string[], steers: false };
    const route = { steer: vi.fn(), shown: vi.fn() };
    for (let i = 0; i < OWED_WORDS_MAX + 3; i++) handOnWords(session, rejected(`w${i}`), route);
    expect(session.owedWords).toHaveLength(OWED_WORDS_MAX);
    expect(session.owedWords[0]).toBe('w3');
  });

  it('steered and injected: shown in the transcript, not owed', async () => {
    const session = { owedWords: [] as string[], steers: true };
    const route = { steer: vi.fn(async () => ({ outcome: 'injected' })), shown: vi.fn() };
    handOnWords(session, rejected('use the test db'), route);
    expect(route.steer).toHaveBeenCalledWith('Rejected by the person: use the test db');
    await settle();
    expect(route.shown).toHaveBeenCalledWith('Rejected by the person: use the test db');
    expect(session.owedWords).toEqual([]);
  });

  it.each([
    ['the turn is over', async () => ({ outcome: 'promptRequired' })],
    ['the agent refuses the steer', async () => Promise.reject(new Error('no'))],
  ])('steered but %s: owed to the next prompt, not shown', async (_what, steer) => {
    const session = { owedWords: [] as string[], steers: true };
    const route = { steer: vi.fn(steer), shown: vi.fn() };
    handOnWords(session, rejected('use the test db'), route);
    await settle();
    expect(route.shown).not.toHaveBeenCalled();
    expect(session.owedWords).toEqual(['use the test db']);
  });

  it('steering is offered only as the extension says it', () => {
    expect(steeringOffered({ _meta: { steering: { supported: true } } })).toBe(true);
    expect(steeringOffered({ _meta: { steering: { supported: 'yes' } } })).toBe(false);
    expect(steeringOffered({ _meta: null })).toBe(false);
    expect(steeringOffered({})).toBe(false);
  });
});
