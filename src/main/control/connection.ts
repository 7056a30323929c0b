// What the control server knows of one connection, what a proxy connection owns, and the shape of
// the handlers every control method has.
import type { z } from 'zod';
import type {
  ControlMethod,
  ControlMethods,
  ControlResult,
  HelloParams,
} from '../../shared/control-protocol';
import type { PermissionResponse } from '../../shared/control-proxy';

/** What the server knows of one connection. */
export interface ControlConnection {
  /** Set by a successful hello; every other method waits for it. */
  client: HelloParams | null;
  /** What a proxy opened and submitted on this connection (proxy-methods). */
  proxy?: ProxyState;
}

export type ControlHandlers = {
  [M in ControlMethod]: (
    params: z.output<ControlMethods[M]['params']>,
    connection: ControlConnection,
  ) => ControlResult<M> | Promise<ControlResult<M>>;
};

/** What one proxy connection owns. */
export interface ProxyState {
  /** The editor as a mediator client, for the votes its answers are. */
  editorClientId: string;
  sessions: Set<string>;
  /** Requests waiting for a person, by Gatehouse request id: their session and decision. */
  requests: Map<string, { sessionId: string; decided: Promise<PermissionResponse> }>;
  /** Requests decided lately: the editor's answer may still come, and is audited as a late vote. */
  decided: Set<string>;
}
