// The setup of the integration suites that run the real Gemini CLI offline: one fake model server and
// one prepared Gemini for the suite, and Gemini as an agent entry of Gatehouse's settings.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server';
import { startGatehouse, type TestGatehouse } from './gatehouse';
import { prepareGemini, type PreparedGemini } from './gemini';

export interface GeminiSuite {
  model: FakeModelServer;
  gemini: PreparedGemini;
}

/**
 * Registers the hooks in the calling file or describe block. `use` is handed the model server and
 * Gemini before the first test, so the suite keeps the names its tests read.
 */
export function geminiForSuite(use: (suite: GeminiSuite) => void): void {
  let model: FakeModelServer;
  let gemini: PreparedGemini;
  beforeAll(async () => {
    model = await startFakeModelServer();
    gemini = prepareGemini({ modelUrl: model.url });
    use({ model, gemini });
  });
  afterAll(async () => {
    await model.close();
    gemini.cleanup();
  });
}

/** Gemini as an agent of the settings (`name` is what the sessions view shows). */
export function geminiAgent(gemini: PreparedGemini, name?: string) {
  return {
    ...(name === undefined ? {} : { name }),
    command: gemini.command,
    args: gemini.args,
    env: gemini.env as Record<string, string>,
  };
}

export interface GeminiSession extends GeminiSuite {
  gh: TestGatehouse;
  folder: string;
  sessionId: string;
}

/**
 * The suite's Gemini, and for each test a fresh folder (named from `prefix`), a Gatehouse with
 * Gemini as its agent `gemini`, and a session of it in that folder; `use` is handed them before
 * each test.
 */
export function geminiSessionPerTest(prefix: string, use: (session: GeminiSession) => void): void {
  let suite: GeminiSuite;
  let gh: TestGatehouse;
  let folder: string;
  geminiForSuite((s) => {
    suite = s;
  });
  beforeEach(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    gh = await startGatehouse({ agents: { gemini: geminiAgent(suite.gemini, 'Gemini CLI') } });
    const { sessionId } = await gh.api.call('createSession', { agentId: 'gemini', cwd: folder });
    use({ ...suite, gh, folder, sessionId });
  });
  afterEach(async () => {
    await gh.close();
    rmSync(folder, { recursive: true, force: true });
  });
}
