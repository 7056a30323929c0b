// What the command did when Gatehouse ran it once in a throwaway copy of the session: its state in
// words, each change (the ones that land outside the project or in protected files marked as
// danger), the text diffs in the dialog's own diff view, the hosts it tried, how it ended and the
// last of its output. Everything here is the core's account of the run; the agent wrote none of it
// but the paths and the output, which are shown as inert text with invisible characters revealed.
import type { CommandPreview, PreviewChange } from '../../../shared/preview';
import { formatBytes } from '../components/format';
import { AlertIcon, ClockIcon, StopIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { DiffList } from '../diff/DiffList';
import { DiffModeToggle } from '../diff/DiffModeToggle';
import type { DiffMode } from '../diff/use-diff-mode';
import { Stack } from '../ui/Stack';
import { DialogSection } from './DialogSection';
import {
  CHANGE_MARK,
  CHANGE_WORD,
  OPEN_CHANGES,
  PLACE_WORD,
  changeTotal,
  collapsedLabel,
  exitWords,
  formatDuration,
  partialNote,
  partialSummary,
  previewHeadline,
  shownPath,
} from './preview-words';
import './PreviewSection.css';

interface Props {
  preview: CommandPreview;
  /** The session folder: paths inside it are shown relative to it. */
  cwd: string;
  diffMode: DiffMode;
  onDiffMode: (mode: DiffMode) => void;
}

export function PreviewSection({ preview, cwd, diffMode, onDiffMode }: Props) {
  const headline = previewHeadline(preview);
  const ran = preview.state === 'done' || preview.state === 'incomplete';
  const total = changeTotal(preview.counts);
  const canSplit = preview.diffs.some(
    (d) => !d.binary && d.oldText && d.newText !== null && d.change !== 'delete',
  );
  const exit = exitWords(preview);
  const partial = partialNote(preview);
  const found = partialSummary(preview);
  // The core's sentence on why it could not run, or which bound stopped it; the network and the
  // time bound are said whole by the headline.
  const detail =
    preview.detail &&
    (preview.state === 'unavailable' ||
      (preview.state === 'incomplete' && preview.reason !== 'network' && preview.reason !== 'time'))
      ? preview.detail
      : null;
  return (
    <DialogSection
      className="gh-preview"
      titleId="gh-preview-title"
      title={
        <>
          <ClockIcon /> Preview
        </>
      }
      note={ran ? 'run once in a throwaway copy: nothing reached your files' : undefined}
    >
      <p className={`gh-preview-state ${headline.tone}`} role="status" aria-live="polite">
        {headline.tone === 'caution' && <AlertIcon />}
        <span>{headline.text}</span>
      </p>
      {detail && (
        <p className="gh-preview-detail">
          <Revealed text={detail} />
        </p>
      )}
      {found && <p className="gh-preview-found">{found}</p>}
      {partial && <p className="gh-preview-detail">{partial}</p>}
      {ran && total > 0 && <ChangeList preview={preview} cwd={cwd} total={total} />}
      {ran && preview.hosts.length > 0 && (
        <div className="gh-preview-hosts">
          <h4>Tried to reach (blocked)</h4>
          <Stack className="gh-preview-host-list">
            {preview.hosts.map((host, i) => (
              <li key={i}>
                <code>
                  <Revealed text={host} />
                </code>
              </li>
            ))}
          </Stack>
        </div>
      )}
      {ran && preview.diffs.length > 0 && (
        <div className="gh-preview-diffs">
          <div className="gh-preview-diffs-head">
            <h4>Text changes</h4>
            {canSplit && <DiffModeToggle mode={diffMode} onChange={onDiffMode} />}
          </div>
          <DiffList diffs={preview.diffs} mode={diffMode} />
        </div>
      )}
      {ran && (
        <p className="gh-preview-facts">
          {[exit, `took ${formatDuration(preview.durationMs)}`, 'no network']
            .filter(Boolean)
            .join(' · ')}
        </p>
      )}
      {ran && preview.output !== '' && <Output text={preview.output} />}
    </DialogSection>
  );
}

/**
 * Every listed change; a long list (or one the core had to cut) opens on demand, except the changes
 * that land outside the project or in protected files, which are always in sight.
 */
function ChangeList({
  preview,
  cwd,
  total,
}: {
  preview: CommandPreview;
  cwd: string;
  total: number;
}) {
  const { changes } = preview;
  const collapse = total > changes.length || changes.length > OPEN_CHANGES;
  const danger = changes.filter((c) => c.place !== 'root');
  if (!collapse) return <Changes changes={changes} cwd={cwd} label="Changes" />;
  return (
    <>
      {danger.length > 0 && (
        <Changes changes={danger} cwd={cwd} label="Changes outside the project or protected" />
      )}
      <details className="gh-preview-more">
        <summary>{collapsedLabel(total, changes.length)}</summary>
        <Changes changes={changes} cwd={cwd} label="Changes" />
      </details>
    </>
  );
}

function Changes({
  changes,
  cwd,
  label,
}: {
  changes: PreviewChange[];
  cwd: string;
  label: string;
}) {
  return (
    <Stack className="gh-preview-changes" aria-label={label}>
      {changes.map((c, i) => (
        <li key={i} className={`gh-preview-change ${c.change} place-${c.place}`}>
          <span className={`gh-preview-word ${c.change}`}>
            <span aria-hidden="true">{CHANGE_MARK[c.change]}</span> {CHANGE_WORD[c.change]}
          </span>
          <code className="gh-preview-path">
            {c.oldPath !== null && (
              <>
                <PathText text={shownPath(c.oldPath, cwd)} />
                <span className="dim"> to </span>
              </>
            )}
            <PathText text={shownPath(c.path, cwd)} />
            {c.entry === 'folder' && '/'}
          </code>
          <span className="gh-preview-meta">
            {c.entry === 'link' && <span>link</span>}
            {c.entry === 'other' && <span>special file</span>}
            {c.entry === 'file' && c.size !== null && c.change !== 'deleted' && (
              <span>{formatBytes(c.size)}</span>
            )}
            {c.place !== 'root' && (
              <span className="gh-preview-place">
                <StopIcon /> {PLACE_WORD[c.place]}
              </span>
            )}
          </span>
        </li>
      ))}
    </Stack>
  );
}

const BREAKS = /([\n\r\t])/;

/**
 * A name the command chose: a line break or tab in it is shown as its marker, so one row can never
 * draw itself as two (a second "New" line under the first).
 */
function PathText({ text }: { text: string }) {
  return (
    <>
      {text.split(BREAKS).map((part, i) =>
        i % 2 === 1 ? (
          <span key={i} className="invisible-char" title="A line break or tab in the name">
            {`⟨U+${part.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`}
          </span>
        ) : (
          <Revealed key={i} text={part} />
        ),
      )}
    </>
  );
}

/** The last lines it printed: monospace, collapsed, inert text (no HTML, no terminal codes run). */
function Output({ text }: { text: string }) {
  const lines = text.replace(/\n$/, '').split('\n').length;
  return (
    <details className="gh-preview-output">
      <summary>
        Last lines of its output <span className="dim">({lines})</span>
      </summary>
      <pre tabIndex={0} aria-label="Output of the preview">
        <Revealed text={text} />
      </pre>
    </details>
  );
}
