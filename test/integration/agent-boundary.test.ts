// What an agent process can reach of Gatehouse: its environment, its reads and writes, its messages.
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

/** Text chunks the agent sent, in order. */
function saidTexts(session: ScriptedSession): string[] {
  return session
    .log()
    .filter((l) => l.dir === 'out' && l.msg.method === 'session/update')
    .map(
      (l) =>
        (l.msg as { params?: { update?: { content?: { text?: string } } } }).params?.update?.content
          ?.text,
    )
    .filter((t): t is string => typeof t === 'string');
}

describe('agent boundary', () => {
  let session: ScriptedSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  it("the agent's environment holds neither GATEHOUSE_TOKEN nor other secrets of the core", async () => {
    process.env.GATEHOUSE_TOKEN = 'core-secret-token';
    process.env.SOME_CLOUD_SECRET = 'cloud-secret';
    try {
      session = await startScriptedSession({
        prompts: [
          [
            { type: 'env', name: 'GATEHOUSE_TOKEN' },
            { type: 'env', name: 'SOME_CLOUD_SECRET' },
            { type: 'env', name: 'PATH' },
          ],
        ],
      });
      await session.gh.api.call('prompt', { sessionId: session.sessionId, text: 'go' });
      expect(saidTexts(session)).toEqual([
        'env GATEHOUSE_TOKEN unset',
        'env SOME_CLOUD_SECRET unset',
        `env PATH=${process.env.PATH}`,
      ]);
    } finally {
      delete process.env.GATEHOUSE_TOKEN;
      delete process.env.SOME_CLOUD_SECRET;
    }
  });
});
