// One file change of a request: a CodeMirror merge view (unified or side by side), highlighted by
// file type, unchanged stretches collapsed; binary, empty and oversized content summarised.
// Reused by the history window: it needs nothing but a PreparedDiff.
import { useEffect, useRef, useState } from 'react';
import type { PreparedDiff } from '../../../shared/domain';
import { formatBytes, formatCount } from '../components/format';
import { bodyOf, initialStats, type Stats } from './diff-body';
import { DiffEditor } from './DiffEditor';
import { CHANGE_LABEL, DiffHeader } from './DiffHeader';
import type { DiffMode } from './use-diff-mode';
import './DiffView.css';

export interface DiffViewProps {
  diff: PreparedDiff;
  mode: DiffMode;
  /** Called once the change is on screen (drawn or summarised). */
  onReady?: () => void;
}

export function DiffView({ diff, mode, onReady }: DiffViewProps) {
  const body = bodyOf(diff);
  const [computed, setComputed] = useState<{ key: string; stats: Stats } | null>(null);
  const [expanded, setExpanded] = useState(false);
  const key = `${diff.hash}:${mode}:${expanded}`;
  const stats = initialStats(diff, body) ?? (computed?.key === key ? computed.stats : null);

  const readyRef = useRef(onReady);
  useEffect(() => {
    readyRef.current = onReady;
  });
  const summarised = body.kind === 'binary' || body.kind === 'summary';
  useEffect(() => {
    if (summarised) readyRef.current?.();
  }, [summarised]);

  return (
    <section
      className={`gh-diff change-${diff.change}`}
      aria-label={`${CHANGE_LABEL[diff.change]}: ${diff.path}`}
    >
      <DiffHeader
        diff={diff}
        stats={stats}
        expanded={body.kind === 'diff' ? expanded : null}
        onToggleExpanded={() => setExpanded((e) => !e)}
      />
      {diff.truncated && <TruncationNote diff={diff} />}
      {body.kind === 'binary' && (
        <p className="gh-diff-summary" role="note">
          Binary content, not shown: {sizeChange(diff)}. Gatehouse does not render binary data; the
          agent will write these bytes as sent.
        </p>
      )}
      {body.kind === 'summary' && (
        <p className="gh-diff-summary" role="note">
          {body.text}
        </p>
      )}
      {(body.kind === 'whole' || body.kind === 'diff') && (
        <DiffEditor
          key={key}
          path={diff.path}
          lineCount={Math.max(diff.oldLines, diff.newLines)}
          body={body}
          mode={mode}
          expanded={expanded}
          onStats={(s) => setComputed({ key, stats: s })}
          onReady={() => readyRef.current?.()}
        />
      )}
    </section>
  );
}

function sizeChange(diff: PreparedDiff): string {
  if (diff.change === 'create') return `${formatBytes(diff.newBytes)}`;
  if (diff.change === 'delete') return `${formatBytes(diff.oldBytes)} removed`;
  return `${formatBytes(diff.oldBytes)} → ${formatBytes(diff.newBytes)}`;
}

function TruncationNote({ diff }: { diff: PreparedDiff }) {
  const sides: string[] = [];
  if (diff.oldText !== null && (diff.oldBytes > 0 || diff.oldLines > 0)) {
    sides.push(`before: ${formatCount(diff.oldLines)} lines, ${formatBytes(diff.oldBytes)}`);
  }
  if (diff.newText !== null && (diff.newBytes > 0 || diff.newLines > 0)) {
    sides.push(`after: ${formatCount(diff.newLines)} lines, ${formatBytes(diff.newBytes)}`);
  }
  return (
    <p className="gh-diff-truncated" role="note">
      <strong>Too large to show whole.</strong> Only the beginning of this file is shown (full size
      — {sides.join('; ')}). The agent will write the whole content, not just what is shown.
    </p>
  );
}
