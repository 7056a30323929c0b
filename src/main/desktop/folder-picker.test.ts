// The desktop's folder picker, on fakes of the few Electron objects it touches: only Gatehouse's
// own top frame opens it, and it answers the chosen folder or null.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DESKTOP_CHOOSE_FOLDER_CHANNEL } from '../../shared/contract';

const electron = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown) => Promise<unknown>>(),
  answer: { canceled: false, filePaths: ['/home/me/project'] },
  opened: [] as unknown[],
}));
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: (event: unknown) => Promise<unknown>) =>
      electron.handlers.set(channel, fn),
    removeHandler: (channel: string) => electron.handlers.delete(channel),
  },
  BrowserWindow: { fromWebContents: () => null },
  dialog: {
    showOpenDialog: async (options: unknown) => {
      electron.opened.push(options);
      return electron.answer;
    },
  },
}));

const { wireFolderPicker } = await import('./folder-picker');
const { APP_ORIGIN } = await import('./security-policy');

const known = {};
const top = { url: `${APP_ORIGIN}/index.html#/sessions`, parent: null };
const pick = (senderFrame: unknown, sender: unknown = known) =>
  electron.handlers.get(DESKTOP_CHOOSE_FOLDER_CHANNEL)!({ sender, senderFrame });

describe('the desktop folder picker', () => {
  let unwire: () => void;
  beforeEach(() => {
    electron.opened.length = 0;
    electron.answer = { canceled: false, filePaths: ['/home/me/project'] };
    unwire = wireFolderPicker({ owns: (c) => c === (known as never), contents: () => [] });
  });

  it('opens a folder-only picker for Gatehouse’s own window and answers the folder chosen', async () => {
    expect(await pick(top)).toEqual({ ok: true, result: '/home/me/project' });
    expect(electron.opened).toEqual([expect.objectContaining({ properties: ['openDirectory'] })]);
    electron.answer = { canceled: true, filePaths: [] };
    expect(await pick(top)).toEqual({ ok: true, result: null });
    unwire();
    expect(electron.handlers.has(DESKTOP_CHOOSE_FOLDER_CHANNEL)).toBe(false);
  });

  it('opens nothing for a frame outside Gatehouse', async () => {
    expect(await pick({ url: 'https://evil.example/', parent: null })).toMatchObject({ ok: false });
    expect(await pick({ ...top, parent: {} })).toMatchObject({ ok: false });
    expect(await pick(top, {})).toMatchObject({ ok: false });
    expect(electron.opened).toEqual([]);
    unwire();
  });
});
