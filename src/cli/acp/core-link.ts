// The proxy's line to the core: one control connection at a time, opened when first needed,
// started headless when no core runs (if allowed), and opened again after the core went away. The
// editor's ACP sessions are known by their ACP ids; each connection opens them in its core afresh.
import type {
  ActionCheckParams,
  ActionCheckResult,
  PermissionResponse,
  PermissionSubmitResult,
} from '../../shared/control-proxy';
import type { SessionSandbox } from '../../shared/domain';
import type { ControlClient } from '../control-client';
import { CoreNotRunningError, openControl } from '../control-client';

export interface CoreLinkOptions {
  socketPath: string;
  agent: { id: string; name: string; adHoc: boolean };
  sandbox: SessionSandbox;
  /** Why the agent is not guarded (a door Gatehouse cannot close), else null. */
  unguarded: string | null;
  /** Starts a headless core in the background; absent when `proxy.autoStart` is off. */
  startCore?: () => void;
  /** How long a started core has to listen. */
  startTimeoutMs?: number;
  log: (line: string) => void;
}

/** A request a person is asked about, tied to the connection that submitted it. */
export interface Asking {
  requestId: string;
  askEditor: boolean;
  /** The decision; rejects if the core goes away first. */
  decided: Promise<PermissionResponse>;
  /** The editor's answer, a vote (late ones are audited and change nothing). */
  answer(response: PermissionResponse): void;
}

export type Submitted =
  { status: 'decided'; response: PermissionResponse } | ({ status: 'asking' } & Asking);

/** No core can be reached (none runs and none may be started, or it did not come up). */
export class CoreUnavailableError extends Error {}

interface Connection {
  control: ControlClient;
  /** Gatehouse's session id for each ACP session opened on this connection. */
  sessions: Map<string, Promise<string>>;
  /** The same, once the core has answered: what a notice or request can use without waiting. */
  opened: Map<string, string>;
}

/** Notices (updates, turns) held while a connection comes up; an agent's flood past it is dropped. */
const MAX_WAITING_NOTICES = 1000;

export class CoreLink {
  /** What the editor's sessions are: kept across connections. */
  private readonly known = new Map<
    string,
    { cwd: string; modes?: unknown; configOptions?: unknown }
  >();
  private current: Promise<Connection> | null = null;
  private live: Connection | null = null;
  /** Notices waiting for a connection to come up. */
  private waiting = 0;
  /** Notices and requests on their way through the connection's promises; while any is, the
   * next waits behind it instead of overtaking it. */
  private queued = 0;
  /** From the editor's initialize. */
  editor = 'editor';
  /** What the agent called itself in its answer to initialize. */
  agentInfoName?: string;

  constructor(private readonly options: CoreLinkOptions) {}

  /** The agent created or loaded a session for the editor: Gatehouse lists it from now on. */
  opened(
    acpSessionId: string,
    cwd: string,
    advertised: { modes?: unknown; configOptions?: unknown } = {},
  ): void {
    this.known.set(acpSessionId, { cwd, ...advertised });
    void this.connection()
      .then((connection) => this.sessionId(connection, acpSessionId))
      .catch((error: Error) =>
        this.options.log(`gatehouse acp: the session is not in Gatehouse yet: ${error.message}`),
      );
  }

  closed(acpSessionId: string): void {
    // Said before the session is forgotten: the notice needs it known.
    this.notify(acpSessionId, (control, sessionId) =>
      control.notice('session.close', { sessionId }),
    );
    this.known.delete(acpSessionId);
  }

  /** `update`: the bytes of the agent's `update` object, passed on as they are. */
  update(acpSessionId: string, update: Buffer): void {
    this.notify(acpSessionId, (control, sessionId) => {
      if (control.notice('session.update', { sessionId }, { key: 'update', json: update })) return;
      this.options.log(
        `gatehouse acp: an update of ${update.length} bytes is too large for Gatehouse's transcript`,
      );
      control.notice('session.dropped', { sessionId, what: 'update', bytes: update.length });
    });
  }

  /** A permission request too large to submit, refused here: the core audits that it was. */
  dropped(acpSessionId: string, bytes: number): void {
    this.notify(acpSessionId, (control, sessionId) =>
      control.notice('session.dropped', { sessionId, what: 'permission_request', bytes }),
    );
  }

  turn(acpSessionId: string, turn: 'started' | 'ended', text?: string): void {
    this.notify(acpSessionId, (control, sessionId) =>
      control.notice('session.turn', { sessionId, turn, ...(text ? { text } : {}) }),
    );
  }

  cancel(acpSessionId: string): void {
    this.notify(acpSessionId, (control, sessionId) =>
      control.notice('session.cancel', { sessionId }),
    );
  }

  /** `request`: the bytes of the agent's params, one JSON object, passed on as they are. */
  async submit(acpSessionId: string, request: Buffer): Promise<Submitted> {
    const ready = this.ready(acpSessionId);
    let connection: Connection;
    let sessionId: string;
    if (ready) ({ connection, sessionId } = ready);
    else {
      this.queued++;
      try {
        connection = await this.connection();
        sessionId = await this.sessionId(connection, acpSessionId);
      } finally {
        this.queued--;
      }
    }
    const { control } = connection;
    const result: PermissionSubmitResult = await control.call(
      'permission.submit',
      { sessionId },
      { raw: { key: 'request', json: request } },
    );
    if (result.status === 'decided') return result;
    const { requestId } = result;
    return {
      ...result,
      decided: control
        .call('permission.await', { requestId }, { timeoutMs: null })
        .then((answer) => answer.response),
      answer: (response) => {
        control.call('permission.answer', { requestId, response }).catch(() => undefined);
      },
    };
  }

  async check(
    acpSessionId: string,
    params: DistributiveOmit<ActionCheckParams, 'sessionId'>,
  ): Promise<ActionCheckResult> {
    this.queued++;
    let connection: Connection;
    let sessionId: string;
    try {
      connection = await this.connection();
      sessionId = await this.sessionId(connection, acpSessionId);
    } finally {
      this.queued--;
    }
    return connection.control.call('action.check', { ...params, sessionId } as ActionCheckParams);
  }

  close(): void {
    this.live?.control.close();
  }

  /**
   * Fire and forget, over the connection there is or the one on its way (a session opened starts
   * one): an update is not worth starting a core for, but the editor's first prompt, sent while the
   * connection opened for its session comes up, belongs in the transcript. In order: each waits on
   * the same connection, then on its session's open. At most MAX_WAITING_NOTICES wait for a
   * connection at once; past that they are dropped.
   */
  private notify(
    acpSessionId: string,
    send: (control: ControlClient, sessionId: string) => unknown,
  ): void {
    const connection = this.current;
    if (!connection || !this.known.has(acpSessionId)) return;
    // The usual case: the connection is up and the session open in it, nothing queued ahead.
    const ready = this.ready(acpSessionId);
    if (ready) {
      send(ready.connection.control, ready.sessionId);
      return;
    }
    const waits = this.live === null;
    if (waits && this.waiting >= MAX_WAITING_NOTICES) return;
    if (waits) this.waiting++;
    this.queued++;
    void connection
      .finally(() => {
        if (waits) this.waiting--;
      })
      .then((c) => this.sessionId(c, acpSessionId).then((sessionId) => send(c.control, sessionId)))
      .catch(() => undefined)
      .finally(() => this.queued--);
  }

  /** The live connection and the session's id in it, when nothing sent before waits on either. */
  private ready(acpSessionId: string): { connection: Connection; sessionId: string } | null {
    const connection = this.live;
    const sessionId = connection?.opened.get(acpSessionId);
    return connection && sessionId && this.queued === 0 ? { connection, sessionId } : null;
  }

  private sessionId(connection: Connection, acpSessionId: string): Promise<string> {
    let id = connection.sessions.get(acpSessionId);
    if (!id) {
      const known = this.known.get(acpSessionId);
      if (!known) return Promise.reject(new Error(`the agent has no session ${acpSessionId}`));
      id = connection.control
        .call('session.open', {
          agent: this.options.agent,
          editor: this.editor,
          cwd: known.cwd,
          modes: known.modes,
          configOptions: known.configOptions,
          ...(this.agentInfoName ? { agentInfoName: this.agentInfoName.slice(0, 200) } : {}),
          acpSessionId,
          sandbox: this.options.sandbox,
          ...(this.options.unguarded ? { unguarded: this.options.unguarded } : {}),
        })
        .then((opened) => {
          connection.opened.set(acpSessionId, opened.sessionId);
          return opened.sessionId;
        });
      connection.sessions.set(acpSessionId, id);
      // A refused open is asked again next time, not remembered.
      id.catch(() => connection.sessions.delete(acpSessionId));
    }
    return id;
  }

  private connection(): Promise<Connection> {
    this.current ??= this.connect().then(
      (connection) => {
        this.live = connection;
        void connection.control.closed.then(() => {
          this.live = null;
          this.current = null;
        });
        return connection;
      },
      (error: unknown) => {
        this.current = null;
        throw error;
      },
    );
    return this.current;
  }

  private async connect(): Promise<Connection> {
    const { socketPath, startCore } = this.options;
    const attempt = async () => ({
      control: (await openControl(socketPath, 'proxy')).control,
      sessions: new Map(),
      opened: new Map(),
    });
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof CoreNotRunningError)) throw error;
      if (!startCore) {
        throw new CoreUnavailableError('no Gatehouse core is running and proxy.autoStart is off');
      }
    }
    this.options.log('no Gatehouse core is running: starting one in the background');
    startCore();
    const deadline = Date.now() + (this.options.startTimeoutMs ?? 20_000);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof CoreNotRunningError)) throw error;
        if (Date.now() > deadline)
          throw new CoreUnavailableError(
            'the Gatehouse core started in the background did not come up',
          );
      }
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
