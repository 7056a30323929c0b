// A turn's end is told once the session can take the next prompt: whoever reads "the agent
// finished its turn" and sends at once is heard, not refused as a turn still running.
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedSession, type ScriptedSession } from '../support/gatehouse';

let session: ScriptedSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe("a turn's end", () => {
  it('is published after the session is idle, so a prompt sent on hearing it starts the next turn', async () => {
    session = await startScriptedSession({
      prompts: [[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }]],
    });
    const { gh, sessionId } = session;
    const next = new Promise<unknown>((resolve) => {
      const stop = gh.core.bus.subscribe((event) => {
        if (event.type !== 'turn_ended' || event.sessionId !== sessionId) return;
        stop();
        // At once, in the same tick the end is heard: as a person's Enter right after reading it.
        resolve(
          gh.core.sessions
            .prompt(sessionId, 'again', null)
            .catch((error: unknown) => (error as Error).message),
        );
      });
    });
    expect(await gh.api.call('prompt', { sessionId, text: 'go' })).toEqual({
      stopReason: 'end_turn',
    });
    expect(await next).toBe('end_turn');

    const mine = gh.events.flatMap((e) => {
      if (e.type === 'turn_ended' && e.sessionId === sessionId) return ['ended'];
      if (e.type === 'session_state' && e.session.sessionId === sessionId) return [e.session.state];
      return [];
    });
    expect(mine).toEqual(['idle', 'prompting', 'idle', 'ended', 'prompting', 'idle', 'ended']);
  });
});
