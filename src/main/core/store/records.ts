// Turning domain objects into the rows the store writes. Pure functions, run when a record is queued,
// so a malformed record is refused at the call site and the commit loop only does SQL and hashing.
// Each row object holds exactly the content columns of its table: the audit hash covers this object,
// and verification rebuilds it from the stored columns (projections.ts).
import { z } from 'zod';
import {
  Decision,
  PendingApproval,
  type AgentReply,
  type CommandView,
  type Decider,
  type PreparedDiff,
} from '../../../shared/domain';
import { VoteRecord } from '../../../shared/history';
import { BlobSet, externalize } from './blobs';
import { wellFormed, wellFormedOrNull } from './canonical';
import { StoreInputError } from './errors';

export type SqlValue = string | number | null;

export interface RequestRow {
  request_id: string;
  agent_id: string;
  agent_name: string;
  session_id: string;
  prompt_id: string | null;
  cwd: string;
  tool_call_id: string;
  tool_kind: string;
  title: string;
  tool_call_json: string;
  paths_json: string;
  command_text: string | null;
  command_json: string | null;
  options_json: string;
  warnings_json: string;
  warning_codes: string;
  has_warnings: number;
  diffs_json: string;
  policy: string;
  issued_at: number;
  expires_at: number;
}

export interface VoteRow {
  request_id: string;
  client_id: string | null;
  surface: string | null;
  identity_proven: number;
  option_id: string | null;
  outcome: string;
  at: number;
}

/** The decision columns known from the Decision itself; the writer adds what it reads from the request. */
export interface DecisionInputRow {
  request_id: string;
  agent_id: string;
  session_id: string;
  verdict: 'allow' | 'deny' | 'cancelled';
  outcome: string;
  option_id: string | null;
  option_kind: string | null;
  decider_type: string;
  decider_ref: string | null;
  decider_json: string;
  reason: string;
  decided_at: number;
  latency_ms: number;
  displayed: number;
  /** The person's words with a reject; null without. */
  message: string | null;
}

export interface DecisionRow extends DecisionInputRow {
  tool_kind: string;
  has_warnings: number;
  option_name: string | null;
}

export interface EventRow {
  type: string;
  at: number;
  agent_id: string | null;
  session_id: string | null;
  request_id: string | null;
  payload_json: string;
}

export interface GrantRow {
  grant_id: string;
  agent_id: string;
  scope: string;
  session_id: string | null;
  project_root: string | null;
  grant_json: string;
  created_at: number;
  expires_at: number | null;
}

export interface GrantRevokeRow {
  grant_id: string;
  revoked_at: number;
  revoke_reason: string | null;
}

/** A PreparedDiff as stored: texts moved to blobs. */
export type StoredDiff = Omit<PreparedDiff, 'oldText' | 'newText'> & {
  oldTextBlob: string | null;
  newTextBlob: string | null;
};

export interface PreparedRequest {
  row: RequestRow;
  /** hash -> text of every blob the row refers to. */
  blobs: Map<string, string>;
  /** Parsed copies the writer keeps until the decision, instead of re-reading the row. */
  options: { optionId: string; name: string; kind: string }[];
  paths: string[];
}

/**
 * decided_at must fit the history key (hid = ms << 21, 63 bits): up to year 2109. A clock that far off
 * is a bug upstream; refusing the decision makes the pipeline fail closed instead of mis-ordering history.
 */
export const MAX_DECIDED_AT = 2 ** 42 - 1;

function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new StoreInputError(`Invalid ${what}${where}: ${issue?.message ?? 'malformed'}`);
  }
  return result.data;
}

function json(value: unknown, what: string): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (err) {
    throw new StoreInputError(`Cannot serialise ${what}: ${(err as Error).message}`);
  }
}

const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
function shellWord(word: string): string {
  return word !== '' && SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line as one string: args present means an argv, absent means a shell string. */
export function commandText(command: CommandView | null): string | null {
  if (!command) return null;
  if (command.args === null) return command.command;
  return [command.command, ...command.args].map(shellWord).join(' ');
}

function requestPaths(request: PendingApproval): string[] {
  const paths = new Set<string>();
  for (const location of request.toolCall.locations) paths.add(location.path);
  for (const diff of request.diffs) {
    if (diff.oldPath !== null) paths.add(diff.oldPath);
    paths.add(diff.path);
  }
  return [...paths];
}

export const RequestMeta = z.object({
  /** The prompt turn the request was raised in. */
  promptId: z.string().max(200).nullish(),
});
export type RequestMeta = z.input<typeof RequestMeta>;

/**
 * `trusted`: the caller built the record from parts that were validated where they entered (the
 * pipeline: the agent's request against AcpPermissionRequest, then typed, defensive enrichment), so
 * it is not parsed a second time. Every other caller's input is validated here.
 */
export interface RecordOptions {
  trusted?: boolean;
  /**
   * Originals of the parts the request shows cut (rawInput, content items, …), kept as blobs of the
   * request; its markers name them by the same sha-256.
   */
  originals?: readonly (string | readonly string[])[];
}

export function prepareRequest(
  input: PendingApproval,
  metaInput: RequestMeta = {},
  options: RecordOptions = {},
): PreparedRequest {
  const request = options.trusted ? input : parse(PendingApproval, input, 'request');
  const meta = options.trusted ? metaInput : parse(RequestMeta, metaInput, 'request meta');
  const blobs = new BlobSet();
  for (const original of options.originals ?? [])
    blobs.add(typeof original === 'string' ? original : original.join(''));
  const toolCall = externalize(request.toolCall, blobs);
  const diffs: StoredDiff[] = request.diffs.map(({ oldText, newText, ...rest }) => ({
    ...rest,
    oldTextBlob: oldText === null ? null : blobs.add(oldText),
    newTextBlob: newText === null ? null : blobs.add(newText),
  }));
  const codes = [...new Set(request.warnings.map((w) => w.code))];
  const paths = requestPaths(request).map(wellFormed);
  return {
    options: request.options,
    paths,
    row: {
      request_id: wellFormed(request.requestId),
      agent_id: wellFormed(request.agentId),
      agent_name: wellFormed(request.agentName),
      session_id: wellFormed(request.sessionId),
      prompt_id: wellFormedOrNull(meta.promptId),
      cwd: wellFormed(request.cwd),
      tool_call_id: wellFormed(request.toolCall.toolCallId),
      tool_kind: request.toolCall.kind,
      title: wellFormed(request.toolCall.title),
      tool_call_json: json(toolCall, 'toolCall'),
      paths_json: json(paths, 'paths'),
      command_text: wellFormedOrNull(commandText(request.command)),
      command_json: request.command === null ? null : json(request.command, 'command'),
      options_json: json(request.options, 'options'),
      warnings_json: json(request.warnings, 'warnings'),
      warning_codes: json(codes, 'warning codes'),
      has_warnings: request.warnings.length > 0 ? 1 : 0,
      diffs_json: json(diffs, 'diffs'),
      policy: request.policy,
      issued_at: request.issuedAt,
      expires_at: request.expiresAt,
    },
    blobs: blobs.texts,
  };
}

export function verdictOf(reply: AgentReply): DecisionInputRow['verdict'] {
  if (reply.outcome === 'cancelled') return 'cancelled';
  return reply.optionKind.startsWith('allow') ? 'allow' : 'deny';
}

/** The one identifier that names who or what decided, for display and search. */
export function deciderRef(decider: Decider): string | null {
  switch (decider.type) {
    case 'person':
    case 'voter_cancelled':
      return decider.clientId;
    case 'consensus':
      return decider.clientIds.join(',');
    case 'rule':
      return decider.ruleId;
    case 'grant':
      return decider.grantId;
    case 'mode':
      return decider.mode;
    case 'sandbox':
      return decider.target;
    default:
      return null;
  }
}

export const DecisionMeta = z.object({
  /** issuedAt to decidedAt, as the pipeline measured it. Not checked for sign: a clock stepped back
   * between issue and decision must not make the decision unrecordable. */
  latencyMs: z.number(),
  /** Votes cast on the request, recorded (before the decision) in the decision's transaction. */
  votes: z.array(VoteRecord).optional(),
  /** Whether any client showed the request to a person before it was decided. */
  displayed: z.boolean().optional(),
});
export type DecisionMeta = z.input<typeof DecisionMeta>;

export interface PreparedDecision {
  row: DecisionInputRow;
  votes: VoteRow[];
}

export function prepareDecision(
  input: Decision,
  metaInput: DecisionMeta,
  options: RecordOptions = {},
): PreparedDecision {
  const decision = options.trusted ? input : parse(Decision, input, 'decision');
  const meta = options.trusted ? metaInput : parse(DecisionMeta, metaInput, 'decision meta');
  if (Math.abs(decision.decidedAt) > MAX_DECIDED_AT) {
    throw new StoreInputError(
      `Invalid decision: decidedAt ${decision.decidedAt} is not a plausible time`,
    );
  }
  const { reply } = decision;
  const requestId = wellFormed(decision.requestId);
  const row: DecisionInputRow = {
    request_id: requestId,
    agent_id: wellFormed(decision.agentId),
    session_id: wellFormed(decision.sessionId),
    verdict: verdictOf(reply),
    outcome: reply.outcome,
    option_id: reply.outcome === 'selected' ? wellFormed(reply.optionId) : null,
    option_kind: reply.outcome === 'selected' ? reply.optionKind : null,
    decider_type: decision.decider.type,
    decider_ref: wellFormedOrNull(deciderRef(decision.decider)),
    decider_json: json(decision.decider, 'decider'),
    reason: wellFormed(decision.reason),
    decided_at: decision.decidedAt,
    latency_ms: meta.latencyMs,
    displayed: meta.displayed ? 1 : 0,
    message: wellFormedOrNull(decision.message ?? null),
  };
  return { row, votes: (meta.votes ?? []).map((vote) => voteRow(requestId, vote)) };
}

function voteRow(requestId: string, vote: VoteRecord): VoteRow {
  return {
    request_id: requestId,
    client_id: wellFormedOrNull(vote.clientId),
    surface: vote.surface,
    identity_proven: vote.identityProven ? 1 : 0,
    option_id: wellFormedOrNull(vote.optionId),
    outcome: wellFormed(vote.outcome),
    at: vote.at,
  };
}

export function prepareVote(requestId: string, input: VoteRecord): VoteRow {
  const id = parse(z.string().min(1).max(200), requestId, 'vote request id');
  return voteRow(wellFormed(id), parse(VoteRecord, input, 'vote'));
}

/**
 * Anything audited that is not a request, vote or decision: fs_write, fs_write_refused,
 * malformed_request, late_vote, request_displayed, session_opened (payload.cwd), session_closed,
 * agent_exited, command_previewed (a preview's state, counts and hosts), command_preview_dropped
 * (its request ended first), ... The type is free text; session_opened/session_closed/agent_exited also update the
 * sessions directory.
 */
export const AuditEventInput = z.object({
  type: z.string().min(1).max(100),
  /** Defaults to the store clock. */
  at: z.number().optional(),
  agentId: z.string().max(200).nullish(),
  sessionId: z.string().max(200).nullish(),
  requestId: z.string().max(200).nullish(),
  payload: z.unknown().optional(),
});
export type AuditEventInput = z.input<typeof AuditEventInput>;

export function prepareEvent(input: AuditEventInput, now: number): EventRow {
  const event = parse(AuditEventInput, input, 'event');
  return {
    type: wellFormed(event.type),
    at: event.at ?? now,
    agent_id: wellFormedOrNull(event.agentId),
    session_id: wellFormedOrNull(event.sessionId),
    request_id: wellFormedOrNull(event.requestId),
    payload_json: json(event.payload ?? null, 'event payload'),
  };
}

/**
 * A grant as the rules layer defines it (rules/types.ts GrantSchema). The store indexes the fields
 * below and keeps the whole object, unknown members included, as given.
 */
export const GrantInput = z.looseObject({
  /** Defaults to a new UUID v7. */
  id: z.string().min(1).max(200).optional(),
  agentId: z.string().min(1).max(200),
  scope: z.string().min(1).max(50),
  sessionId: z.string().max(200).nullish(),
  projectRoot: z.string().nullish(),
  /** Defaults to the store clock. */
  createdAt: z.number().optional(),
  expiresAt: z.number().nullish(),
});
export type GrantInput = z.input<typeof GrantInput>;

export function prepareGrant(input: GrantInput, id: string, now: number): GrantRow {
  const grant = parse(GrantInput, input, 'grant');
  const grantId = grant.id ?? id;
  const createdAt = grant.createdAt ?? now;
  return {
    grant_id: wellFormed(grantId),
    agent_id: wellFormed(grant.agentId),
    scope: wellFormed(grant.scope),
    session_id: wellFormedOrNull(grant.sessionId),
    project_root: wellFormedOrNull(grant.projectRoot),
    grant_json: json({ ...grant, id: grantId, createdAt }, 'grant'),
    created_at: createdAt,
    expires_at: grant.expiresAt ?? null,
  };
}
