// An agent's question in the tray: declined from the menu, answered only in the dialog.
import { describe, expect, it } from 'vitest';
import { approval } from './fixtures.test-support';
import { trayModel, type TrayMenuItem } from './tray-model';

describe('a question in the tray', () => {
  it('offers Decline and the dialog, never an accept without values', () => {
    const asked = approval(
      { kind: 'other', title: 'Which release?' },
      {
        options: [
          { optionId: 'accept', name: 'Accept', kind: 'allow_once' },
          { optionId: 'decline', name: 'Decline', kind: 'reject_once' },
        ],
        question: {
          mode: 'form',
          message: 'Which release?',
          toolCallId: null,
          form: { title: null, description: null, fields: [] },
        },
      },
    );
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
