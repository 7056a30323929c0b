import {
  ChevronLeft,
  ChevronRight,
  ExternalIcon,
  KeyboardIcon,
  ShieldIcon,
} from '../components/icons';
import { ARIA } from './keyboard';
import './DialogTopBar.css';

interface Props {
  /** 0-based place of the request on screen, and the length of the queue. */
  index: number;
  total: number;
  onGo(delta: number): void;
  /** Copies a single-use approval link; only offered where one can be opened (a browser). */
  onCopyLink?: () => void;
  helpOpen: boolean;
  onToggleHelp(): void;
  /** The modal links to the full view of the queue. */
  variant: 'modal' | 'page';
  /** The modal over a page: back to the page while the requests keep waiting. */
  onSetAside?: () => void;
}

/** Where the request on screen sits in the queue, and the dialog's own tools. */
export function DialogTopBar({
  index,
  total,
  onGo,
  onCopyLink,
  helpOpen,
  onToggleHelp,
  variant,
  onSetAside,
}: Props) {
  return (
    <div className="gh-topbar">
      <span className="gh-brand" id="gh-dialog-label">
        <ShieldIcon /> Permission request
      </span>
      <span className="gh-position" role="status" aria-label="Queue position">
        {index + 1} of {total}
      </span>
      <span className="gh-nav">
        <button
          type="button"
          aria-label="Previous request"
          aria-keyshortcuts={ARIA.previous}
          onClick={() => onGo(-1)}
        >
          <ChevronLeft />
        </button>
        <button
          type="button"
          aria-label="Next request"
          aria-keyshortcuts={ARIA.next}
          onClick={() => onGo(1)}
        >
          <ChevronRight />
        </button>
      </span>
      <span className="gh-spacer" />
      {onCopyLink && (
        <button type="button" className="gh-help-toggle" onClick={onCopyLink}>
          <ExternalIcon /> Copy approval link
        </button>
      )}
      <button
        type="button"
        className="gh-help-toggle"
        aria-expanded={helpOpen}
        aria-controls="gh-shortcuts"
        aria-keyshortcuts={ARIA.help}
        onClick={onToggleHelp}
      >
        <KeyboardIcon /> Shortcuts
      </button>
      {variant === 'modal' && (
        <a className="gh-open-full" href="#/approvals">
          <ExternalIcon /> Full view
        </a>
      )}
      {onSetAside && (
        <button
          type="button"
          className="gh-help-toggle"
          aria-keyshortcuts="Escape"
          title="Back to the page; the requests keep waiting, and a new one brings this back"
          onClick={onSetAside}
        >
          Later
        </button>
      )}
    </div>
  );
}
