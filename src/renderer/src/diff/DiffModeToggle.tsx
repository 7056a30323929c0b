import type { DiffMode } from './use-diff-mode';
import './DiffModeToggle.css';

/** Unified or side by side; the choice is the caller's to keep (useDiffMode remembers it). */
export function DiffModeToggle({
  mode,
  onChange,
}: {
  mode: DiffMode;
  onChange: (mode: DiffMode) => void;
}) {
  return (
    <div className="gh-segmented" role="group" aria-label="Diff layout">
      <button type="button" aria-pressed={mode === 'unified'} onClick={() => onChange('unified')}>
        Unified
      </button>
      <button type="button" aria-pressed={mode === 'split'} onClick={() => onChange('split')}>
        Side by side
      </button>
    </div>
  );
}
