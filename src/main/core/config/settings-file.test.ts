import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsJsonSchema } from './json-schema';
import { loadSettings, SettingsError, updateSettingsFile } from './settings-file';
import { DEFAULT_RULES } from '../../../shared/rules';

const homes: string[] = [];
const home = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-settings-'));
  homes.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('settings.json', () => {
  it('is created with the defaults on first start', () => {
    const dir = home();
    const settings = loadSettings(dir);
    expect(settings.approvals.timeoutSeconds).toBe(300);
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).agents).toEqual({});
  });

  it('starts a new file with the default rules, written there; a file that exists keeps its own', () => {
    const dir = home();
    expect(loadSettings(dir).rules).toEqual([...DEFAULT_RULES]);
    const written = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
    expect(written.rules).toEqual([...DEFAULT_RULES]);
    // Removed (as Settings → Rules does: the whole list is written), it stays removed.
    updateSettingsFile(dir, (json) => {
      json.rules = [];
    });
    expect(loadSettings(dir).rules).toEqual([]);
    // A file written by hand holds no rule it does not list.
    const own = home();
    writeFileSync(join(own, 'settings.json'), JSON.stringify({ agents: {} }));
    expect(loadSettings(own).rules).toEqual([]);
  });

  it('creates a missing data folder 0700 and the file 0600', () => {
    const dir = join(home(), 'Gatehouse');
    loadSettings(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'settings.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses an invalid file with every problem named by its path', () => {
    const dir = home();
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        agents: { 'bad id!': { command: 'x' }, ok: { args: [] } },
        approvals: { timeoutSeconds: -1 },
        typo: 1,
      }),
    );
    let error: unknown;
    try {
      loadSettings(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    const problems = (error as SettingsError).problems.join('\n');
    expect(problems).toMatch(/agents\.bad id!|agent id/);
    expect(problems).toMatch(/agents\.ok\.command/);
    expect(problems).toMatch(/approvals\.timeoutSeconds/);
    expect(problems).toMatch(/typo|Unrecognized key/);
  });

  it('refuses text that is not JSON', () => {
    const dir = home();
    writeFileSync(join(dir, 'settings.json'), '{ agents: ');
    expect(() => loadSettings(dir)).toThrow(/not JSON/);
  });

  it('updates in place, validated whole, leaving the file untouched when the change is invalid', () => {
    const dir = home();
    loadSettings(dir);
    updateSettingsFile(dir, (json) => {
      json.agents = { a: { command: 'agent' } };
    });
    expect(loadSettings(dir).agents.a?.command).toBe('agent');
    const before = readFileSync(join(dir, 'settings.json'), 'utf8');
    expect(() =>
      updateSettingsFile(dir, (json) => {
        json.approvals = { timeoutSeconds: 'soon' };
      }),
    ).toThrow(SettingsError);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(before);
  });

  it('ships a JSON schema that is the zod schema, up to date (npm run settings:schema)', () => {
    const committed = JSON.parse(readFileSync('resources/settings.schema.json', 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(settingsJsonSchema())));
  });

  it('names a JSON mistake without quoting the file (it may hold a key), and never writes over it', () => {
    const dir = home();
    const text = '{"agents": {"a": {"command": "x", "env": {"KEY": sk-secret}}}}';
    writeFileSync(join(dir, 'settings.json'), text);
    expect(() => loadSettings(dir)).toThrow(SettingsError);
    try {
      loadSettings(dir);
    } catch (error) {
      expect((error as SettingsError).problems).toEqual([
        expect.stringMatching(/^not JSON: Unexpected token/),
      ]);
      expect((error as SettingsError).message).not.toContain('sk-secret');
    }
    expect(() =>
      updateSettingsFile(dir, (json) => {
        json.agents = {};
      }),
    ).toThrow(SettingsError);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(text);
  });
});
