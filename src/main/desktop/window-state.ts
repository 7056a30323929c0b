// Window size and position across restarts: one small JSON file in Gatehouse's home. Restored only
// onto a display that still exists, so a window never opens off-screen. No Electron here.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Bounds, WindowKind } from './security-policy';

export const WINDOW_STATE_FILE = 'window-state.json';

export interface SavedWindow {
  x: number;
  y: number;
  width: number;
  height: number;
  maximized: boolean;
}

export type WindowState = Partial<Record<WindowKind, SavedWindow>>;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const KINDS: WindowKind[] = ['approvals', 'history', 'settings'];
const isInt = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 100_000;

function validWindow(value: unknown): SavedWindow | null {
  if (typeof value !== 'object' || value === null) return null;
  const w = value as Record<string, unknown>;
  if (!isInt(w.x) || !isInt(w.y) || !isInt(w.width) || !isInt(w.height)) return null;
  if (w.width < 100 || w.height < 100) return null;
  return { x: w.x, y: w.y, width: w.width, height: w.height, maximized: w.maximized === true };
}

/** Parses the state file's text; anything malformed is dropped (a bad file never stops a window). */
export function parseWindowState(text: string): WindowState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof json !== 'object' || json === null) return {};
  const state: WindowState = {};
  for (const kind of KINDS) {
    const saved = validWindow((json as Record<string, unknown>)[kind]);
    if (saved) state[kind] = saved;
  }
  return state;
}

export function windowStatePath(home: string): string {
  return join(home, WINDOW_STATE_FILE);
}

export function loadWindowState(file: string): WindowState {
  try {
    return parseWindowState(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * The bounds to open a window with: the saved ones when enough of the window (its title bar
 * included) lands on a current display's work area, clamped to that display's size; otherwise only
 * the saved size (the OS centres it).
 */
export function restoreBounds(
  saved: SavedWindow | undefined,
  workAreas: readonly Rect[],
): Bounds | undefined {
  if (!saved) return undefined;
  const best = workAreas.reduce<{ area: Rect; overlap: number } | null>((acc, area) => {
    const o = overlap(saved, area);
    return o > (acc?.overlap ?? 0) ? { area, overlap: o } : acc;
  }, null);
  const largest = workAreas.reduce((max, a) => Math.max(max, a.width), 0);
  if (!best) {
    return largest > 0
      ? { width: Math.min(saved.width, largest), height: saved.height }
      : { width: saved.width, height: saved.height };
  }
  const { area } = best;
  const titleBar: Rect = { x: saved.x, y: saved.y, width: saved.width, height: 32 };
  const visible = overlap(titleBar, area) >= Math.min(saved.width, 100) * 16;
  const width = Math.min(saved.width, area.width);
  const height = Math.min(saved.height, area.height);
  if (!visible) return { width, height };
  const x = Math.min(Math.max(saved.x, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(saved.y, area.y), area.y + area.height - height);
  return { x, y, width, height };
}
