// `gatehouse agents import-registry` and `fetch-registry`: the snapshot is replaced only by a file
// that validates whole. The command runs as its own process (exit codes, output); fetch-registry is
// given its fetch, so no test reaches the network.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchRegistry } from '../../src/cli/agents-registry';
import { REGISTRY_LIMITS } from '../../src/shared/registry-format';
import { runNode } from '../support/core-process';
import { registryFixture } from '../support/registry-fixture';
import { cleanupAfterEach, freshDir } from '../support/steps';

const cleanup = cleanupAfterEach();

const RUN_CLI =
  "import { runCli } from './src/cli/main.ts'; process.exitCode = await runCli(process.argv.slice(1));";
const gatehouse = (home: string, ...argv: string[]) =>
  runNode(['--import', 'tsx', '--input-type=module', '-e', RUN_CLI, '--', ...argv], {
    GATEHOUSE_HOME: home,
  });

function setup() {
  const home = freshDir(cleanup, 'gatehouse-home-');
  const files = freshDir(cleanup, 'gatehouse-registry-in-');
  const write = (name: string, text: string) => {
    writeFileSync(join(files, name), text);
    return join(files, name);
  };
  const snapshot = () => readFileSync(join(home, 'registry.json'), 'utf8');
  return { home, write, snapshot };
}

const withFirstAgent = (change: (agent: Record<string, unknown>) => void) => {
  const registry = registryFixture();
  change(registry.agents[0]!);
  return JSON.stringify(registry);
};

describe('gatehouse agents import-registry', () => {
  it('imports a good file, counting its agents; a bad one exits 1 with every problem and the old snapshot kept', async () => {
    const { home, write, snapshot } = setup();
    const good = write('good.json', JSON.stringify(registryFixture(), null, 2));
    const imported = await gatehouse(home, 'agents', 'import-registry', good);
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    expect(imported.stdout.trim()).toBe(`3 agents from ${good} in ${join(home, 'registry.json')}`);
    expect(snapshot()).toBe(readFileSync(good, 'utf8'));

    const registry = registryFixture();
    delete registry.agents[0]!['description'];
    registry.agents[2]!['distribution'] = {};
    registry.agents[1]!['id'] = 'Mistral';
    const bad = write('bad.json', JSON.stringify(registry));
    const refused = await gatehouse(home, 'agents', 'import-registry', bad);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toEqual([
      `gatehouse agents: ${bad} is not a valid ACP Registry file:`,
      '  - agents.0.description: Invalid input: expected string, received undefined',
      '  - agents.1.id: registry id: lowercase letters, digits and -, starting with a letter',
      'The snapshot is unchanged.',
    ]);
    expect(snapshot()).toBe(readFileSync(good, 'utf8'));

    const missing = await gatehouse(home, 'agents', 'import-registry', join(home, 'nope.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot be read: ENOENT/);
    expect((await gatehouse(home, 'agents', 'import-registry')).code).toBe(2);
  });

  it('a file crafted to inject is refused, nothing changes', async () => {
    const { home, write, snapshot } = setup();
    const good = write('good.json', JSON.stringify(registryFixture()));
    await gatehouse(home, 'agents', 'import-registry', good);
    const hostile = {
      huge: [
        ' '.repeat(REGISTRY_LIMITS.fileBytes + 10),
        `larger than ${REGISTRY_LIMITS.fileBytes} bytes`,
      ],
      deep: [
        `{"version":"1.0.0","agents":[],"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
        'nested deeper than 12 levels',
      ],
      traversal: [withFirstAgent((a) => (a['id'] = '../../settings')), 'agents.0.id: registry id'],
      flag: [
        withFirstAgent(
          (a) => (a['distribution'] = { npx: { package: '--registry=http://127.0.0.1:9/' } }),
        ),
        'agents.0.distribution.npx.package: package: one word, not starting with -',
      ],
      escape: [
        withFirstAgent(
          (a) => (a['distribution'] = { binary: { 'linux-x86_64': { cmd: '../../../bin/sh' } } }),
        ),
        'cmd: a relative path inside the archive',
      ],
    } as const;
    for (const [name, [text, problem]] of Object.entries(hostile)) {
      const result = await gatehouse(
        home,
        'agents',
        'import-registry',
        write(`${name}.json`, text),
      );
      expect(result.code, name).toBe(1);
      expect(result.stderr, name).toContain(problem);
      expect(snapshot(), name).toBe(readFileSync(good, 'utf8'));
    }
  });
});

describe('gatehouse agents fetch-registry', () => {
  const io = (home: string) => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      io: {
        out: (l: string) => out.push(l),
        err: (l: string) => err.push(l),
        env: { GATEHOUSE_HOME: home },
      },
      out,
      err,
    };
  };
  const settings = (home: string, url: string) =>
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ agentRegistry: { url } }));

  it('fetches agentRegistry.url, validates it and replaces the snapshot; a bad answer changes nothing', async () => {
    const { home, snapshot } = setup();
    settings(home, 'https://registry.example/registry.json');
    const asked: string[] = [];
    const answer = (body: string, status = 200) =>
      (async (url: string | URL | Request) => {
        asked.push(String(url));
        return new Response(body, { status });
      }) as typeof fetch;
    const good = JSON.stringify(registryFixture());
    const ok = io(home);
    expect(await fetchRegistry(ok.io, answer(good))).toBe(0);
    expect(asked).toEqual(['https://registry.example/registry.json']);
    expect(ok.out).toEqual([
      `3 agents from https://registry.example/registry.json in ${join(home, 'registry.json')}`,
    ]);
    expect(snapshot()).toBe(good);

    for (const [body, status, problem] of [
      ['{"version":"1.0.0"}', 200, 'agents: Invalid input'],
      [
        'x'.repeat(REGISTRY_LIMITS.fileBytes + 1),
        200,
        `larger than ${REGISTRY_LIMITS.fileBytes} bytes`,
      ],
      ['gone', 404, 'answered 404'],
    ] as const) {
      const failed = io(home);
      expect(await fetchRegistry(failed.io, answer(body, status))).toBe(1);
      expect(failed.err.join('\n')).toContain(problem);
      expect(failed.err.join('\n')).toContain('The snapshot is unchanged.');
      expect(snapshot()).toBe(good);
    }
  });

  it('refuses a URL that is not https, in settings or after a redirect', async () => {
    const { home } = setup();
    settings(home, 'http://127.0.0.1:1/registry.json');
    const refused = io(home);
    const never = (() => Promise.reject(new Error('fetched'))) as typeof fetch;
    expect(await fetchRegistry(refused.io, never)).toBe(1);
    expect(refused.err.join('\n')).toContain('agentRegistry.url: url: an https:// URL');

    settings(home, 'https://registry.example/registry.json');
    const redirected = io(home);
    const downgrade = (async () => {
      const response = new Response(JSON.stringify(registryFixture()));
      Object.defineProperty(response, 'url', { value: 'http://registry.example/registry.json' });
      return response;
    }) as typeof fetch;
    expect(await fetchRegistry(redirected.io, downgrade)).toBe(1);
    expect(redirected.err.join('\n')).toContain(
      'redirected to http://registry.example/registry.json, not https',
    );
  });
});
