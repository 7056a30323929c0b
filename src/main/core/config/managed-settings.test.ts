import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Settings, type SettingsInput } from '../../../shared/settings';
import { initShellParser } from '../rules';
import {
  effectiveRules,
  managedAgents,
  managedSettingsPath,
  managedTelemetry,
  parseManagedSettings,
  protectedEntries,
  readManagedPolicy,
  type ManagedPolicy,
} from './managed-settings';
import { SettingsError } from './settings-file';

beforeAll(() => initShellParser());

const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-managed-'));
  folders.push(dir);
  return dir;
};

/** The SettingsError's problems, or a failure when nothing was thrown. */
const problemsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as SettingsError).problems;
  }
  throw new Error('no SettingsError');
};

const policy = (json: unknown): ManagedPolicy =>
  parseManagedSettings(JSON.stringify(json), '/admin/managed-settings.json');
const settings = (input: SettingsInput) => Settings.parse(input);

describe('the managed settings file', () => {
  it('lives at the platform path unless GATEHOUSE_MANAGED_SETTINGS names another', () => {
    expect(managedSettingsPath({}, 'linux')).toBe('/etc/gatehouse/managed-settings.json');
    expect(managedSettingsPath({}, 'darwin')).toBe(
      '/Library/Application Support/Gatehouse/managed-settings.json',
    );
    expect(managedSettingsPath({ ProgramData: 'D:\\PD' }, 'win32')).toMatch(
      /^D:\\PD.Gatehouse.managed-settings\.json$/,
    );
    expect(managedSettingsPath({ GATEHOUSE_MANAGED_SETTINGS: '/x/m.json' }, 'linux')).toBe(
      '/x/m.json',
    );
  });

  it('missing: no managed policy', () => {
    expect(readManagedPolicy(join(folder(), 'managed-settings.json'))).toBeNull();
  });

  it('not JSON: the start stops, naming the file', () => {
    const file = join(folder(), 'managed-settings.json');
    writeFileSync(file, '{ "rules": [');
    const problems = problemsOf(() => readManagedPolicy(file));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^not JSON/);
    expect(() => readManagedPolicy(file)).toThrow(file);
  });

  it('lists every problem at once: an unknown key, a bad rule, a bad policy, a bad sandbox', () => {
    const problems = problemsOf(() =>
      policy({
        rules: [{ id: 'x', action: 'forbid', command: 'rm' }],
        allowedPolicies: ['anyone'],
        sandbox: { sandbox: 'none' },
        allowBypas: false,
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^rules\.0\.action: /),
      expect.stringMatching(/^allowedPolicies\.0: /),
      expect.stringMatching(/^sandbox\.sandbox: /),
      expect.stringMatching(/^\(top level\): .*allowBypas/),
    ]);
  });

  it('a rule that can never match, or two with one id, is refused like in settings.json', () => {
    const problems = problemsOf(() =>
      policy({
        rules: [
          { id: 'a', action: 'deny', command: 'rm' },
          { id: 'a', action: 'deny', command: 'curl' },
        ],
      }),
    );
    expect(problems.join('\n')).toMatch(/rules: .*"a"/);
  });

  it('a folder where the file should be stops the start rather than being skipped', () => {
    const dir = join(folder(), 'managed-settings.json');
    mkdirSync(dir);
    expect(problemsOf(() => readManagedPolicy(dir))[0]).toMatch(/cannot be read/);
  });
});

describe('the user settings under a managed policy', () => {
  it('managed rules come first; the sandbox and telemetry replace the user’s', () => {
    const forcing = policy({
      rules: [{ id: 'no-rm', action: 'deny', command: 'rm' }],
      sandbox: { sandbox: 'read-only', network: 'none' },
      telemetry: { otlp: { endpoint: 'https://otel.example/' } },
    });
    const user = settings({
      rules: [{ id: 'mine', action: 'allow', command: 'rm' }],
      agents: { a: { command: 'x', sandbox: 'off', allowUnsandboxed: true, network: 'all' } },
      telemetry: { otlp: { endpoint: 'http://127.0.0.1:1/' } },
    });
    expect(effectiveRules(forcing, user.rules).map((r) => r.id)).toEqual(['no-rm', 'mine']);
    expect(managedAgents(user.agents, forcing)['a']).toMatchObject({
      command: 'x',
      sandbox: 'read-only',
      network: 'none',
      // Keys the administrator left out stay the user's.
      allowUnsandboxed: true,
    });
    expect(managedTelemetry(user.telemetry, forcing).otlp?.endpoint).toBe('https://otel.example/');
    expect(managedTelemetry(user.telemetry, null)).toBe(user.telemetry);
  });

  it('protected files: the built-in list, then what the policy and the user add; none removed', () => {
    const forcing = policy({ protectedPaths: ['tools/hooks/', '.tool-config.json'] });
    const entries = protectedEntries(['Justfile', 'tools/hooks/'], forcing);
    const paths = entries.map((e) => e.path);
    expect(paths.slice(0, 3)).toEqual(['.git/hooks', '.git/config', '.git/info']);
    expect(paths.slice(-3)).toEqual(['tools/hooks', '.tool-config.json', 'Justfile']);
    expect(entries.find((e) => e.path === 'tools/hooks')?.tree).toBe(true);
    expect(protectedEntries([], null).length).toBe(paths.length - 3);
    expect(Settings.safeParse({ protectedPaths: ['../outside'] }).success).toBe(false);
    expect(Settings.safeParse({ protectedPaths: ['/etc/hosts'] }).success).toBe(false);
    expect(Settings.safeParse({ protectedPaths: ['a/*/b'] }).success).toBe(false);
    expect(Settings.safeParse({ protectedPaths: Array(65).fill('x') }).success).toBe(false);
  });
});
