import {
  CLIENT_ID_HEADER,
  CLIENT_TOKEN_HEADER,
  commands,
  ErrorBody,
  Event,
  EXPORT_ROWS_HEADER,
  EXPORT_TRUNCATED_HEADER,
  HISTORY_EXPORT_PATH,
  HistoryExportOutcome,
  type HistoryExportInput,
  type CommandInput,
  type CommandName,
  type CommandOutput,
  type GatehouseApi,
  type GatehouseEvent,
} from '../../../shared/contract';
import { ApiError } from './api-error';

interface Identity {
  clientId: string;
  clientToken: string;
}

/**
 * What the page knows of the core: `connecting` until the first answer, `online` while the event
 * stream delivers (events or the heartbeat), `lost` once it has been silent or closed, and
 * `unauthorized` when the core refuses this page's token (changed or rotated).
 */
export type ConnectionState = 'connecting' | 'online' | 'lost' | 'unauthorized';

/** The server beats every second; this long without a byte, the core is taken for gone. */
export const SILENCE_MS = 1600;
/** Silent this long, the stream is dropped and opened anew (a half-open connection never ends). */
const REOPEN_AFTER_MS = 8000;
/** A stream that does not open within this is abandoned (a frozen core accepts, never answers). */
const OPEN_TIMEOUT_MS = 5000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 5000;

/** Fills `:name` path segments from the input; the rest goes to the query (GET) or the body. */
function buildRequest(
  name: CommandName,
  input: Record<string, unknown>,
): { path: string; rest: Record<string, unknown> } {
  const rest = { ...input };
  const path = commands[name].http.path.replace(/:([A-Za-z]+)/g, (_m, key: string) => {
    const value = rest[key];
    delete rest[key];
    return encodeURIComponent(String(value));
  });
  return { path, rest };
}

/** GatehouseApi over the headless server: commands as fetch calls, events from one SSE stream. */
export class HttpApi implements GatehouseApi {
  readonly surface = 'browser' as const;
  private identity: Identity | null = null;
  private isPaired = false;
  private readonly listeners = new Set<(event: GatehouseEvent) => void>();
  private readonly connectionListeners = new Set<(connected: boolean) => void>();
  private readonly stateListeners = new Set<(state: ConnectionState, since: number) => void>();
  private streaming = false;
  private readonly abort = new AbortController();
  private current: ConnectionState = 'connecting';
  /** When the core was last heard from (a byte of the stream, an answer). */
  private lastHeard = Date.now();

  constructor(
    private readonly base: string,
    private readonly token: string,
    /** 'Link' for a single-use approval link (see LinkPage); 'Bearer' for the full API. */
    private readonly scheme: 'Bearer' | 'Link' = 'Bearer',
    /** How a file the server sends is saved (a browser's download); without it, exports fail. */
    private readonly save?: (blob: Blob, filename: string) => void,
  ) {}

  /** Registers an API client: a proven id, but not a person's (votes count as "api (unpaired)"). */
  async connect(label = 'browser', surface: 'browser' | 'api' = 'browser'): Promise<Identity> {
    this.identity = await this.call('registerClient', { surface, label });
    return this.identity;
  }

  /** Pairs with a one-time secret a person handed over; from then on its votes are a person's. */
  async pair(
    pairingSecret: string,
    label: string,
    surface: 'browser' | 'api' = 'browser',
  ): Promise<Identity> {
    this.identity = await this.call('pairClient', { pairingSecret, label, surface });
    this.isPaired = true;
    return this.identity;
  }

  /** Speaks as a client paired earlier (kept by the browser); null forgets it. */
  resume(identity: Identity | null): void {
    this.identity = identity;
    this.isPaired = identity !== null;
  }

  /** Speak as a given client (tests: a spoofed id, a stolen id without its token). */
  actAs(identity: Identity | null): void {
    this.identity = identity;
    this.isPaired = false;
  }

  get paired(): boolean {
    return this.isPaired;
  }

  /** The client this API speaks as, if any. */
  get clientId(): string | null {
    return this.identity?.clientId ?? null;
  }

  /**
   * The address another device opens to pair: this server (at `base`, its network address, when
   * given), its bearer token, the one-time secret.
   */
  pairingUrl(secret: string, base: string = this.base): string {
    return `${base}/#token=${encodeURIComponent(this.token)}&pair=${encodeURIComponent(secret)}`;
  }

  private headers(json: boolean): Record<string, string> {
    const headers: Record<string, string> = { authorization: `${this.scheme} ${this.token}` };
    if (json) headers['content-type'] = 'application/json';
    if (this.identity) {
      headers[CLIENT_ID_HEADER] = this.identity.clientId;
      headers[CLIENT_TOKEN_HEADER] = this.identity.clientToken;
    }
    return headers;
  }

  async call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
    const spec = commands[name];
    const { path, rest } = buildRequest(name, (input ?? {}) as Record<string, unknown>);
    const isGet = spec.http.method === 'GET';
    let url = `${this.base}${path}`;
    if (isGet) {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(rest)) if (v !== undefined) query.set(k, String(v));
      if ([...query].length) url += `?${query}`;
    }
    const response = await fetch(url, {
      method: spec.http.method,
      headers: this.headers(!isGet),
      body: isGet ? undefined : JSON.stringify(rest),
    });
    this.noteAnswer(response.status);
    const body: unknown = await response.json().catch(() => null);
    const error = ErrorBody.safeParse(body);
    if (error.success)
      throw new ApiError(error.data.error.name, error.data.error.message, response.status);
    if (!response.ok && name !== 'vote')
      throw new ApiError('HttpError', `HTTP ${response.status}`, response.status);
    return spec.output.parse(body) as CommandOutput<N>;
  }

  /** The export as the server streams it: the file's bytes, its name, rows and truncation. */
  async fetchExport(input: HistoryExportInput): Promise<HistoryExportOutcome & { blob: Blob }> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(input)) if (v !== undefined) query.set(k, String(v));
    const response = await fetch(`${this.base}${HISTORY_EXPORT_PATH}?${query}`, {
      headers: this.headers(false),
    });
    this.noteAnswer(response.status);
    if (!response.ok) {
      const error = ErrorBody.safeParse(await response.json().catch(() => null));
      if (error.success)
        throw new ApiError(error.data.error.name, error.data.error.message, response.status);
      throw new ApiError('HttpError', `HTTP ${response.status}`, response.status);
    }
    const disposition = /filename="([^"]+)"/.exec(
      response.headers.get('content-disposition') ?? '',
    );
    const outcome = HistoryExportOutcome.parse({
      filename: disposition?.[1],
      rows: Number(response.headers.get(EXPORT_ROWS_HEADER)),
      truncated: response.headers.get(EXPORT_TRUNCATED_HEADER) === 'true',
    });
    return { ...outcome, blob: await response.blob() };
  }

  /** The streamed export, saved as a download. */
  async exportHistory(input: HistoryExportInput): Promise<HistoryExportOutcome> {
    if (!this.save) throw new ApiError('Unsupported', 'nowhere to save a file here');
    const { blob, ...outcome } = await this.fetchExport(input);
    this.save(blob, outcome.filename);
    return outcome;
  }

  subscribe(listener: (event: GatehouseEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.streaming) {
      this.streaming = true;
      void this.stream();
    }
    return () => this.listeners.delete(listener);
  }

  /** Stops the event stream (tests, page teardown). */
  close(): void {
    this.abort.abort();
  }

  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  /** The connection as it is now, and when it became so (for `lost`: when the core was last heard). */
  get state(): { state: ConnectionState; since: number } {
    return { state: this.current, since: this.current === 'lost' ? this.lastHeard : Date.now() };
  }

  /** Every change of the connection's state; also starts the event stream. */
  onStateChange(listener: (state: ConnectionState, since: number) => void): () => void {
    this.stateListeners.add(listener);
    const off = this.subscribe(() => {});
    return () => {
      this.stateListeners.delete(listener);
      off();
    };
  }

  private setState(state: ConnectionState): void {
    if (state === this.current) return;
    const was = this.current;
    this.current = state;
    const since = state === 'lost' ? this.lastHeard : Date.now();
    for (const l of this.stateListeners) l(state, since);
    // Coming back is the moment to re-read what changed meanwhile; leaving, the moment to stop.
    if (state === 'online') for (const l of this.connectionListeners) l(true);
    else if (was === 'online') for (const l of this.connectionListeners) l(false);
  }

  /** A refused token is the one thing a retry cannot fix; any other answer means the core is there. */
  private noteAnswer(status: number): void {
    if (this.scheme !== 'Bearer') return;
    if (status === 401) this.setState('unauthorized');
    else this.lastHeard = Date.now();
  }

  /**
   * SSE over fetch (EventSource cannot send the bearer token); reconnects with backoff. The server
   * beats every second, so silence, not only a closed connection, tells the page the core is gone.
   */
  private async stream(): Promise<void> {
    let delay = BACKOFF_MIN_MS;
    for (;;) {
      const attempt = new AbortController();
      const stop = () => attempt.abort();
      this.abort.signal.addEventListener('abort', stop);
      let silence: ReturnType<typeof setTimeout> | undefined;
      let reopen: ReturnType<typeof setTimeout> | undefined;
      const heard = () => {
        this.lastHeard = Date.now();
        clearTimeout(silence);
        clearTimeout(reopen);
        silence = setTimeout(() => this.setState('lost'), SILENCE_MS);
        reopen = setTimeout(stop, REOPEN_AFTER_MS);
      };
      const opening = setTimeout(stop, OPEN_TIMEOUT_MS);
      try {
        const response = await fetch(`${this.base}/api/events`, {
          headers: this.headers(false),
          signal: attempt.signal,
        });
        clearTimeout(opening);
        this.noteAnswer(response.status);
        if (!response.ok || !response.body) throw new Error(`events: HTTP ${response.status}`);
        heard();
        this.setState('online');
        delay = BACKOFF_MIN_MS;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        // Only the part not searched yet is searched for the blank line that ends a frame, so a
        // multi-megabyte event (a large diff) costs linear time, not quadratic.
        let buffer = '';
        let scanFrom = 0;
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          heard();
          this.setState('online');
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n', scanFrom)) >= 0) {
            this.dispatchFrame(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            scanFrom = 0;
          }
          scanFrom = Math.max(0, buffer.length - 1);
        }
      } catch {
        // fall through to reconnect
      } finally {
        clearTimeout(opening);
        clearTimeout(silence);
        clearTimeout(reopen);
        this.abort.signal.removeEventListener('abort', stop);
      }
      if (this.current !== 'unauthorized') this.setState('lost');
      if (this.abort.signal.aborted) return;
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, BACKOFF_MAX_MS);
    }
  }

  private dispatchFrame(frame: string): void {
    const data = frame
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6))
      .join('\n');
    if (!data) return;
    const parsed = Event.safeParse(JSON.parse(data));
    if (!parsed.success) {
      console.warn('event outside the contract ignored', parsed.error);
      return;
    }
    for (const listener of this.listeners) listener(parsed.data);
  }
}
