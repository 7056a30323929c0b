// The first step of a request's path: what the agent sent is checked for its shape (before anything
// recursive touches it), parsed against what Gatehouse accepts, and matched to the agent's own
// session. Every refusal is audited before the agent hears it.
import { RequestError } from '@agentclientprotocol/sdk';
import { checkJsonShape, describeJsonProblem } from '../safety/json-guard';
import type { Store } from '../store';
import { AcpPermissionRequest } from './acp-request';
import { malformedEvent, shapeRefusedEvent } from './announcements';
import type { SessionContext } from './session-context';

type Audit = Pick<Store, 'recordEvent'>;

/** Audits a request refused before anyone saw it. */
export function refuseRequest(
  store: Audit,
  session: SessionContext,
  requestId: string,
  raw: unknown,
  problems: string[],
  at: number,
): void {
  store.recordEvent(malformedEvent(session, requestId, raw, problems, at));
}

/** The validated request, or an `invalidParams` error thrown once the refusal is audited. */
export function admitRequest(
  store: Audit,
  session: SessionContext,
  requestId: string,
  raw: unknown,
  at: number,
): AcpPermissionRequest {
  // Before anything recursive (zod, the safety layer, the audit's serialiser) touches it.
  const shape = checkJsonShape(raw);
  if (shape) {
    const problem = describeJsonProblem(shape);
    store.recordEvent(shapeRefusedEvent(session, requestId, problem, shape, at));
    throw RequestError.invalidParams({ problem }, `session/request_permission refused: ${problem}`);
  }
  const parsed = AcpPermissionRequest.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    refuseRequest(store, session, requestId, raw, problems, at);
    throw RequestError.invalidParams(
      { issues: parsed.error.issues },
      'malformed session/request_permission',
    );
  }
  const request = parsed.data;
  if (request.sessionId !== session.acpSessionId) {
    const problem = `sessionId ${request.sessionId} is not this agent's session`;
    refuseRequest(store, session, requestId, raw, [problem], at);
    throw RequestError.invalidParams(undefined, `unknown session ${request.sessionId}`);
  }
  return request;
}
