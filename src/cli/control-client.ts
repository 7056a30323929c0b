// The client side of the control socket: one connection, requests by id, each answer checked
// against the method's result schema.
import { connect, type Socket } from 'node:net';
import {
  CONTROL_MAX_MESSAGE_BYTES,
  CONTROL_PROTOCOL,
  controlMethods,
  GATEHOUSE_VERSION,
  RpcResponse,
  type ControlClientKind,
  type ControlMethod,
  type ControlParams,
  type ControlResult,
  type HelloResult,
} from '../shared/control-protocol';
import { LineReader } from '../main/control/line-reader';

/** Nothing listens on the socket: no core runs on this home (or one died and left its file). */
export class CoreNotRunningError extends Error {}

export class ControlError extends Error {
  constructor(
    message: string,
    readonly code: number | null = null,
  ) {
    super(message);
  }
}

interface Waiter {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class ControlClient {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  private closedWith: Error | null = null;

  private constructor(
    private readonly socket: Socket,
    private readonly timeoutMs: number,
  ) {
    const reader = new LineReader(CONTROL_MAX_MESSAGE_BYTES);
    socket.on('data', (chunk: Buffer) => {
      for (const event of reader.push(chunk)) {
        if (event.type === 'too_large')
          this.fail(new ControlError('the core sent an oversized message'));
        else this.onLine(event.line);
      }
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new ControlError('the core closed the connection')));
  }

  static connect(path: string, timeoutMs = 5000): Promise<ControlClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ControlError(`no answer from ${path} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new ControlClient(socket, timeoutMs));
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const absent = error.code === 'ENOENT' || error.code === 'ECONNREFUSED';
        reject(absent ? new CoreNotRunningError(`nothing listens on ${path}`) : error);
      });
    });
  }

  /** `timeoutMs: null` waits as long as the connection lasts (a decision a person makes). */
  call<M extends ControlMethod>(
    method: M,
    params?: ControlParams<M>,
    options: { timeoutMs?: number | null } = {},
  ): Promise<ControlResult<M>> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    const message = { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) };
    const timeoutMs = options.timeoutMs === undefined ? this.timeoutMs : options.timeoutMs;
    return new Promise<unknown>((resolve, reject) => {
      const timer =
        timeoutMs === null
          ? undefined
          : setTimeout(() => {
              this.waiting.delete(id);
              reject(new ControlError(`${method}: no answer within ${timeoutMs / 1000} s`));
            }, timeoutMs);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        fn();
      };
      this.waiting.set(id, {
        resolve: (result) => settle(() => resolve(result)),
        reject: (error) => settle(() => reject(error)),
      });
      this.socket.write(`${JSON.stringify(message)}\n`);
    }).then((result) => controlMethods[method].result.parse(result) as ControlResult<M>);
  }

  close(): void {
    this.socket.end();
  }

  private onClosed: (error: Error) => void = () => undefined;
  /** Resolves with why, once the connection is gone (closed by either side, or failed). */
  readonly closed: Promise<Error> = new Promise((resolve) => (this.onClosed = resolve));

  private onLine(line: string): void {
    let parsed;
    try {
      parsed = RpcResponse.safeParse(JSON.parse(line));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) return this.fail(new ControlError('the core sent a malformed message'));
    const response = parsed.data;
    if ('error' in response) {
      const error = new ControlError(response.error.message, response.error.code);
      if (response.id === null) return this.fail(error);
      this.waiting.get(Number(response.id))?.reject(error);
      return;
    }
    this.waiting.get(Number(response.id))?.resolve(response.result);
  }

  private fail(error: Error): void {
    this.closedWith ??= error;
    this.onClosed(this.closedWith);
    for (const waiter of [...this.waiting.values()]) waiter.reject(this.closedWith);
    this.socket.destroy();
  }
}

/** A connection that has said hello as `client`. */
export async function openControl(
  path: string,
  client: ControlClientKind,
  timeoutMs?: number,
): Promise<{ control: ControlClient; hello: HelloResult }> {
  const control = await ControlClient.connect(path, timeoutMs);
  try {
    const hello = await control.call('hello', {
      client,
      version: GATEHOUSE_VERSION,
      protocol: CONTROL_PROTOCOL,
    });
    return { control, hello };
  } catch (error) {
    control.close();
    throw error;
  }
}
