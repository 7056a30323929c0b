import { useEffect, useRef, useState } from 'react';
import type { PreparedDiff } from '../../../shared/domain';
import { DiffView } from './DiffView';
import type { DiffMode } from './use-diff-mode';
import './DiffList.css';

/** Files drawn at once; a patch touching more shows the rest on demand. */
const FIRST_FILES = 8;

/** Every file change of a request; `onReady` once all the drawn ones are on screen. */
export function DiffList({
  diffs,
  mode,
  onReady,
}: {
  diffs: PreparedDiff[];
  mode: DiffMode;
  onReady?: () => void;
}) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? diffs : diffs.slice(0, FIRST_FILES);
  const ready = useRef(new Set<number>());
  const readyCallback = useRef(onReady);
  useEffect(() => {
    readyCallback.current = onReady;
  });
  const expected = Math.min(diffs.length, FIRST_FILES);
  const onOneReady = (index: number) => {
    if (ready.current.has(index)) return;
    ready.current.add(index);
    if (ready.current.size === expected) readyCallback.current?.();
  };

  return (
    <div className="gh-diff-list">
      {shown.map((diff, i) => (
        <DiffView key={`${i}:${diff.path}`} diff={diff} mode={mode} onReady={() => onOneReady(i)} />
      ))}
      {!showAll && diffs.length > FIRST_FILES && (
        <button type="button" className="gh-more-files" onClick={() => setShowAll(true)}>
          Show {diffs.length - FIRST_FILES} more changed files
        </button>
      )}
    </div>
  );
}
