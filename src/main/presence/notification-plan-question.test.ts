// A question's notification names the agent and its words, and only opens the dialog: a form's
// values or a link cannot be answered from a bubble, so no button there votes.
import { describe, expect, it } from 'vitest';
import { question } from './fixtures.test-support';
import { requestNotification } from './notification-plan';

describe('the notification of an agent question', () => {
  it('says who asks and what, and offers only to open the dialog', () => {
    const asked = question('Name the release', {
      mode: 'url',
      message: 'Sign in\nto the registry',
      toolCallId: null,
      elicitationId: 'e1',
      url: 'https://auth.example.com/x',
      host: 'auth.example.com',
    });
    const shown = requestNotification(asked);
    expect(shown.title).toBe('Claude Code asks: Sign in ⏎ to the registry');
    expect(shown.body).toContain('auth.example.com');
    expect(shown.actions).toEqual([{ id: 'open', label: 'Open approvals' }]);
  });
});
