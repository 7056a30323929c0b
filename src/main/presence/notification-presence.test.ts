import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VoteInput, VoteOutcome } from '../../shared/contract';
import type { PendingApproval } from '../../shared/domain';
import type { Caller } from '../core/approvals/clients';
import type { Handlers } from '../core/commands/dispatch';
import { EventBus } from '../core/events/bus';
import { GROUP_KEY, type NotificationModel } from './notification-plan';
import {
  NotificationPresence,
  type Notifier,
  type NotifierListener,
} from './notification-presence';
import { bash, requested, resolved } from './fixtures.test-support';

/** A notifier that records calls; `listener` lets a test press buttons. */
class FakeNotifier implements Notifier {
  readonly supportsActions = true;
  listener!: NotifierListener;
  calls: string[] = [];
  shown = new Map<string, NotificationModel>();
  setListener(listener: NotifierListener) {
    this.listener = listener;
  }
  async show(n: NotificationModel, o: { silent: boolean }) {
    await Promise.resolve();
    this.calls.push(`${o.silent ? 'update' : 'show'}:${n.key}`);
    this.shown.set(n.key, n);
  }
  async withdraw(key: string) {
    this.calls.push(`withdraw:${key}`);
    this.shown.delete(key);
  }
  close() {
    this.calls.push('close');
  }
}

function setup(options: { batchWindowMs?: number } = {}) {
  const bus = new EventBus();
  // What the pipeline lists as waiting; the presence reads it once, at start.
  const waiting: PendingApproval[] = [];
  const pending = { list: () => [...waiting] };
  const votes: Array<{ input: VoteInput; caller: Caller }> = [];
  const handlers = {
    vote: (input: VoteInput, caller: Caller): VoteOutcome => {
      votes.push({ input, caller });
      return { kind: 'resolved', resolvedOptionId: 'optionId' in input ? input.optionId : null };
    },
  } as unknown as Handlers;
  const notifier = new FakeNotifier();
  const opened: Array<string | null> = [];
  const presence = new NotificationPresence({
    core: { bus, handlers, pipeline: { pending } },
    notifier,
    batchWindowMs: options.batchWindowMs ?? 0,
    onOpen: (id) => opened.push(id),
    log: () => undefined,
  });
  return { bus, waiting, votes, notifier, opened, presence };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('NotificationPresence', () => {
  it('a button press is a vote from the notification surface, by the desktop client, through dispatch', async () => {
    const { bus, votes, notifier, presence } = setup();
    presence.start();
    const a = bash('rm -rf build');
    bus.publish(requested(a));
    await presence.idle();
    expect(notifier.calls).toEqual([`show:${a.requestId}`]);

    notifier.listener.activated(a.requestId, 'allow_always');
    await vi.waitFor(() => expect(votes).toHaveLength(1));
    expect(votes[0]!.input).toEqual({
      requestId: a.requestId,
      optionId: 'proceed_always',
      grant: { scope: 'session' },
    });
    expect(votes[0]!.caller).toEqual({
      clientId: 'desktop',
      identityProven: true,
      paired: true,
      fromLoopback: true,
      surface: 'notification',
      transport: 'internal',
    });
    // The pressed notification is taken off the screen at once, and only once.
    bus.publish(resolved(a, 'proceed_always'));
    await presence.idle();
    expect(notifier.calls).toEqual([`show:${a.requestId}`, `withdraw:${a.requestId}`]);
  });

  it('a decision taken elsewhere withdraws the notification', async () => {
    const { bus, notifier, presence } = setup();
    presence.start();
    const a = bash('ls');
    bus.publish(requested(a));
    bus.publish(resolved(a));
    await presence.idle();
    // Same batch window of 0: shown, then withdrawn, in that order.
    expect(notifier.calls).toEqual([`show:${a.requestId}`, `withdraw:${a.requestId}`]);
  });

  it('requests arriving within the batch window are grouped', async () => {
    vi.useFakeTimers();
    const { bus, notifier, presence, opened } = setup({ batchWindowMs: 200 });
    presence.start();
    const burst = ['a', 'b', 'c', 'd', 'e'].map((c) => bash(c));
    for (const a of burst) bus.publish(requested(a));
    expect(notifier.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(250);
    expect(notifier.calls).toEqual([`show:${GROUP_KEY}`]);
    expect(notifier.shown.get(GROUP_KEY)?.title).toBe('5 permission requests from Claude Code');
    notifier.listener.activated(GROUP_KEY, 'default');
    await vi.waitFor(() => expect(opened).toEqual([null]));
    bus.publish(resolved(burst[0]!));
    await presence.idle();
    // The pressed group is withdrawn too: nothing left to update.
    expect(notifier.calls).toEqual([`show:${GROUP_KEY}`, `withdraw:${GROUP_KEY}`]);
  });

  it('the body click opens the dialog on its request; a dismissed notification is not withdrawn later', async () => {
    const { bus, notifier, presence, opened, votes } = setup();
    presence.start();
    const a = bash('a');
    const b = bash('b');
    bus.publish(requested(a));
    bus.publish(requested(b));
    await presence.idle();
    notifier.listener.activated(a.requestId, 'default');
    await vi.waitFor(() => expect(opened).toEqual([a.requestId]));
    notifier.listener.closed(b.requestId, 'dismissed');
    bus.publish(resolved(a));
    bus.publish(resolved(b));
    await presence.idle();
    expect(notifier.calls).toEqual([
      `show:${a.requestId}`,
      `show:${b.requestId}`,
      `withdraw:${a.requestId}`,
    ]);
    expect(votes).toEqual([]);
  });

  it('shows requests already pending at start, holds new ones while paused, and withdraws everything on close', async () => {
    const { bus, waiting, notifier, presence } = setup();
    const early = bash('early');
    waiting.push(early);
    presence.start();
    await presence.idle();
    expect(notifier.calls).toEqual([`show:${early.requestId}`]);

    presence.setPaused(true);
    expect(presence.paused).toBe(true);
    const late = bash('late');
    bus.publish(requested(late));
    await presence.idle();
    expect(notifier.calls).toHaveLength(1);
    presence.setPaused(false);
    await presence.idle();
    expect(notifier.calls.at(-1)).toBe(`show:${late.requestId}`);

    await presence.close();
    expect(notifier.calls.slice(-3)).toEqual([
      `withdraw:${early.requestId}`,
      `withdraw:${late.requestId}`,
      'close',
    ]);
    bus.publish(requested(bash('after close')));
    await presence.idle();
    expect(notifier.calls.at(-1)).toBe('close');
  });

  it('a press on a stale notification does nothing', async () => {
    const { notifier, presence, votes } = setup();
    presence.start();
    expect(await presence.activate('00000000-0000-4000-8000-000000000000', 'deny')).toBeNull();
    notifier.listener.activated('nope', 'allow_once');
    await presence.idle();
    expect(votes).toEqual([]);
  });
});

describe('a repeated sandbox refusal', () => {
  it('"Allow for this agent" sends allowSandboxTarget through dispatch from the notification surface', async () => {
    const bus = new EventBus();
    const calls: Array<{ input: unknown; caller: Caller }> = [];
    const handlers = {
      allowSandboxTarget: (input: unknown, caller: Caller) => {
        calls.push({ input, caller });
        return { agentId: 'gemini', entry: '/var/tmp' };
      },
    } as unknown as Handlers;
    const notifier = new FakeNotifier();
    const presence = new NotificationPresence({
      core: { bus, handlers, pipeline: { pending: { list: () => [] } } },
      notifier,
      batchWindowMs: 0,
      log: () => undefined,
    });
    presence.start();
    const refusal = {
      type: 'sandbox_violation',
      sessionId: 's1',
      agentId: 'gemini',
      kind: 'file',
      blocked: 'write',
      target: '/var/tmp/out.txt',
    } as const;
    bus.publish(refusal);
    await presence.idle();
    expect(notifier.calls).toEqual([]);
    bus.publish({ ...refusal, repeated: true });
    await presence.idle();
    const key = [...notifier.shown.keys()][0]!;
    notifier.listener.activated(key, 'allow_target');
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      input: { agentId: 'gemini', kind: 'write', target: '/var/tmp/out.txt' },
      caller: expect.objectContaining({ surface: 'notification', transport: 'internal' }),
    });
    await presence.idle();
    expect(notifier.calls).toEqual([`show:${key}`, `withdraw:${key}`]);
  });
});
