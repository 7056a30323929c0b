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
  type ControlNotice,
  type ControlParams,
  type ControlResult,
  type HelloResult,
} from '../shared/control-protocol';
import { LineReader } from '../main/control/line-reader';
import { writesPerTick } from '../main/control/tick-writes';

/**
 * A member whose value is bytes already known to be one JSON value (a line the proxy scanned):
 * spliced into the message as they are, not parsed and encoded again.
 */
export interface RawMember {
  key: string;
  json: Buffer;
}

/** A message as a line: `params` encoded, then `raw` spliced in as its last member. */
function encodeLine(head: string, params: unknown, raw?: RawMember): string | Buffer {
  if (params === undefined) return `${head}}\n`;
  const encoded = JSON.stringify(params);
  if (!raw) return `${head},"params":${encoded}}\n`;
  const open = encoded === '{}' ? '{' : `${encoded.slice(0, -1)},`;
  return Buffer.concat([
    Buffer.from(`${head},"params":${open}${JSON.stringify(raw.key)}:`),
    raw.json,
    Buffer.from('}}\n'),
  ]);
}

const byteLength = (line: string | Buffer) =>
  typeof line === 'string' ? Buffer.byteLength(line) : line.length;

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
  private readonly write: (line: string | Buffer) => void;

  private constructor(
    private readonly socket: Socket,
    private readonly timeoutMs: number,
  ) {
    this.write = writesPerTick(socket);
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

  /**
   * A notice: sent, never answered (what the core made of it is not told). False when it was not
   * sent: the connection is gone, or the message would be over the core's bound.
   */
  notice<M extends ControlNotice>(method: M, params: ControlParams<M>): boolean;
  notice<M extends ControlNotice>(
    method: M,
    params: Partial<ControlParams<M>>,
    raw: RawMember,
  ): boolean;
  notice<M extends ControlNotice>(
    method: M,
    params: Partial<ControlParams<M>>,
    raw?: RawMember,
  ): boolean {
    if (this.closedWith) return false;
    const line = encodeLine(`{"jsonrpc":"2.0","method":${JSON.stringify(method)}`, params, raw);
    if (byteLength(line) > CONTROL_MAX_MESSAGE_BYTES + 1) return false;
    this.write(line);
    return true;
  }

  /**
   * `timeoutMs: null` waits as long as the connection lasts (a decision a person makes); `raw` is
   * spliced into `params`, which then holds the other members.
   */
  call<M extends ControlMethod>(
    method: M,
    params?: ControlParams<M>,
    options?: { timeoutMs?: number | null },
  ): Promise<ControlResult<M>>;
  call<M extends ControlMethod>(
    method: M,
    params: Partial<ControlParams<M>>,
    options: { timeoutMs?: number | null; raw: RawMember },
  ): Promise<ControlResult<M>>;
  call<M extends ControlMethod>(
    method: M,
    params?: Partial<ControlParams<M>>,
    options: { timeoutMs?: number | null; raw?: RawMember } = {},
  ): Promise<ControlResult<M>> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    const line = encodeLine(
      `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}`,
      params,
      options.raw,
    );
    // The core closes a connection that sends more; this one call is refused instead.
    if (byteLength(line) > CONTROL_MAX_MESSAGE_BYTES + 1)
      return Promise.reject(
        new ControlError(
          `${method}: over the ${CONTROL_MAX_MESSAGE_BYTES} bytes a message may hold`,
        ),
      );
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
      this.write(line);
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
