import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  loadWindowState,
  parseWindowState,
  restoreBounds,
  saveWindowState,
  windowStatePath,
} from './window-state';

const SCREEN = { x: 0, y: 0, width: 1920, height: 1040 };
const RIGHT = { x: 1920, y: 0, width: 1280, height: 1000 };
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('window state file', () => {
  it('round-trips through a JSON file in the home folder', () => {
    dir = mkdtempSync(join(tmpdir(), 'gh-ws-'));
    const file = windowStatePath(dir);
    expect(file).toBe(join(dir, 'window-state.json'));
    expect(loadWindowState(file)).toEqual({});
    const state = { approvals: { x: 10, y: 20, width: 900, height: 700, maximized: false } };
    saveWindowState(file, state);
    expect(loadWindowState(file)).toEqual(state);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(state);
  });

  it('drops whatever is malformed', () => {
    expect(parseWindowState('not json')).toEqual({});
    expect(parseWindowState('[1,2]')).toEqual({});
    expect(
      parseWindowState(
        JSON.stringify({
          approvals: { x: 1, y: 2, width: 800, height: 600, maximized: 'yes' },
          history: { x: 'a', y: 2, width: 800, height: 600 },
          settings: { x: 1, y: 2, width: 50, height: 600 },
          __proto__: { polluted: true },
          other: { x: 1, y: 1, width: 500, height: 500 },
        }),
      ),
    ).toEqual({ approvals: { x: 1, y: 2, width: 800, height: 600, maximized: false } });
    dir = mkdtempSync(join(tmpdir(), 'gh-ws-'));
    writeFileSync(join(dir, 'window-state.json'), '{"approvals": {"x": 1e400}}');
    expect(loadWindowState(join(dir, 'window-state.json'))).toEqual({});
  });
});

describe('restoreBounds', () => {
  it('restores on a display that still exists', () => {
    expect(
      restoreBounds({ x: 100, y: 80, width: 900, height: 700, maximized: false }, [SCREEN]),
    ).toEqual({
      x: 100,
      y: 80,
      width: 900,
      height: 700,
    });
    expect(
      restoreBounds({ x: 2000, y: 50, width: 900, height: 700, maximized: false }, [SCREEN, RIGHT]),
    ).toEqual({
      x: 2000,
      y: 50,
      width: 900,
      height: 700,
    });
  });

  it('a window on an unplugged display keeps its size only (the OS places it)', () => {
    expect(
      restoreBounds({ x: 2000, y: 50, width: 900, height: 700, maximized: false }, [SCREEN]),
    ).toEqual({ width: 900, height: 700 });
  });

  it('clamps into the work area, and never restores a title bar out of reach', () => {
    expect(
      restoreBounds({ x: 1500, y: 900, width: 900, height: 700, maximized: false }, [SCREEN]),
    ).toEqual({
      x: 1020,
      y: 340,
      width: 900,
      height: 700,
    });
    expect(
      restoreBounds({ x: -50, y: -690, width: 900, height: 700, maximized: false }, [SCREEN]),
    ).toEqual({ width: 900, height: 700 });
    expect(
      restoreBounds({ x: 0, y: 0, width: 4000, height: 3000, maximized: true }, [SCREEN]),
    ).toEqual({
      x: 0,
      y: 0,
      width: 1920,
      height: 1040,
    });
    expect(restoreBounds(undefined, [SCREEN])).toBeUndefined();
  });
});
