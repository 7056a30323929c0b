// One OTel log record per audited request, vote and decision. The attribute names are a stable
// interface (docs/telemetry.md lists them): collectors, dashboards and alerts are written against them.
import { SeverityNumber, type Attributes, type LogRecord } from '@opentelemetry/api';
import type { FeedEntry, FeedRequest } from '../store';

export const ATTR = {
  auditSeq: 'gatehouse.audit.seq',
  auditHash: 'gatehouse.audit.hash',
  auditKind: 'gatehouse.audit.kind',
  requestId: 'gatehouse.request.id',
  agentId: 'gatehouse.agent.id',
  agentName: 'gatehouse.agent.name',
  sessionId: 'gatehouse.session.id',
  promptId: 'gatehouse.prompt.id',
  cwd: 'gatehouse.cwd',
  toolKind: 'gatehouse.tool.kind',
  toolTitle: 'gatehouse.tool.title',
  command: 'gatehouse.command',
  paths: 'gatehouse.paths',
  warningCodes: 'gatehouse.warning.codes',
  policy: 'gatehouse.policy',
  diffs: 'gatehouse.diffs',
  voteOutcome: 'gatehouse.vote.outcome',
  voteOption: 'gatehouse.vote.option_id',
  voteProven: 'gatehouse.vote.identity_proven',
  clientId: 'gatehouse.client.id',
  surface: 'gatehouse.surface',
  decision: 'gatehouse.decision',
  decisionOutcome: 'gatehouse.decision.outcome',
  decisionOption: 'gatehouse.decision.option_id',
  decisionOptionKind: 'gatehouse.decision.option_kind',
  decisionReason: 'gatehouse.decision.reason',
  deciderType: 'gatehouse.decider.type',
  deciderRef: 'gatehouse.decider.ref',
  latencyMs: 'gatehouse.latency_ms',
} as const;

/** The event names, one per kind of audited entry. */
export const EVENT = {
  request: 'gatehouse.request',
  vote: 'gatehouse.vote',
  decision: 'gatehouse.decision',
} as const;

export interface RecordOptions {
  /** Diff contents go out only when the person asked for them (`logPrompts`). */
  contents: boolean;
}

/** Attributes without a value are left out, not sent empty: absent and empty mean different things. */
function put(
  attributes: Attributes,
  key: string,
  value: string | number | boolean | string[] | null,
) {
  if (value !== null) attributes[key] = value;
}

function requestAttributes(request: FeedRequest): Attributes {
  const a: Attributes = {
    [ATTR.requestId]: request.requestId,
    [ATTR.agentId]: request.agentId,
    [ATTR.agentName]: request.agentName,
    [ATTR.sessionId]: request.sessionId,
    [ATTR.cwd]: request.cwd,
    [ATTR.toolKind]: request.toolKind,
    [ATTR.toolTitle]: request.title,
    [ATTR.paths]: request.paths,
    [ATTR.warningCodes]: request.warningCodes,
    [ATTR.policy]: request.policy,
  };
  put(a, ATTR.promptId, request.promptId);
  put(a, ATTR.command, request.commandText);
  return a;
}

/** The log record of one audit entry: its time is the entry's own, its identity the chain's. */
export function logRecordOf(entry: FeedEntry, options: RecordOptions): LogRecord {
  const attributes: Attributes = {
    [ATTR.auditSeq]: entry.seq,
    [ATTR.auditHash]: entry.hash,
    [ATTR.auditKind]: entry.kind,
    ...requestAttributes(entry.request),
  };
  const record = (timestamp: number, body: string, severity = SeverityNumber.INFO): LogRecord => ({
    eventName: EVENT[entry.kind],
    timestamp,
    severityNumber: severity,
    severityText: severity === SeverityNumber.WARN ? 'WARN' : 'INFO',
    body,
    attributes,
  });
  switch (entry.kind) {
    case 'request':
      if (options.contents && entry.request.diffs && entry.request.diffs.length > 0) {
        attributes[ATTR.diffs] = JSON.stringify(entry.request.diffs);
      }
      return record(entry.request.issuedAt, `${entry.request.toolKind}: ${entry.request.title}`);
    case 'vote': {
      const { vote } = entry;
      attributes[ATTR.voteOutcome] = vote.outcome;
      attributes[ATTR.voteProven] = vote.identityProven;
      put(attributes, ATTR.voteOption, vote.optionId);
      put(attributes, ATTR.clientId, vote.clientId);
      put(attributes, ATTR.surface, vote.surface);
      return record(vote.at, `vote ${vote.outcome}${vote.optionId ? ` ${vote.optionId}` : ''}`);
    }
    case 'decision': {
      const { decision } = entry;
      attributes[ATTR.decision] = decision.verdict;
      attributes[ATTR.decisionOutcome] = decision.outcome;
      attributes[ATTR.decisionReason] = decision.reason;
      attributes[ATTR.deciderType] = decision.deciderType;
      attributes[ATTR.latencyMs] = decision.latencyMs;
      put(attributes, ATTR.deciderRef, decision.deciderRef);
      put(attributes, ATTR.decisionOption, decision.optionId);
      put(attributes, ATTR.decisionOptionKind, decision.optionKind);
      const surface = decision.decider.surface;
      put(attributes, ATTR.surface, typeof surface === 'string' ? surface : null);
      return record(
        decision.decidedAt,
        `${decision.verdict} by ${decision.deciderType}: ${decision.reason}`,
        decision.verdict === 'allow' ? SeverityNumber.INFO : SeverityNumber.WARN,
      );
    }
  }
}
