// The setup of the integration suites that run the real Gemini CLI offline: one fake model server and
// one prepared Gemini for the suite, and Gemini as an agent entry of Gatehouse's settings.
import { afterAll, beforeAll } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server';
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
