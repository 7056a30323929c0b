// In the desktop app an agent change sent over HTTP is confirmed in a native dialog: the person at
// this machine sees every agent's new command, every character visible, and applies or cancels.
import { dialog } from 'electron';
import { describeLaunch, type ConfirmLocally } from '../core';

export const confirmInDialog: ConfirmLocally = (change) => ({
  how: 'dialog',
  confirmed: dialog
    .showMessageBox({
      type: 'warning',
      title: 'Gatehouse',
      message: 'A remote client asks to change what an agent runs',
      detail: [
        ...change.agents.map((agent) => `Change ${describeLaunch(agent)}`),
        '',
        `Asked by ${change.requestedBy.clientId ?? 'an unregistered client'} over ${change.requestedBy.transport}.`,
        'Apply only if you made this change yourself.',
      ].join('\n'),
      buttons: ['Cancel', 'Apply the change'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    })
    .then(({ response }) => response === 1),
});
