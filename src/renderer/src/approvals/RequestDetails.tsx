import { useMemo } from 'react';
import { TruncatedValue, type Cut, type PendingApproval } from '../../../shared/domain';
import { formatBytes, formatCount } from '../components/format';
import { UsersIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { DiffList } from '../diff/DiffList';
import { DiffModeToggle } from '../diff/DiffModeToggle';
import type { DiffMode } from '../diff/use-diff-mode';
import { SessionSandboxLine } from '../sessions/SandboxLine';
import { Stack } from '../ui/Stack';
import { CommandBlock } from './CommandBlock';
import { Countdown } from './Countdown';
import { DialogSection } from './DialogSection';
import { KIND_VERB, KindBadge } from './KindBadge';
import { PreviewSection } from './PreviewSection';
import { WarningList } from './WarningList';
import './RequestDetails.css';

/** Display copy of rawInput; the audit keeps the value itself. */
const RAW_INPUT_MAX_CHARS = 20_000;
/** Locations listed at once. */
const MAX_PATHS = 50;

/** The random tail of the id (a UUIDv7 starts with the time, the same for sessions opened together). */
export const shortSession = (sessionId: string) => sessionId.slice(-8);

interface Props {
  approval: PendingApproval;
  titleId: string;
  now: number;
  diffMode: DiffMode;
  onDiffMode: (mode: DiffMode) => void;
  onDiffsReady: () => void;
  onExtend: () => void;
  myVote: string | undefined;
}

/** Everything the agent asked, as it asked it and as it will run. */
export function RequestDetails({
  approval,
  titleId,
  now,
  diffMode,
  onDiffMode,
  onDiffsReady,
  onExtend,
  myVote,
}: Props) {
  const { toolCall, diffs } = approval;
  const diffsDropped = approval.diffsDropped ?? 0;
  // Every diff the agent sent, those shown and those left out.
  const diffsSent = diffs.length + diffsDropped;
  const rawCut = approval.cuts?.find((c) => c.part === 'rawInput');
  const raw = useMemo(
    () => rawInputText(toolCall.rawInput, rawCut !== undefined),
    [toolCall.rawInput, rawCut],
  );
  const notes = useMemo(() => agentNotes(toolCall.content), [toolCall.content]);
  const diffPaths = new Set(diffs.flatMap((d) => [d.path, d.oldPath ?? '']));
  const paths = toolCall.locations.filter((l) => !diffPaths.has(l.path));
  const canSplit = diffs.some(
    (d) => !d.binary && d.oldText && d.newText !== null && d.change !== 'delete',
  );

  return (
    <article className="gh-request" aria-labelledby={titleId}>
      <header className="gh-request-head">
        <div className="gh-request-eyebrow">
          <KindBadge kind={toolCall.kind} />
          <span>
            <strong>{approval.agentName}</strong> asks to {KIND_VERB[toolCall.kind]}
          </span>
        </div>
        <h2 id={titleId} className="gh-request-title" title="The title, as the agent wrote it">
          <Revealed text={toolCall.title} />
        </h2>
        <div className="gh-request-meta">
          <span>
            session <code title={approval.sessionId}>{shortSession(approval.sessionId)}</code>
          </span>
          <span aria-hidden="true">·</span>
          <span className="gh-request-cwd">
            in <code title={approval.cwd}>{<Revealed text={approval.cwd} />}</code>
          </span>
          <Countdown approval={approval} now={now} onExtend={onExtend} />
        </div>
        <SessionSandboxLine sessionId={approval.sessionId} />
      </header>

      {approval.cuts && approval.cuts.length > 0 && <CutNote cuts={approval.cuts} />}
      {approval.tally && <Consensus approval={approval} myVote={myVote} />}
      <WarningList warnings={approval.warnings} />
      {approval.command && <CommandBlock command={approval.command} sessionCwd={approval.cwd} />}
      {approval.preview && (
        <PreviewSection
          preview={approval.preview}
          cwd={approval.cwd}
          diffMode={diffMode}
          onDiffMode={onDiffMode}
        />
      )}

      {diffsSent > 0 && (
        <DialogSection
          titleId="gh-changes-title"
          title={
            <>
              Changes{' '}
              <span className="dim">
                · {formatCount(diffsSent)} file{diffsSent === 1 ? '' : 's'}
              </span>
            </>
          }
          aside={canSplit && <DiffModeToggle mode={diffMode} onChange={onDiffMode} />}
        >
          <DiffList diffs={diffs} mode={diffMode} onReady={onDiffsReady} />
          {diffsDropped > 0 && (
            <p className="dim gh-diffs-dropped">
              and {formatCount(diffsDropped)} more the agent sent, too many to show
            </p>
          )}
        </DialogSection>
      )}

      {paths.length > 0 && (
        <DialogSection
          titleId="gh-paths-title"
          title={
            <>
              Paths <span className="dim">· {paths.length}</span>
            </>
          }
        >
          <Stack className="gh-paths">
            {paths.slice(0, MAX_PATHS).map((l, i) => (
              <li key={i}>
                <code>
                  <Revealed text={l.path} />
                  {l.line != null && <span className="dim">:{l.line}</span>}
                </code>
              </li>
            ))}
            {paths.length > MAX_PATHS && (
              <li className="dim">and {paths.length - MAX_PATHS} more</li>
            )}
            {toolCall.locationsDropped !== undefined && (
              <li className="dim">
                and {formatCount(toolCall.locationsDropped)} more the agent named, too many for the
                rules to check
              </li>
            )}
          </Stack>
        </DialogSection>
      )}

      {notes && (
        <DialogSection
          titleId="gh-notes-title"
          title="The agent's description"
          note="unverified text from the agent"
        >
          <pre className="gh-notes">
            <Revealed text={notes} />
          </pre>
        </DialogSection>
      )}

      <details className="gh-raw">
        <summary>
          Raw input, as the agent sent it
          {rawCut && (
            <span className="dim gh-raw-cut"> · truncated, {formatBytes(rawCut.bytes)}</span>
          )}
        </summary>
        <pre tabIndex={0} aria-label="Raw input">
          {raw.text === null ? (
            <span className="dim">The agent sent no raw input.</span>
          ) : (
            <Revealed text={raw.text} />
          )}
        </pre>
        {raw.cut > 0 && <p className="dim">{formatCount(raw.cut)} more characters not shown.</p>}
      </details>
    </article>
  );
}

/**
 * The core sends votesNeeded = quorum − the leading option's votes, so the quorum an option must
 * reach is that plus the leading count.
 */
export function quorumOf(tally: NonNullable<PendingApproval['tally']>): number {
  return tally.votesNeeded + Math.max(0, ...Object.values(tally.perOption));
}

function Consensus({
  approval,
  myVote,
}: {
  approval: PendingApproval;
  myVote: string | undefined;
}) {
  const tally = approval.tally!;
  const cast = Object.values(tally.perOption).reduce((sum, n) => sum + n, 0);
  const quorum = quorumOf(tally);
  const mine = approval.options.find((o) => o.optionId === myVote);
  return (
    <section className="gh-consensus" aria-labelledby="gh-consensus-title">
      <h3 id="gh-consensus-title">
        <UsersIcon /> Consensus · {cast} of {tally.voters} voter{tally.voters === 1 ? '' : 's'}{' '}
        voted · {quorum} {quorum === 1 ? 'vote decides' : 'votes decide'} · {tally.votesNeeded} more
        needed
      </h3>
      <ul>
        {approval.options.map((o) => {
          const votes = tally.perOption[o.optionId] ?? 0;
          const name = o.name || o.kind;
          return (
            <li key={o.optionId}>
              <span>{name}</span>
              <meter
                min={0}
                max={quorum}
                value={votes}
                aria-label={`${name}: ${votes} of ${quorum} votes`}
              />
              <span className="dim">
                {votes}/{quorum}
              </span>
            </li>
          );
        })}
      </ul>
      {mine && (
        <p role="status">You voted “{mine.name}”. The request waits for the other voters.</p>
      )}
    </section>
  );
}

/** Parts Gatehouse cut to keep the request small; the audit keeps their originals. */
function CutNote({ cuts }: { cuts: Cut[] }) {
  return (
    <p className="gh-cuts" role="note">
      Too large to show whole:{' '}
      {cuts.map((c, i) => (
        <span key={i}>
          {i > 0 && ', '}
          <code>{c.part}</code> (truncated, {formatBytes(c.bytes)})
        </span>
      ))}
      . The audit keeps the originals by their sha-256
      {cuts.some((c) => c.blob === undefined) ? ' (some only by hash: too large to store)' : ''}.
    </p>
  );
}

/** A cut rawInput is a marker whose preview is the start of the agent's JSON. */
function rawInputText(rawInput: unknown, cut: boolean): { text: string | null; cut: number } {
  if (rawInput === undefined) return { text: null, cut: 0 };
  if (cut) {
    const marker = TruncatedValue.safeParse(rawInput);
    if (marker.success) return { text: marker.data.preview, cut: 0 };
  }
  let text: string;
  try {
    text = JSON.stringify(rawInput, null, 2) ?? String(rawInput);
  } catch {
    text = String(rawInput);
  }
  if (text.length <= RAW_INPUT_MAX_CHARS) return { text, cut: 0 };
  return { text: text.slice(0, RAW_INPUT_MAX_CHARS), cut: text.length - RAW_INPUT_MAX_CHARS };
}

/** Text items of the tool call content (Gemini's "[in dir] (description)"), bounded. */
function agentNotes(content: unknown[]): string | null {
  const texts: string[] = [];
  for (const item of content) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as { type?: unknown; content?: { type?: unknown; text?: unknown } };
    if (
      record.type === 'content' &&
      record.content?.type === 'text' &&
      typeof record.content.text === 'string'
    ) {
      texts.push(record.content.text);
    }
  }
  if (texts.length === 0) return null;
  const joined = texts.join('\n\n');
  return joined.length > 4000 ? `${joined.slice(0, 4000)}…` : joined;
}
