import { revealInvisibles } from '../../../shared/invisible';
import './Revealed.css';

const MARKER = /(⟨U\+[0-9A-F]{4,6}⟩)/;

/**
 * Agent text as inert React text, with every bidi, zero-width and control character shown as a
 * ⟨U+XXXX⟩ marker, so the text can neither hide parts of itself nor reorder itself on screen.
 */
export function Revealed({ text }: { text: string }) {
  const shown = revealInvisibles(text);
  if (shown === text) return <>{text}</>;
  return (
    <>
      {shown.split(MARKER).map((part, i) =>
        i % 2 === 1 ? (
          <span key={i} className="invisible-char" title="Invisible character made visible">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}
