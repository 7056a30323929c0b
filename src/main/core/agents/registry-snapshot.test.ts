import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REGISTRY_LIMITS } from '../../../shared/registry-format';
import { registryFixture } from '../../../../test/support/registry-fixture';
import {
  loadRegistrySnapshot,
  parseRegistry,
  RegistryFileError,
  registryListing,
  registrySnapshotPath,
  saveRegistrySnapshot,
} from './registry-snapshot';

const text = (value: unknown) => JSON.stringify(value);

function problemsOf(source: string): string[] {
  try {
    parseRegistry(source, 'r.json');
  } catch (error) {
    if (error instanceof RegistryFileError) return error.problems;
    throw error;
  }
  throw new Error('parsed');
}

function withAgent(change: (agent: Record<string, unknown>) => void): string {
  const registry = registryFixture();
  change(registry.agents[0]!);
  return text(registry);
}

describe('the ACP Registry format', () => {
  it('reads the registry as published: three kinds, unknown fields tolerated, defaults filled', () => {
    const registry = parseRegistry(text({ ...registryFixture(), generatedBy: 'ci' }), 'r.json');
    expect(registry.agents.map((a) => a.id)).toEqual(['gemini', 'mistral-vibe', 'factory-droid']);
    expect(registry.agents[1]!.distribution.uvx).toEqual({
      package: 'mistral-vibe@2.0.2',
      args: ['acp'],
      env: {},
    });
    expect(registryListing(registry)).toEqual([
      {
        id: 'gemini',
        name: 'Gemini CLI',
        version: '0.27.3',
        description: "Google's official CLI for Gemini",
        kinds: ['npx'],
      },
      {
        id: 'mistral-vibe',
        name: 'Mistral Vibe',
        version: '2.0.2',
        description: "Mistral's open-source coding assistant",
        kinds: ['uvx'],
      },
      {
        id: 'factory-droid',
        name: 'Factory Droid',
        version: '0.43.0',
        description: 'Factory AI coding agent',
        kinds: ['binary'],
      },
    ]);
  });

  it('lists every problem of a malformed file, each with where it is', () => {
    const registry = registryFixture();
    delete registry.agents[0]!['name'];
    registry.agents[1]!['version'] = 'latest';
    registry.agents[2]!['distribution'] = { binary: { 'linux-x86_64': { archive: 'x' } } };
    expect(problemsOf(text(registry))).toEqual([
      'agents.0.name: Invalid input: expected string, received undefined',
      'agents.1.version: version: a semantic version',
      'agents.2.distribution.binary.linux-x86_64.cmd: Invalid input: expected string, received undefined',
    ]);
    expect(problemsOf('{"version": "1.0.0", "agents": [')[0]).toMatch(/^not JSON: /);
    expect(problemsOf(text({ version: '1.0.0' }))).toEqual([
      'agents: Invalid input: expected array, received undefined',
    ]);
  });

  it('refuses an id with a path separator or .., and the same id twice', () => {
    for (const id of ['../gemini', 'a/b', '..', 'Gemini', 'a\\b']) {
      expect(problemsOf(withAgent((a) => (a['id'] = id)))).toEqual([
        'agents.0.id: registry id: lowercase letters, digits and -, starting with a letter',
      ]);
    }
    const registry = registryFixture();
    registry.agents[1]!['id'] = 'gemini';
    expect(problemsOf(text(registry))).toEqual(['agents.1.id: id "gemini" appears twice']);
  });

  it('refuses a package that would be read as an npx or uvx option, or as more than one word', () => {
    for (const spec of ['--registry=https://evil.example', '-y', 'pkg --call=sh', 'pkg\nx']) {
      expect(
        problemsOf(withAgent((a) => (a['distribution'] = { npx: { package: spec } }))),
      ).toEqual(['agents.0.distribution.npx.package: package: one word, not starting with -']);
    }
  });

  it("refuses a binary cmd that leaves its folder and an environment naming Gatehouse's own variables", () => {
    const binary = (cmd: string) => ({ binary: { 'linux-x86_64': { cmd } } });
    for (const cmd of ['../../bin/sh', '/bin/sh', './a/../../b', '.hidden/x']) {
      expect(problemsOf(withAgent((a) => (a['distribution'] = binary(cmd))))).toEqual([
        'agents.0.distribution.binary.linux-x86_64.cmd: cmd: a relative path inside the archive',
      ]);
    }
    const env = { npx: { package: 'x', env: { GATEHOUSE_TOKEN: 'x' } } };
    expect(problemsOf(withAgent((a) => (a['distribution'] = env)))).toEqual([
      "agents.0.distribution.npx.env.GATEHOUSE_TOKEN: GATEHOUSE_* variables are Gatehouse's own",
    ]);
  });

  it('refuses a huge or deeply nested file before anything recursive reads it', () => {
    expect(problemsOf(' '.repeat(REGISTRY_LIMITS.fileBytes + 1))).toEqual([
      `larger than ${REGISTRY_LIMITS.fileBytes} bytes`,
    ]);
    const deep = `{"version":"1.0.0","agents":[],"extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    expect(problemsOf(deep)).toEqual([
      'nested deeper than 12 levels at $.extra[0][0][0][0][0][0][0][0][0][0][0]',
    ]);
  });
});

describe('the snapshot file', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'gatehouse-registry-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('is replaced only by a valid file; none imported reads as null', () => {
    expect(loadRegistrySnapshot(home)).toBeNull();
    const good = text(registryFixture());
    saveRegistrySnapshot(home, good, 'in.json');
    expect(readFileSync(registrySnapshotPath(home), 'utf8')).toBe(good);
    expect(() => saveRegistrySnapshot(home, '{"version":"1"}', 'bad.json')).toThrow(
      RegistryFileError,
    );
    expect(readFileSync(registrySnapshotPath(home), 'utf8')).toBe(good);
    expect(loadRegistrySnapshot(home)?.agents).toHaveLength(3);
  });

  it('refuses a snapshot grown past the limit without loading it whole', () => {
    writeFileSync(registrySnapshotPath(home), 'x'.repeat(REGISTRY_LIMITS.fileBytes * 3));
    expect(() => loadRegistrySnapshot(home)).toThrow(/larger than/);
    expect(existsSync(registrySnapshotPath(home))).toBe(true);
  });
});
