// The setup of the specs that drive a real Gemini CLI session from the UI: one fake model server and
// one prepared Gemini (offline) for the file, and for each test a headless core offering Gemini and a
// fresh work folder, both gone after the test.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { startFakeModelServer, type FakeModelServer } from '../../support/fake-model-server';
import { prepareGemini, type PreparedGemini } from '../../support/gemini';
import { startHeadless, type Headless } from '../headless';

export interface GeminiHeadless {
  model: FakeModelServer;
  gemini: PreparedGemini;
  headless: Headless;
  folder: string;
}

/**
 * Registers the hooks in the calling spec file. `use` is handed each test's setup before the test
 * runs, so the spec keeps the names its tests read (`headless`, `folder`, `model`). With
 * `configured: false` the core starts with no agent, as a new user's does, and the test adds
 * Gemini itself from the prepared command and environment.
 */
export function geminiHeadlessPerTest(
  use: (setup: GeminiHeadless) => void,
  { configured = true }: { configured?: boolean } = {},
): void {
  let model: FakeModelServer;
  let gemini: PreparedGemini;
  let headless: Headless;
  let folder: string;

  test.beforeAll(async () => {
    model = await startFakeModelServer();
    gemini = prepareGemini({ modelUrl: model.url });
  });
  test.afterAll(async () => {
    await model.close();
    gemini.cleanup();
  });
  test.beforeEach(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-e2e-work-')));
    const agents = {
      gemini: {
        name: 'Gemini CLI',
        command: gemini.command,
        args: gemini.args,
        env: gemini.env as Record<string, string>,
      },
    };
    headless = await startHeadless(configured ? { agents } : {});
    use({ model, gemini, headless, folder });
  });
  test.afterEach(async () => {
    await headless.stop();
    rmSync(folder, { recursive: true, force: true });
  });
}
