// "Reject with a reason…" from a notification: offered with a reject option, its words carried by
// the reject only, and only from the reply field of the notification that offered it.
import { describe, expect, it, vi } from 'vitest';
import { REJECT_MESSAGE_MAX, type VoteInput, type VoteOutcome } from '../../shared/contract';
import type { Caller } from '../core/approvals/clients';
import type { Handlers } from '../core/commands/dispatch';
import { EventBus } from '../core/events/bus';
import {
  NotificationPlanner,
  requestNotification,
  type NotificationModel,
} from './notification-plan';
import {
  NotificationPresence,
  type Notifier,
  type NotifierListener,
} from './notification-presence';
import { bash, requested, resolved } from './fixtures.test-support';

describe('the reply of a request notification', () => {
  it('is a reject the person can type words for, in our words, when the agent offers a reject', () => {
    const n = requestNotification(bash('npm publish'));
    expect(n.reply).toEqual({
      id: 'deny_reason',
      label: 'Reject with a reason…',
      placeholder: 'Tell the agent what to do instead',
      optionId: 'cancel',
    });
    // Deny stays as it is beside it, for every platform without a reply field.
    expect(n.actions.map((a) => a.id)).toEqual(['allow_once', 'allow_always', 'deny']);
    const always = bash('ls', {
      options: [
        { optionId: 'y', name: 'Yes', kind: 'allow_once' },
        { optionId: 'n', name: 'Never', kind: 'reject_always' },
      ],
    });
    expect(requestNotification(always).reply?.optionId).toBe('n');
  });

  it('is not offered when the agent offers no reject (a cancel carries no words)', () => {
    const a = bash('ls', { options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }] });
    expect(requestNotification(a).reply).toBeUndefined();
  });

  it('sends the words with the reject, trimmed and bounded; blank words send a plain reject', () => {
    const planner = new NotificationPlanner();
    const a = bash('git push --force');
    planner.plan([requested(a)]);
    expect(planner.intent(a.requestId, 'deny_reason', '  push to a branch instead \n')).toEqual({
      type: 'vote',
      requestId: a.requestId,
      action: 'deny_reason',
      vote: { optionId: 'cancel', message: 'push to a branch instead' },
    });
    const long = planner.intent(a.requestId, 'deny_reason', 'x'.repeat(REJECT_MESSAGE_MAX + 9));
    expect(long?.type === 'vote' && 'message' in long.vote && long.vote.message).toHaveLength(
      REJECT_MESSAGE_MAX,
    );
    expect(planner.intent(a.requestId, 'deny_reason', ' \n ')).toMatchObject({
      vote: { optionId: 'cancel' },
    });
    expect(planner.intent(a.requestId, 'deny_reason', ' ')).not.toHaveProperty('vote.message');
  });

  it('never carries words with another action, nor for a notification no longer shown', () => {
    const planner = new NotificationPlanner();
    const a = bash('git push --force');
    planner.plan([requested(a)]);
    expect(planner.intent(a.requestId, 'allow_once', 'sure')).toBeNull();
    expect(planner.intent(a.requestId, 'allow_always', 'sure')).toBeNull();
    planner.plan([resolved(a)]);
    expect(planner.intent(a.requestId, 'deny_reason', 'late')).toBeNull();
  });
});

class FakeNotifier implements Notifier {
  readonly supportsActions = true;
  listener!: NotifierListener;
  shown = new Map<string, NotificationModel>();
  setListener(listener: NotifierListener) {
    this.listener = listener;
  }
  show(n: NotificationModel) {
    this.shown.set(n.key, n);
  }
  withdraw(key: string) {
    this.shown.delete(key);
  }
  close() {}
}

describe('NotificationPresence and a reply', () => {
  it('votes the reject with the words, from the notification surface, through dispatch', async () => {
    const bus = new EventBus();
    const votes: Array<{ input: VoteInput; caller: Caller }> = [];
    const handlers = {
      vote: (input: VoteInput, caller: Caller): VoteOutcome => {
        votes.push({ input, caller });
        return { kind: 'resolved', resolvedOptionId: 'optionId' in input ? input.optionId : null };
      },
    } as unknown as Handlers;
    const notifier = new FakeNotifier();
    const presence = new NotificationPresence({
      core: { bus, handlers, pipeline: { pending: { list: () => [] } } },
      notifier,
      batchWindowMs: 0,
      log: () => undefined,
    }).start();
    const a = bash('npm run migrate');
    bus.publish(requested(a));
    await presence.idle();
    expect(notifier.shown.get(a.requestId)?.reply?.id).toBe('deny_reason');

    notifier.listener.replied(a.requestId, 'deny_reason', 'use the staging database');
    await vi.waitFor(() => expect(votes).toHaveLength(1));
    expect(votes[0]!.input).toEqual({
      requestId: a.requestId,
      optionId: 'cancel',
      message: 'use the staging database',
    });
    expect(votes[0]!.caller).toMatchObject({ surface: 'notification', identityProven: true });
    // The replied notification is taken off the screen, like a pressed one.
    await presence.idle();
    expect(notifier.shown.has(a.requestId)).toBe(false);

    // Words from a field the notification never had are not a vote.
    const b = bash('ls');
    bus.publish(requested(b));
    await presence.idle();
    notifier.listener.replied(b.requestId, 'allow_once', 'yes please');
    await presence.idle();
    expect(votes).toHaveLength(1);
    await presence.close();
  });
});
