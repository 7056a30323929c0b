// One decided request, whole: what was asked (as the agent sent it), what Gatehouse found in it,
// what was offered, every vote, and who or what decided.
import { useEffect, useState } from 'react';
import type { HistoryDetail as Detail, VoteRecord } from '../../../shared/history';
import type { Grant } from '../../../shared/rules';
import { useApi } from '../api/context';
import { CommandBlock } from '../approvals/CommandBlock';
import { KindBadge } from '../approvals/KindBadge';
import { WarningList } from '../approvals/WarningList';
import { FileIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { DiffList } from '../diff/DiffList';
import { DiffModeToggle } from '../diff/DiffModeToggle';
import { useDiffMode } from '../diff/use-diff-mode';
import { Button } from '../ui/Button';
import { Stack } from '../ui/Stack';
import { ActualChanges } from './ActualChanges';
import { DecisionBadge } from './DecisionBadge';
import { DetailSection } from './DetailSection';
import { FollowingWrites } from './FollowingWrites';
import { decisionOf, deciderWords, formatDateTime, shortId } from './words';
import './HistoryDetail.css';

/** Raw input past this many characters is cut in the view (the export and the API keep it whole). */
const RAW_INPUT_MAX = 100_000;

interface Props {
  requestId: string;
  onMakeRule(detail: Detail): void;
  onFilterSession(sessionId: string): void;
}

type Loaded =
  { requestId: string; detail: Detail; grant?: Grant } | { requestId: string; error: string };

function seconds(ms: number): string {
  return ms < 1000
    ? `${ms} ms`
    : ms < 120_000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${Math.round(ms / 60_000)} min`;
}

function rawInputText(raw: unknown): string {
  if (raw === undefined) return '';
  const text = JSON.stringify(raw, null, 2) ?? String(raw);
  return text.length > RAW_INPUT_MAX
    ? `${text.slice(0, RAW_INPUT_MAX)}\n… (${text.length - RAW_INPUT_MAX} more characters)`
    : text;
}

export function HistoryDetail({ requestId, onMakeRule, onFilterSession }: Props) {
  const api = useApi();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [mode, setMode] = useDiffMode();

  useEffect(() => {
    let stale = false;
    (async () => {
      try {
        const detail = await api.call('historyDetail', { requestId });
        let grant: Grant | undefined;
        if (detail.decider.type === 'grant') {
          const id = detail.decider.grantId;
          const grants = await api.call('listGrants', { includeInactive: true }).catch(() => []);
          grant = grants.find((g) => g.grant.id === id)?.grant;
        }
        if (!stale) setLoaded({ requestId, detail, ...(grant ? { grant } : {}) });
      } catch (error) {
        if (!stale) setLoaded({ requestId, error: (error as Error).message });
      }
    })();
    return () => {
      stale = true;
    };
  }, [api, requestId]);

  if (!loaded || loaded.requestId !== requestId) {
    return (
      <p className="hv-detail-status" role="status">
        Loading the request…
      </p>
    );
  }
  if ('error' in loaded) {
    return (
      <p className="hv-detail-status error" role="alert">
        This request could not be loaded: {loaded.error}
      </p>
    );
  }
  const { detail, grant } = loaded;
  const decision = decisionOf(detail.reply);
  const words = deciderWords(detail.reply, detail.decider, {
    displayed: detail.displayed,
    ...(grant ? { grant } : {}),
  });
  const chosen = detail.reply.outcome === 'selected' ? detail.reply.optionId : null;
  const optionName = (id: string | null) =>
    id === null ? 'Cancel' : (detail.options.find((o) => o.optionId === id)?.name ?? id);
  const raw = rawInputText(detail.toolCall.rawInput);

  return (
    <article className="hv-detail-body" aria-labelledby="hv-detail-title">
      <p className="hv-eyebrow">
        <KindBadge kind={detail.toolKind} />
        <span>{detail.agentId}</span>
        <span aria-hidden="true">·</span>
        <span>{formatDateTime(detail.decidedAt)}</span>
      </p>
      <h2 id="hv-detail-title" className="hv-detail-title" tabIndex={-1}>
        <Revealed text={detail.title || '(no title)'} />
      </h2>

      <div className={`hv-verdict ${decision}`}>
        <DecisionBadge decision={decision} />
        <div>
          <p className="hv-verdict-words" data-testid="decider">
            {words}
          </p>
          <p className="hv-verdict-reason">
            {detail.optionName && (
              <>
                Option <strong>{detail.optionName}</strong> ·{' '}
              </>
            )}
            <span className="dim">reason:</span> <Revealed text={detail.reason} />
          </p>
          {detail.message && (
            <p className="hv-reject-message" aria-label="the person's message to the agent">
              <span className="dim">Rejected:</span> <Revealed text={detail.message} />
            </p>
          )}
        </div>
      </div>

      <div className="hv-detail-actions">
        <Button variant="primary" onClick={() => onMakeRule(detail)}>
          Make this a rule…
        </Button>
        <button type="button" onClick={() => onFilterSession(detail.sessionId)}>
          Only this session
        </button>
      </div>

      <WarningList warnings={detail.warnings} />

      {detail.command && <CommandBlock command={detail.command} sessionCwd={detail.cwd} />}

      {detail.diffs.length > 0 && (
        <DetailSection
          titleId="hv-diff-title"
          title="Changes"
          aside={<DiffModeToggle mode={mode} onChange={setMode} />}
        >
          <DiffList diffs={detail.diffs} mode={mode} />
        </DetailSection>
      )}

      <FollowingWrites detail={detail} />

      <ActualChanges key={detail.requestId} detail={detail} />

      {detail.paths.length > 0 && (
        <DetailSection titleId="hv-paths-title" title="Paths">
          <Stack className="hv-paths">
            {detail.paths.map((p, i) => (
              <li key={i}>
                <FileIcon />
                <code>
                  <Revealed text={p} />
                </code>
              </li>
            ))}
          </Stack>
        </DetailSection>
      )}

      <DetailSection titleId="hv-options-title" title="Options offered">
        <Stack className="hv-options">
          {detail.options.map((o) => (
            <li key={o.optionId} className={o.optionId === chosen ? 'chosen' : undefined}>
              <span className={`hv-option-kind ${o.kind.startsWith('allow') ? 'allow' : 'deny'}`}>
                {o.kind}
              </span>
              <Revealed text={o.name} />
              <code className="dim">{o.optionId}</code>
              {o.optionId === chosen && <span className="hv-chosen">chosen</span>}
            </li>
          ))}
        </Stack>
      </DetailSection>

      <DetailSection titleId="hv-votes-title" title="Votes">
        {detail.votes.length === 0 ? (
          <p className="dim">No votes: {words.charAt(0).toLowerCase() + words.slice(1)}.</p>
        ) : (
          <div className="hv-table-wrap">
            <table className="hv-votes">
              <thead>
                <tr>
                  <th scope="col">Client</th>
                  <th scope="col">Surface</th>
                  <th scope="col">Identity</th>
                  <th scope="col">Option</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Time</th>
                </tr>
              </thead>
              <tbody>
                {detail.votes.map((v: VoteRecord, i) => (
                  <tr key={i}>
                    <td>
                      <code title={v.clientId ?? undefined}>
                        {v.clientId ? shortId(v.clientId) : 'anonymous'}
                      </code>
                    </td>
                    <td>{v.surface ?? '—'}</td>
                    <td>
                      <span className={`hv-proof ${v.identityProven ? 'proven' : 'unproven'}`}>
                        {v.identityProven ? 'proven' : 'not proven'}
                      </span>
                    </td>
                    <td>
                      <Revealed text={optionName(v.optionId)} />
                    </td>
                    <td>{v.outcome}</td>
                    <td>{formatDateTime(v.at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </DetailSection>

      <DetailSection titleId="hv-request-title" title="Request">
        <dl className="hv-facts">
          <dt>Agent</dt>
          <dd>{detail.agentId}</dd>
          <dt>Session</dt>
          <dd>
            <code title={detail.sessionId}>{detail.sessionId}</code>
          </dd>
          <dt>Folder</dt>
          <dd>
            <code>
              <Revealed text={detail.cwd} />
            </code>
          </dd>
          <dt>Tool kind</dt>
          <dd>{detail.toolKind}</dd>
          <dt>Policy</dt>
          <dd>{detail.policy}</dd>
          <dt>Issued</dt>
          <dd>{formatDateTime(detail.issuedAt)}</dd>
          <dt>Expires</dt>
          <dd>{formatDateTime(detail.expiresAt)}</dd>
          <dt>Decided</dt>
          <dd>
            {formatDateTime(detail.decidedAt)}{' '}
            <span className="dim">(after {seconds(detail.decidedAt - detail.issuedAt)})</span>
          </dd>
          <dt>Displayed</dt>
          <dd>{detail.displayed ? 'Yes — a person was shown it' : 'No — never displayed'}</dd>
          <dt>Request id</dt>
          <dd>
            <code>{detail.requestId}</code>
          </dd>
        </dl>
      </DetailSection>

      <DetailSection titleId="hv-raw-title" title="Raw input">
        {raw ? (
          <pre className="hv-raw" tabIndex={0} aria-label="Raw input as the agent sent it">
            <Revealed text={raw} />
          </pre>
        ) : (
          <p className="dim">The agent sent no raw input.</p>
        )}
      </DetailSection>
    </article>
  );
}
