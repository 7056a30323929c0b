import type { PreparedDiff } from '../../../shared/domain';
import type { TranscriptDiff, TranscriptEntry } from '../../../shared/transcript';
import { formatBytes } from '../components/format';
import { DiffView } from '../diff/DiffView';
import { deciderWords } from '../history/words';
import { Markdown } from './markdown';
import { TOOL_STATE_WORDS, toolState } from './tool-state';

/**
 * The diff view reads prepared diffs; a transcript's diff is the core's prepared diff, its sides cut
 * to the transcript's bound: what it changes and its line counts are the dialog's.
 */
function prepared(diff: TranscriptDiff, key: string): PreparedDiff {
  return {
    path: diff.path,
    oldPath: null,
    change: diff.change,
    binary: false,
    oldText: diff.oldText,
    newText: diff.newText,
    truncated: diff.truncated,
    oldBytes: diff.oldText?.length ?? 0,
    newBytes: diff.newText.length,
    oldLines: diff.oldLines,
    newLines: diff.newLines,
    hash: key,
  };
}

/** A call's command and diffs, as asked or as the agent declared them. */
function Change(props: {
  label: string;
  command: string | null;
  diffs: TranscriptDiff[];
  keyOf: (i: number) => string;
}) {
  return (
    <div aria-label={props.label}>
      {props.command && (
        <pre className="t-command" aria-label="command">
          <code>{props.command}</code>
        </pre>
      )}
      {props.diffs.map((diff, i) => (
        <DiffView key={i} diff={prepared(diff, props.keyOf(i))} mode="unified" />
      ))}
    </div>
  );
}

const PLAN_MARK = { pending: '○', in_progress: '◐', completed: '●' } as const;

export function TranscriptEntryView({ entry }: { entry: TranscriptEntry }) {
  switch (entry.kind) {
    case 'user':
      return (
        <div className="t-user" aria-label="you">
          <p className="t-who">You</p>
          <p className="t-plain">{entry.text}</p>
        </div>
      );
    case 'agent':
      return (
        <div className="t-agent" aria-label="agent">
          <Markdown text={entry.text} />
        </div>
      );
    case 'thought':
      return (
        <details className="t-thought">
          <summary>Thought</summary>
          <p className="t-plain">{entry.text}</p>
        </details>
      );
    case 'plan':
      return (
        <div className="t-plan">
          <p className="t-who">Plan</p>
          <ul aria-label="plan">
            {entry.items.map((item, i) => (
              <li key={i} className={`plan-${item.status}`}>
                <span aria-hidden="true">{PLAN_MARK[item.status]} </span>
                <span className="visually-hidden">{item.status.replace('_', ' ')}: </span>
                {item.content}
              </li>
            ))}
          </ul>
        </div>
      );
    case 'tool':
      return (
        <section className="t-tool" aria-label={`tool call: ${entry.title}`}>
          <p className="t-tool-head">
            <span className="t-badge">{entry.toolKind}</span> <strong>{entry.title}</strong>{' '}
            <span className={`t-status status-${toolState(entry)}`}>
              {TOOL_STATE_WORDS[toolState(entry)]}
            </span>
          </p>
          {entry.locations.length > 0 && (
            <ul className="t-locations" aria-label="locations">
              {entry.locations.map((l, i) => (
                <li key={i}>
                  <code>{l.line == null ? l.path : `${l.path}:${l.line}`}</code>
                </li>
              ))}
            </ul>
          )}
          {entry.asked ? (
            <Change
              label="What a person was asked"
              command={entry.asked.command}
              diffs={entry.asked.diffs}
              keyOf={(i) => `${entry.id}:asked:${i}:${entry.rev}`}
            />
          ) : (
            <Change
              label="what the agent declared"
              command={entry.command}
              diffs={entry.diffs}
              keyOf={(i) => `${entry.id}:${i}:${entry.rev}`}
            />
          )}
          {entry.changedAfterDecision && (
            <div className="t-changed" role="note">
              <p>
                <strong>Changed by the agent after the decision:</strong> this is not what was
                asked.
              </p>
              <Change
                label="what the agent declared after the decision"
                command={entry.command}
                diffs={entry.diffs}
                keyOf={(i) => `${entry.id}:after:${i}:${entry.rev}`}
              />
            </div>
          )}
          {entry.text && <p className="t-plain t-tool-text">{entry.text}</p>}
        </section>
      );
    case 'dropped':
      return (
        <p className="t-dropped-updates" role="note">
          {entry.updates.toLocaleString('en')} {entry.updates === 1 ? 'update' : 'updates'} dropped
          here: the agent sent them faster than they could be shown.
        </p>
      );
    case 'too_large':
      return (
        <p className="t-dropped-updates" role="note">
          An update of {formatBytes(entry.bytes)} from the agent was too large to pass on: not shown
          here, kept in the audit by its size.
        </p>
      );
    case 'decision': {
      const reply =
        entry.outcome === 'cancelled' || !entry.optionKind
          ? ({ outcome: 'cancelled' } as const)
          : ({ outcome: 'selected', optionId: '', optionKind: entry.optionKind } as const);
      return (
        <div className={`t-decision outcome-${entry.outcome}`} aria-label="decision">
          <p>
            {deciderWords(reply, entry.decider)}
            {entry.title ? `: ${entry.title}` : ''}
          </p>
          {entry.message && (
            <p className="t-reject-message" aria-label="the person's message to the agent">
              Rejected: {entry.message}
            </p>
          )}
        </div>
      );
    }
  }
}
