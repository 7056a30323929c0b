// An agent's question in the tray: declined from the menu, answered only in the dialog.
import { describe, expect, it } from 'vitest';
import { question } from './fixtures.test-support';
import { trayModel, type TrayMenuItem } from './tray-model';

describe('a question in the tray', () => {
  it('offers Decline and the dialog, never an accept without values', () => {
    const asked = question('Which release?', {
      mode: 'form',
      message: 'Which release?',
      toolCallId: null,
      form: { title: null, description: null, fields: [] },
    });
    const menu = trayModel([asked], { paused: false }).menu;
    const item = menu.find(
      (i): i is Extract<TrayMenuItem, { type: 'submenu' }> => i.type === 'submenu',
    );
    expect(item?.items.map((i) => (i.type === 'separator' ? '---' : i.label))).toEqual([
      'Decline',
      '---',
      'Open in dialog…',
    ]);
  });
});
