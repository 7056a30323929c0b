import { actorOf } from './admin-audit';
import type { Handlers } from './dispatch';
import { refuseManaged } from './managed-refusal';
import type { CommandServices } from './services';

type SessionCommands =
  | 'listSessions'
  | 'getTranscript'
  | 'recentFolders'
  | 'checkFolder'
  | 'createSession'
  | 'authenticateSession'
  | 'prompt'
  | 'cancelTurn'
  | 'closeSession'
  | 'resumeSession'
  | 'setSessionMode'
  | 'setSessionOption';

/** Agent sessions: list, open, resume, sign in, read the transcript, prompt, cancel, close, switch mode, set options. */
export function sessionHandlers({
  sessions,
  pipeline,
  managed,
  store,
}: Pick<CommandServices, 'sessions' | 'pipeline' | 'managed' | 'store'>): Pick<
  Handlers,
  SessionCommands
> {
  return {
    listSessions: async () => {
      // Those a previous core left are listed with the rest, never after them.
      await sessions.whenRestored();
      return sessions
        .list()
        .map((info) => ({ ...info, pendingCount: pipeline.pending.countFor(info.sessionId) }));
    },

    getTranscript: async (input) => {
      await sessions.whenRestored();
      return sessions.transcripts.get(input.sessionId, input.since);
    },

    recentFolders: () => sessions.recentFolders.list(),

    checkFolder: (input) => sessions.checkFolder(input.path),

    createSession: async (input) => {
      const session = await sessions.create(
        input.agentId,
        input.cwd,
        input.additionalDirectories ?? [],
      );
      return { sessionId: session.sessionId };
    },

    authenticateSession: (input) => sessions.authenticate(input.sessionId, input.methodId),

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

    closeSession: async (input, caller) => {
      await sessions.close(input.sessionId, 'session_closed', actorOf(caller));
      return { ok: true };
    },

    resumeSession: async (input, caller) => {
      const info = await sessions.resume(input.sessionId, actorOf(caller));
      return { ...info, pendingCount: pipeline.pending.countFor(info.sessionId) };
    },

    setSessionMode: async (input, caller) => {
      if (input.mode === 'bypassPermissions' && managed?.settings.allowBypass === false) {
        await refuseManaged(
          store,
          managed,
          caller,
          'Bypass is not allowed',
          { mode: input.mode },
          {
            sessionId: input.sessionId,
          },
        );
      }
      const info = await sessions.setMode(input.sessionId, input.mode);
      // The new mode (Bypass, acceptEdits, plan) applies to what already waits.
      pipeline.rejudgePending();
      return info;
    },

    setSessionOption: (input) => sessions.setOption(input.sessionId, input.configId, input.value),
  };
}
