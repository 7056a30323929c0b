// The editor ↔ agent relay of `gatehouse acp`. Every line passes unchanged, in order, with these
// exceptions: a permission request goes to the core first (and to the editor only when a person is
// asked), the editor's answer to it goes to the core as a vote, and a write or a terminal the agent
// asks of the editor passes only when the core says a decision covers it. Everything else — methods
// it knows, extension methods, anything unknown — it only reads a copy of.
import { createHash } from 'node:crypto';
import type { PermissionResponse } from '../../shared/control-proxy';
import { MessageTooLargeError } from '../control-client';
import { CoreUnavailableError, type CoreLink } from './core-link';
import {
  classifyLine,
  idKey,
  lineText,
  paramBytes,
  paramsBytes,
  paramText,
  readMessage,
  rpcLine,
  type Classified,
  type RpcMessage,
} from './lines';

export interface RelayIo {
  /** Whole lines, the newline included. */
  toAgent(line: Buffer | string): void;
  toEditor(line: Buffer | string): void;
  log(line: string): void;
}

type Link = Pick<
  CoreLink,
  'opened' | 'closed' | 'update' | 'turn' | 'cancel' | 'submit' | 'check' | 'dropped'
> & {
  editor: string;
  agentInfoName?: string;
};

/** What an editor request is about, until the agent answers it. */
type EditorRequest =
  | { method: 'initialize' }
  | { method: 'session/new'; cwd: string }
  | { method: 'session/load' | 'session/resume'; cwd: string; acpSessionId: string }
  | { method: 'session/prompt' | 'session/close'; acpSessionId: string };

/** A permission request shown to the editor, until the editor answers (or long after, late). */
interface ShownToEditor {
  answer(response: PermissionResponse): void;
  /** The agent has been answered; what the editor says now is a late vote. */
  done: boolean;
}

const MAX_LATE_KEPT = 256;
/** What the agent asks of the editor that Gatehouse decides or checks first. */
const GATED = new Set(['session/request_permission', 'fs/write_text_file', 'terminal/create']);
/** What the editor asks or tells the agent that the core lists (read whole; the rest is not). */
const WATCHED = new Set([
  'initialize',
  'session/new',
  'session/load',
  'session/resume',
  'session/prompt',
  'session/close',
  'session/cancel',
]);
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 ? value : null;

/** The agent's reject option (by kind, never by id), or `cancelled` when it offers none. */
export function rejectResponse(params: unknown): PermissionResponse {
  const options = Array.isArray(record(params).options)
    ? (record(params).options as unknown[])
    : [];
  for (const kind of ['reject_once', 'reject_always']) {
    const option = options.map(record).find((o) => o.kind === kind && text(o.optionId));
    if (option) return { outcome: { outcome: 'selected', optionId: option.optionId as string } };
  }
  return { outcome: { outcome: 'cancelled' } };
}

/** The modes a session answer advertised, when small enough to send (they tell which do not ask). */
function modesOf(result: unknown): { modes?: unknown; configOptions?: unknown } {
  const { modes, configOptions } = record(result);
  const size = JSON.stringify({ modes, configOptions }).length;
  return size > 256 * 1024 ? {} : { modes, configOptions };
}

/** The text blocks of a prompt, for the transcript; cut where the core stops reading. */
function promptText(prompt: unknown): string {
  const blocks = Array.isArray(prompt) ? prompt.map(record) : [];
  return blocks
    .flatMap((block) =>
      block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
    )
    .join('\n')
    .slice(0, 256 * 1024);
}

function permissionResult(response: unknown): PermissionResponse | null {
  const outcome = record(record(response).outcome);
  if (outcome.outcome === 'cancelled') return { outcome: { outcome: 'cancelled' } };
  const optionId = text(outcome.optionId);
  return outcome.outcome === 'selected' && optionId
    ? { outcome: { outcome: 'selected', optionId } }
    : null;
}

export class AcpRelay {
  private readonly editorRequests = new Map<string, EditorRequest>();
  private readonly shown = new Map<string, ShownToEditor>();
  /** Agent → editor lines wait for the write or terminal check ahead of them; null when none is. */
  private checking: Promise<void> | null = null;

  constructor(
    private readonly link: Link,
    private readonly io: RelayIo,
  ) {}

  fromEditor(line: Buffer): void {
    const seen = classifyLine(line);
    // Read whole only what the relay acts on: an answer to a request the editor was shown, a method
    // the core lists. A line the scan cannot read is read as it was before: the editor is not the
    // adversary, and whatever it sends goes to the agent either way.
    const acts =
      seen.kind === 'other' ||
      (seen.kind === 'response' ? this.shown.has(idKey(seen.id)) : WATCHED.has(seen.method));
    if (acts) {
      const message = readMessage(lineText(line));
      if (message.kind === 'response' && this.answerFromEditor(message)) return;
      if (message.kind === 'request' || message.kind === 'notification') this.watchEditor(message);
    }
    this.io.toAgent(line);
  }

  fromAgent(line: Buffer): void {
    const message = classifyLine(line);
    // Only a single JSON-RPC message passes: a batch, a line that is not one, or one that names a
    // key twice (parsers differ on which one counts) could carry a request the editor would act on
    // without Gatehouse reading it first.
    if (message.kind === 'other') {
      this.io.log(
        message.why === 'a key twice'
          ? 'gatehouse acp: dropped a line from the agent that names a key twice'
          : 'gatehouse acp: dropped a line from the agent that is not one JSON-RPC message',
      );
      return;
    }
    if (message.kind !== 'response' && GATED.has(message.method)) {
      if (message.kind === 'notification') {
        this.io.log(`gatehouse acp: dropped ${message.method} sent without an id`);
        return;
      }
      if (message.method === 'session/request_permission') {
        void this.permission(line, message);
        return;
      }
    }
    const needsCheck = message.kind === 'request' && GATED.has(message.method);
    if (!this.checking && !needsCheck) return this.passAgentLine(line, message);
    // Order is kept: this line, and every line behind it, waits for the check ahead.
    const next = (this.checking ?? Promise.resolve()).then(async () => {
      if (needsCheck && message.kind === 'request') {
        const refusal = await this.refusal(message.method, record(this.paramsOf(line)));
        if (refusal) {
          this.io.toAgent(
            rpcLine({ id: message.id, error: { code: INVALID_PARAMS, message: refusal } }),
          );
          return;
        }
      }
      this.passAgentLine(line, message);
    });
    this.checking = next;
    void next.then(() => {
      if (this.checking === next) this.checking = null;
    });
  }

  private watchEditor(message: Extract<RpcMessage, { kind: 'request' | 'notification' }>): void {
    const params = record(message.params);
    const acpSessionId = text(params.sessionId);
    const remember = (request: EditorRequest) => {
      if (message.kind === 'request') this.editorRequests.set(idKey(message.id), request);
    };
    switch (message.method) {
      case 'initialize':
        this.link.editor =
          text(record(params.clientInfo).title) ?? text(record(params.clientInfo).name) ?? 'editor';
        remember({ method: 'initialize' });
        return;
      case 'session/new':
        if (text(params.cwd)) remember({ method: 'session/new', cwd: params.cwd as string });
        return;
      case 'session/load':
      case 'session/resume':
        if (acpSessionId && text(params.cwd))
          remember({ method: message.method, cwd: params.cwd as string, acpSessionId });
        return;
      case 'session/prompt':
        if (!acpSessionId) return;
        remember({ method: 'session/prompt', acpSessionId });
        this.link.turn(acpSessionId, 'started', promptText(params.prompt));
        return;
      case 'session/close':
        if (acpSessionId) remember({ method: 'session/close', acpSessionId });
        return;
      case 'session/cancel':
        if (acpSessionId) this.link.cancel(acpSessionId);
        return;
    }
  }

  /** The params read whole: only for what the relay acts on, never to decide what a line is. */
  private paramsOf(line: Buffer): unknown {
    const message = readMessage(lineText(line));
    return message.kind === 'request' || message.kind === 'notification' ? message.params : null;
  }

  /** The agent answered an editor request: what it says of its sessions is passed on to the core. */
  private watchAgentResponse(line: Buffer, id: string | number): void {
    const request = this.editorRequests.get(idKey(id));
    if (!request) return;
    this.editorRequests.delete(idKey(id));
    const message = readMessage(lineText(line));
    if (message.kind !== 'response') return;
    const failed = message.error !== undefined;
    switch (request.method) {
      case 'initialize':
        this.link.agentInfoName = text(record(record(message.result).agentInfo).name) ?? undefined;
        return;
      case 'session/new': {
        const acpSessionId = text(record(message.result).sessionId);
        if (!failed && acpSessionId)
          this.link.opened(acpSessionId, request.cwd, modesOf(message.result));
        return;
      }
      case 'session/load':
      case 'session/resume':
        if (!failed) this.link.opened(request.acpSessionId, request.cwd, modesOf(message.result));
        return;
      case 'session/prompt':
        this.link.turn(request.acpSessionId, 'ended');
        return;
      case 'session/close':
        if (!failed) this.link.closed(request.acpSessionId);
        return;
    }
  }

  /**
   * Passes the line on, and what the core lists of it: an answer to an editor request it watches
   * (read whole), an update (its bytes, not read here: the core reads them). The editor's copy
   * does not wait for the core's, nor the core's for the editor's.
   */
  private passAgentLine(line: Buffer, message: Exclude<Classified, { kind: 'other' }>): void {
    this.io.toEditor(line);
    if (message.kind === 'response') this.watchAgentResponse(line, message.id);
    if (message.kind === 'notification' && message.method === 'session/update') {
      const acpSessionId = paramText(line, message.scan, 'sessionId');
      const update = paramBytes(line, message.scan, 'update');
      if (acpSessionId && update) this.link.update(acpSessionId, update);
    }
  }

  /** Why the editor must not be asked to write or run this; null when a decision covers it. */
  private async refusal(method: string, params: Record<string, unknown>): Promise<string | null> {
    const acpSessionId = text(params.sessionId);
    if (!acpSessionId) return `Refused: ${method} without a session`;
    try {
      if (method === 'fs/write_text_file') {
        const path = text(params.path);
        const content = typeof params.content === 'string' ? params.content : null;
        if (!path || content === null)
          return 'Refused: fs/write_text_file needs a path and a content';
        const sha256 = createHash('sha256').update(content, 'utf8').digest('hex');
        const bytes = Buffer.byteLength(content, 'utf8');
        const verdict = await this.link.check(acpSessionId, { kind: 'write', path, sha256, bytes });
        return verdict.allowed ? null : verdict.message;
      }
      const command = text(params.command);
      if (!command) return 'Refused: terminal/create needs a command';
      const args = Array.isArray(params.args)
        ? params.args.filter((a): a is string => typeof a === 'string')
        : [];
      const cwd = text(params.cwd);
      const verdict = await this.link.check(acpSessionId, { kind: 'terminal', command, args, cwd });
      return verdict.allowed ? null : verdict.message;
    } catch (error) {
      return `Refused: Gatehouse could not check it: ${(error as Error).message}`;
    }
  }

  private async permission(
    line: Buffer,
    message: Extract<Classified, { kind: 'request' }>,
  ): Promise<void> {
    const { id } = message;
    const answer = (response: PermissionResponse) =>
      this.io.toAgent(rpcLine({ id, result: response }));
    const acpSessionId = paramText(line, message.scan, 'sessionId');
    const request = paramsBytes(line, message.scan);
    // The params are read whole only when the relay answers without the core's word.
    const params = () => this.paramsOf(line);
    let submitted;
    try {
      if (!acpSessionId || !request) throw new Error('a permission request without a session');
      submitted = await this.link.submit(acpSessionId, request);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'number' && code !== INTERNAL_ERROR) {
        // The core refused the request itself (malformed): the agent hears why, as from a client.
        this.io.toAgent(rpcLine({ id, error: { code, message: (error as Error).message } }));
        return;
      }
      const why =
        error instanceof CoreUnavailableError || error instanceof MessageTooLargeError
          ? error.message
          : `Gatehouse is unreachable: ${(error as Error).message}`;
      this.io.log(`gatehouse acp: refused a permission request: ${why}`);
      if (error instanceof MessageTooLargeError && acpSessionId)
        this.link.dropped(acpSessionId, request?.length ?? line.length);
      answer(rejectResponse(params()));
      return;
    }
    if (submitted.status === 'decided') return answer(submitted.response);
    const key = idKey(id);
    const shown: ShownToEditor | null = submitted.askEditor
      ? { answer: submitted.answer, done: false }
      : null;
    if (shown) {
      this.shown.set(key, shown);
      this.io.toEditor(line);
    }
    let response: PermissionResponse;
    try {
      response = await submitted.decided;
    } catch (error) {
      this.io.log(
        `gatehouse acp: the core went away while a request waited: ${(error as Error).message}`,
      );
      response = rejectResponse(params());
    }
    answer(response);
    if (!shown) return;
    if (shown.done) {
      // The editor answered first; nothing of it is left to wait for.
      this.shown.delete(key);
      return;
    }
    // Gatehouse decided first: the editor stops asking, and an answer it still sends is a late vote.
    shown.done = true;
    this.io.toEditor(rpcLine({ method: '$/cancel_request', params: { requestId: id } }));
    this.forgetOldest();
  }

  /** The editor answered a request it was shown: a vote, never passed to the agent itself. */
  private answerFromEditor(message: Extract<RpcMessage, { kind: 'response' }>): boolean {
    const key = idKey(message.id);
    const shown = this.shown.get(key);
    if (!shown) return false;
    const response = permissionResult(message.result);
    if (shown.done) this.shown.delete(key);
    else shown.done = true;
    // An error (the editor saw the cancel, or cannot show it) is no vote.
    if (response && message.error === undefined) shown.answer(response);
    return true;
  }

  private forgetOldest(): void {
    const late = [...this.shown].filter(([, shown]) => shown.done);
    for (const [key] of late.slice(0, Math.max(0, late.length - MAX_LATE_KEPT)))
      this.shown.delete(key);
  }
}
