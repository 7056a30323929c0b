import { Button } from '../ui/Button';
import { SHORTCUTS } from './keyboard';
import './ShortcutHelp.css';

/** The keyboard map, shown in the dialog itself. */
export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  return (
    <section id="gh-shortcuts" className="gh-help" aria-labelledby="gh-help-title">
      <div className="gh-help-head">
        <h3 id="gh-help-title">Keyboard shortcuts</h3>
        <Button variant="link" onClick={onClose}>
          Close
        </Button>
      </div>
      <dl>
        {SHORTCUTS.map((s) => (
          <div key={s.action} className="gh-help-row">
            <dt>
              {s.keys.map((k, i) =>
                k === '…' ? (
                  <span key={i} className="dim">
                    {' '}
                    to{' '}
                  </span>
                ) : (
                  <kbd key={i}>{k}</kbd>
                ),
              )}
            </dt>
            <dd>{s.description}</dd>
          </div>
        ))}
        <div className="gh-help-row">
          <dt>
            <kbd>Tab</kbd>
          </dt>
          <dd>Move between controls; Enter or Space presses the focused one</dd>
        </div>
      </dl>
      <p className="dim">
        Buttons ignore clicks and keys for a moment after a request appears, so a click meant for
        the previous request cannot decide the next one.
      </p>
    </section>
  );
}
