// The README's example agent as the README writes it, `npx @google/gemini-cli --acp`, under the
// default sandbox and offline: npm is pointed at a registry on loopback that serves Gemini CLI's
// tarball as `npm ci` left it in npm's cache (the lockfile names its integrity), and the model is the
// fake one. Gatehouse fetches the package outside the sandbox; Gemini, inside, reaches its first
// approval, started with the ask policy a Gemini CLI is recognised for.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapMissing } from '../support/bwrap';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { prepareGemini, type PreparedGemini } from '../support/gemini';
import { servePackage, type NpmRegistry } from '../support/npm-registry';

/** Gemini CLI's tarball in npm's cache, found by the integrity the lockfile gives; null if absent. */
function cachedGeminiTarball(): Buffer | null {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
    packages: Record<string, { integrity?: string }>;
  };
  const integrity = lock.packages['node_modules/@google/gemini-cli']?.integrity ?? '';
  const [algorithm, digest] = integrity.split('-', 2);
  if (!algorithm || !digest) return null;
  const hex = Buffer.from(digest, 'base64').toString('hex');
  const cache = process.env['npm_config_cache'] ?? join(homedir(), '.npm');
  const path = join(cache, '_cacache', 'content-v2', algorithm, hex.slice(0, 2), hex.slice(2, 4));
  const file = join(path, hex.slice(4));
  return existsSync(file) ? readFileSync(file) : null;
}

const tarball = cachedGeminiTarball();
if (!tarball) console.warn('launcher-gemini skipped: Gemini CLI’s tarball is not in npm’s cache');

describe.skipIf(bwrapMissing('launcher-gemini') !== null || !tarball)(
  'the README’s example agent, npx @google/gemini-cli --acp',
  () => {
    let model: FakeModelServer;
    let gemini: PreparedGemini;
    let registry: NpmRegistry;
    let gh: TestGatehouse;
    let folder: string;
    let npmCache: string;

    beforeAll(async () => {
      const manifest = createRequire(import.meta.url)('@google/gemini-cli/package.json') as {
        name: string;
        version: string;
      };
      registry = await servePackage(manifest, tarball!);
      model = await startFakeModelServer();
      gemini = prepareGemini({ modelUrl: model.url });
      folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-npx-gemini-')));
      npmCache = mkdtempSync(join(tmpdir(), 'gatehouse-npx-gemini-cache-'));
      gh = await startGatehouse({
        agents: {
          gemini: {
            name: 'Gemini CLI',
            command: 'npx',
            args: ['@google/gemini-cli', '--acp'],
            env: {
              ...(gemini.env as Record<string, string>),
              npm_config_registry: registry.url,
              npm_config_cache: npmCache,
              npm_config_fetch_retries: '0',
            },
          },
        },
      });
    });
    afterAll(async () => {
      await gh?.close();
      await model?.close();
      await registry?.close();
      gemini?.cleanup();
      for (const dir of [folder, npmCache]) if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('is fetched outside the sandbox, pinned, and reaches its first approval inside', async () => {
      const { sessionId } = await gh.api.call('createSession', { agentId: 'gemini', cwd: folder });
      const [info] = await gh.api.call('listSessions', {});
      expect(info!.sandbox).toMatchObject({
        profile: 'workspace-write',
        package: '@google/gemini-cli@0.61.0',
      });
      // The registry is not among what the sandbox lets the agent reach.
      expect(info!.sandbox.network).not.toContain('127.0.0.1:' + new URL(registry.url).port);

      model.enqueue({
        functionCalls: [
          { name: 'run_shell_command', args: { command: 'echo first', description: 'first' } },
        ],
        finalText: 'Done.',
      });
      const turn = gh.api.call('prompt', { sessionId, text: 'run it' });
      const approval = await gh.nextApproval((a) => a.sessionId === sessionId, 120_000);
      expect(approval.toolCall.kind).toBe('execute');
      const reject = approval.options.find((o) => o.kind === 'reject_once')!;
      await gh.api.call('vote', { requestId: approval.requestId, optionId: reject.optionId });
      await turn;
      await gh.api.call('closeSession', { sessionId });
    });
  },
);
