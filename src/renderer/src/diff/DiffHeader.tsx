import type { PreparedDiff } from '../../../shared/domain';
import { ArrowRight, FileIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { baseName, dirName, formatCount } from '../components/format';
import { Button } from '../ui/Button';
import type { Stats } from './diff-body';
import './DiffHeader.css';

export const CHANGE_LABEL: Record<PreparedDiff['change'], string> = {
  create: 'New file',
  modify: 'Modified',
  delete: 'Deleted',
  move: 'Moved',
};

interface Props {
  diff: PreparedDiff;
  /** Lines added and removed, once known. */
  stats: Stats | null;
  /** Whether unchanged stretches are shown; null when there is nothing to collapse. */
  expanded: boolean | null;
  onToggleExpanded(): void;
}

/** A file change's header: what happens to the file, its path (both, for a move), its counts. */
export function DiffHeader({ diff, stats, expanded, onToggleExpanded }: Props) {
  return (
    <header className="gh-diff-header">
      <span className={`gh-change-badge change-${diff.change}`}>{CHANGE_LABEL[diff.change]}</span>
      <h4 className="gh-diff-path">
        <FileIcon />
        {diff.oldPath !== null && diff.oldPath !== diff.path && (
          <>
            <PathText path={diff.oldPath} />
            <span className="gh-move-arrow">
              <ArrowRight />
              <span className="visually-hidden"> moved to </span>
            </span>
          </>
        )}
        <PathText path={diff.path} />
      </h4>
      <span className="gh-diff-stats">
        {stats && stats.added > 0 && (
          <span className="added">
            +{formatCount(stats.added)}
            <span className="visually-hidden"> lines added</span>
          </span>
        )}
        {stats && stats.removed > 0 && (
          <span className="removed">
            −{formatCount(stats.removed)}
            <span className="visually-hidden"> lines removed</span>
          </span>
        )}
      </span>
      {expanded !== null && (
        <Button variant="link" aria-pressed={expanded} onClick={onToggleExpanded}>
          {expanded ? 'Collapse unchanged' : 'Show all lines'}
        </Button>
      )}
    </header>
  );
}

/** The folder quiet, the file name bold. */
function PathText({ path }: { path: string }) {
  return (
    <span className="gh-path" title={path}>
      <span className="dir">
        <Revealed text={dirName(path)} />
      </span>
      <span className="base">
        <Revealed text={baseName(path)} />
      </span>
    </span>
  );
}
