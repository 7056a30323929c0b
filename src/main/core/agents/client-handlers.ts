import { RequestError } from '@agentclientprotocol/sdk';
import type * as acp from '@agentclientprotocol/sdk';
import type { Coverage } from '../approvals/coverage';
import type { ApprovalPipeline } from '../approvals/pipeline';
import { BadRequestError } from '../errors';
import type { EventBus } from '../events/bus';
import type { Store } from '../store';
import { z } from 'zod';
import type { ClientHandlers } from './agent-process';
import { readJudged, realPathOf, RESOURCE_NOT_FOUND, rootFor, writeInside } from './fs-access';
import { checkJsonShape, describeJsonProblem } from '../safety/json-guard';
import type { ReadJudge } from './read-judge';
import { handOnWords, STEER_METHOD } from './reject-words';
import type { Session } from './session';
import { allowedBy, auditWrite, refuseWrite } from './write-audit';
import type { Transcripts } from '../transcripts/transcripts';
import { logger } from '../log/logger';
import { requestedToolCall, toolCallIdOf, UpdateLane } from './update-lane';

const log = logger('agents');

const MALFORMED_UPDATE_AUDIT_MS = 60_000;

/** `elicitation/complete`: which URL question the agent says finished (bounded: audited as is). */
const ElicitationComplete = z.object({ elicitationId: z.string().min(1).max(200) });

export interface ClientHandlerDeps {
  /** `question` absent: the agent's questions are not served (an editor's session answers them). */
  pipeline: Pick<ApprovalPipeline, 'handle'> & Partial<Pick<ApprovalPipeline, 'question'>>;
  store: Pick<Store, 'recordEvent'>;
  bus: EventBus;
  now: () => number;
  /** Whether the session's agent may read `realPath`; absent: every read is refused. */
  judgeRead?: ReadJudge;
  /** Whether a write is what a decision allowed. */
  coverage: Pick<Coverage, 'write'>;
  /** Where the session's updates are kept as its transcript. */
  transcripts?: Pick<Transcripts, 'recordAll' | 'droppedUpdates' | 'floodEnded' | 'prompted'>;
}

/**
 * What Gatehouse does when a session's agent calls its client: permission requests go to the
 * pipeline, file writes and reads are confined and audited, updates are checked and forwarded.
 */
export function clientHandlersFor(session: Session, deps: ClientHandlerDeps): ClientHandlers {
  const { pipeline, store, now } = deps;
  const audit = (type: string, payload: unknown, requestId?: string) =>
    store.recordEvent({
      type,
      ...(requestId ? { requestId } : {}),
      sessionId: session.sessionId,
      agentId: session.agentId,
      at: now(),
      payload,
    });
  const foreign = (acpSessionId: string) => {
    if (acpSessionId !== session.acpSessionId) {
      throw new BadRequestError(`unknown session ${acpSessionId}`);
    }
  };

  /** Dropped; a flood of them is one audit row a minute, with how many were dropped. */
  const malformedUpdate = (problem: string): void => {
    const counter = session.malformedUpdates;
    counter.dropped += 1;
    const at = now();
    if (at - counter.lastAuditAt < MALFORMED_UPDATE_AUDIT_MS) return;
    store.recordEvent({
      type: 'malformed_update',
      sessionId: session.sessionId,
      agentId: session.agentId,
      at,
      payload: { problem, dropped: counter.dropped },
    });
    counter.lastAuditAt = at;
    counter.dropped = 0;
  };

  const updates = updateLaneFor(session, deps);
  session.updates = updates;

  return {
    requestPermission: (params: unknown) => {
      // A replay tells what was; nothing of it is asked again, and nothing is decided twice.
      if (session.replaying) {
        session.replaying.requests += 1;
        audit('replay_request_refused', { method: 'session/request_permission' });
        return Promise.reject(
          RequestError.invalidRequest({}, 'no permission request while the session is loading'),
        );
      }
      // What its own tool call declared before it is shown first; the rest of a flood waits.
      updates.beforeRequest(requestedToolCall(params));
      return pipeline.handle(session, params).then((response) => {
        handOnWords(session, response, {
          steer: (text) =>
            session.process
              ? session.process.agent.request(STEER_METHOD, {
                  sessionId: session.acpSessionId,
                  prompt: [{ type: 'text', text }],
                  // Never a new turn: when the turn is over the words wait for the next prompt.
                  _meta: { steering: { idleBehavior: 'promptRequired' } },
                })
              : Promise.reject(new Error('no agent process')),
          shown: (text) => deps.transcripts?.prompted(session.sessionId, text),
        });
        return response;
      });
    },
    elicit: (params: unknown) => {
      if (!pipeline.question) throw RequestError.methodNotFound('elicitation/create');
      return pipeline.question(session, params);
    },
    // Only the agent's claim: it answers nothing and changes nothing, but what an agent says is kept.
    elicitationComplete: (params: unknown) => {
      const parsed = ElicitationComplete.safeParse(params);
      deps.store.recordEvent({
        type: 'question_completed',
        sessionId: session.sessionId,
        agentId: session.agentId,
        at: deps.now(),
        payload: parsed.success
          ? { elicitationId: parsed.data.elicitationId }
          : { malformed: parsed.error.issues.slice(0, 5).map((i) => i.message) },
      });
    },
    writeTextFile: async (params: acp.WriteTextFileRequest) => {
      foreign(params.sessionId);
      const verdict = deps.coverage.write(session, params.path, params.content);
      if (!verdict.covered) {
        const refused = refuseWrite(session, params.path, verdict, deps);
        throw new RequestError(-32602, refused.message, refused.data);
      }
      try {
        const roots = [session.cwd, ...session.additionalDirectories] as const;
        const root = await rootFor(roots, params.path);
        const written = await writeInside(root, params.path, params.content, {
          judgedAt: verdict.real,
        });
        auditWrite(
          session,
          'fs_write',
          { ...written, allowedBy: allowedBy(verdict) },
          verdict,
          deps,
        );
      } catch (error) {
        auditWrite(
          session,
          'fs_write_refused',
          { path: params.path, error: (error as Error).message },
          verdict,
          deps,
        );
        throw error;
      }
    },
    readTextFile: async (params: acp.ReadTextFileRequest) => {
      const refused = (reason: string) => audit('fs_read_refused', { path: params.path, reason });
      if (!session.readsAdvertised) {
        refused('reads not advertised');
        throw RequestError.methodNotFound('fs/read_text_file');
      }
      foreign(params.sessionId);
      let realPath: string;
      try {
        realPath = await realPathOf(params.path);
      } catch (error) {
        refused((error as Error).message);
        throw error;
      }
      const verdict = deps.judgeRead?.(session, realPath) ?? {
        allowed: false,
        reason: 'no read judge',
      };
      if (!verdict.allowed) {
        refused(verdict.reason);
        throw new RequestError(-32602, `Refused: reading ${params.path}: ${verdict.reason}`, {
          path: params.path,
        });
      }
      let read;
      try {
        read = await readJudged(realPath, params.path, params.line, params.limit);
      } catch (error) {
        if ((error as RequestError).code !== RESOURCE_NOT_FOUND) refused((error as Error).message);
        throw error;
      }
      audit('fs_read', {
        path: realPath,
        bytes: read.bytes,
        sha256: read.sha256,
        decider: verdict.decider,
      });
      return { content: read.text };
    },
    malformed: (method: string, problems: string[]) =>
      audit('malformed_request', { method, problems }),
    sessionUpdate: (params: acp.SessionNotification) => {
      // Before anything recursive: tool call tracking, the bus, every client's serialiser.
      const shape = checkJsonShape(params);
      if (shape) {
        malformedUpdate(describeJsonProblem(shape));
        return;
      }
      if (params.sessionId !== session.acpSessionId) return;
      // Shown and audited when it happened: a replay is counted, never shown or tracked again.
      if (session.replaying) {
        session.replaying.updates += 1;
        return;
      }
      // The state a request reads is applied as the update is read, whatever becomes of its display.
      session.trackToolCall(params.update);
      updates.push(params.update);
    },
  };
}

/**
 * Where the session's updates wait to be shown (update-lane.ts): the transcript and the bus, in the
 * order read; a flood holds the agent's output, and is audited once, when it is over.
 */
function updateLaneFor(session: Session, deps: ClientHandlerDeps): UpdateLane {
  const { sessionId, agentId } = session;
  return new UpdateLane({
    show: (shown) => {
      deps.transcripts?.recordAll(sessionId, shown);
      for (const update of shown)
        deps.bus.publish({
          type: 'session_update',
          sessionId,
          update: update as { sessionUpdate: string },
        });
    },
    dropped: (total) => deps.transcripts?.droppedUpdates(sessionId, total),
    floodStarted: () =>
      log.warn(`session ${sessionId}: ${agentId} sends updates faster than they are shown`),
    floodEnded: (flood) => {
      deps.transcripts?.floodEnded(sessionId);
      deps.store.recordEvent({
        type: 'update_flood',
        sessionId,
        agentId,
        at: deps.now(),
        payload: flood,
      });
    },
    hold: (on) => session.process?.holdOutput(on),
    toolCallOf: toolCallIdOf,
  });
}
