import type { Handlers } from './dispatch';
import type { CommandServices } from './services';

type SessionCommands =
  'listSessions' | 'createSession' | 'prompt' | 'cancelTurn' | 'closeSession' | 'setSessionMode';

/** Agent sessions: open, prompt, cancel, close, switch mode. */
export function sessionHandlers({
  sessions,
}: Pick<CommandServices, 'sessions'>): Pick<Handlers, SessionCommands> {
  return {
    listSessions: () => sessions.list(),

    createSession: async (input) => {
      const session = await sessions.create(input.agentId, input.cwd);
      return { sessionId: session.sessionId };
    },

    prompt: async (input, caller) => ({
      stopReason: await sessions.prompt(
        input.sessionId,
        input.text,
        caller.identityProven ? caller.clientId : null,
      ),
    }),

    cancelTurn: async (input) => {
      await sessions.cancel(input.sessionId);
      return { ok: true };
    },

    closeSession: async (input) => {
      await sessions.close(input.sessionId);
      return { ok: true };
    },

    setSessionMode: (input) => sessions.setMode(input.sessionId, input.mode),
  };
}
