// The desktop's export, on fakes of the few Electron objects it touches and a real store engine:
// only Gatehouse's own top frame opens the save dialog, the export lands in the file chosen (a file
// or link there replaced, never written through), and a cancel writes nothing.
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DESKTOP_SAVE_EXPORT_CHANNEL } from '../../shared/contract';
import type { Store } from '../core/store';
import { decide, tempDir, tempStore, type TempDir } from '../../../test/support/store';

const electron = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown, input: unknown) => Promise<unknown>>(),
  answer: { canceled: false, filePath: '' } as { canceled: boolean; filePath?: string },
  opened: [] as unknown[],
}));
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: (event: unknown, input: unknown) => Promise<unknown>) =>
      electron.handlers.set(channel, fn),
    removeHandler: (channel: string) => electron.handlers.delete(channel),
  },
  BrowserWindow: { fromWebContents: () => null },
  dialog: {
    showSaveDialog: async (options: unknown) => {
      electron.opened.push(options);
      return electron.answer;
    },
  },
}));

const { wireExportSave } = await import('./export-save');
const { APP_ORIGIN } = await import('./security-policy');

const known = {};
const top = { url: `${APP_ORIGIN}/index.html#/history`, parent: null };
const save = (input: unknown, senderFrame: unknown = top, sender: unknown = known) =>
  electron.handlers.get(DESKTOP_SAVE_EXPORT_CHANNEL)!({ sender, senderFrame }, input);

let engine: ReturnType<typeof tempStore>;
let out: TempDir;
let unwire: () => void;
beforeAll(async () => {
  engine = tempStore();
  for (let i = 0; i < 3; i++)
    await decide(engine.store, { title: `row ${i}` }, i ? 'allow' : 'deny');
  out = tempDir();
  const services = {
    store: engine.store as unknown as Store,
    now: () => Date.UTC(2030, 0, 2, 3, 4, 5),
  };
  unwire = wireExportSave(services, { owns: (c) => c === (known as never), contents: () => [] });
});
afterAll(async () => {
  unwire();
  await engine.cleanup();
  out.cleanup();
});
beforeEach(() => {
  electron.opened.length = 0;
});

const exported = (format: 'jsonl' | 'csv') => [...engine.store.exportHistory({}, format)].join('');

describe('the desktop export', () => {
  it('offers the export’s name in a save dialog and writes the export to the file chosen', async () => {
    const chosen = join(out.dir, 'mine.jsonl');
    electron.answer = { canceled: false, filePath: chosen };
    expect(await save({ format: 'jsonl' })).toEqual({
      ok: true,
      result: { filename: 'mine.jsonl', rows: 3, truncated: false },
    });
    expect(electron.opened).toEqual([
      expect.objectContaining({ defaultPath: 'gatehouse-history-2030-01-02-03-04-05.jsonl' }),
    ]);
    expect(readFileSync(chosen, 'utf8')).toBe(exported('jsonl'));
    expect(await save({ format: 'csv', decision: 'deny' })).toMatchObject({
      ok: true,
      result: { rows: 1 },
    });
  });

  it('replaces a file or a link at the chosen name, never writing through the link', async () => {
    const victim = join(out.dir, 'victim.txt');
    writeFileSync(victim, 'untouched');
    const chosen = join(out.dir, 'linked.csv');
    symlinkSync(victim, chosen);
    electron.answer = { canceled: false, filePath: chosen };
    expect(await save({ format: 'csv' })).toMatchObject({ ok: true, result: { rows: 3 } });
    expect(lstatSync(chosen).isFile()).toBe(true);
    expect(readFileSync(chosen, 'utf8')).toBe(exported('csv'));
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(readdirSync(out.dir).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('a cancelled dialog writes nothing and answers null', async () => {
    const before = readdirSync(out.dir);
    electron.answer = { canceled: true };
    expect(await save({ format: 'jsonl' })).toEqual({ ok: true, result: null });
    expect(readdirSync(out.dir)).toEqual(before);
  });

  it('a failed write leaves nothing and says why', async () => {
    electron.answer = { canceled: false, filePath: join(out.dir, 'missing-folder', 'x.jsonl') };
    expect(await save({ format: 'jsonl' })).toMatchObject({
      ok: false,
      error: { name: 'ExportError' },
    });
    expect(readdirSync(out.dir)).not.toContain('missing-folder');
  });

  it('opens nothing for a frame outside Gatehouse or an input outside the contract', async () => {
    expect(
      await save({ format: 'jsonl' }, { url: 'https://evil.example/', parent: null }),
    ).toMatchObject({
      ok: false,
      error: { name: 'ForbiddenError' },
    });
    expect(await save({ format: 'jsonl' }, top, {})).toMatchObject({ ok: false });
    for (const input of [{ format: 'xml' }, { format: 'csv', path: '/etc/passwd' }, 'csv', null]) {
      expect(await save(input)).toMatchObject({ ok: false, error: { name: 'ValidationError' } });
    }
    expect(electron.opened).toEqual([]);
  });
});
