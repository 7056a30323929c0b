// The read-only CodeMirror setup shared by every diff: line numbers, highlighting by file type,
// and every invisible or control character drawn as a visible ⟨U+XXXX⟩ marker.
import { LanguageDescription, syntaxHighlighting } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { EditorState, RangeSetBuilder, type Extension } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  ViewPlugin,
  highlightSpecialChars,
  lineNumbers,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { codePointLabel, describeCodePoint } from '../../../shared/invisible';

/**
 * What CodeMirror does not already mark as special: the rest of the bidi controls, invisible
 * operators, fillers and the tag block — the same set the safety layer warns about.
 */
const INVISIBLE_CHARS =
  // eslint-disable-next-line no-misleading-character-class
  /[\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]/u;

function renderInvisible(code: number): HTMLElement {
  const span = document.createElement('span');
  span.className = 'cm-gh-invisible';
  span.textContent = `⟨${codePointLabel(code)}⟩`;
  span.title = describeCodePoint(code);
  return span;
}

/** Extensions of a read-only, keyboard-focusable code view labelled for assistive technology. */
export function readOnlyCode(label: string): Extension[] {
  return [
    lineNumbers(),
    highlightSpecialChars({ addSpecialChars: INVISIBLE_CHARS, render: renderInvisible }),
    EditorState.readOnly.of(true),
    EditorView.editable.of(false),
    // Focusable so the scrolled code can be read and scrolled with the keyboard.
    EditorView.contentAttributes.of({
      tabindex: '0',
      'aria-label': label,
      'aria-readonly': 'true',
    }),
    syntaxHighlighting(classHighlighter),
  ];
}

/**
 * Marks lines as added or removed without a merge view: every line (a new or deleted file), or
 * the lines of the given 1-based inclusive ranges, sorted. Only the lines in view are decorated,
 * so a 100k-line file costs what its visible part costs.
 */
export function lineMarks(
  kind: 'inserted' | 'deleted',
  ranges: readonly [number, number][] | null = null,
): Extension {
  const mark = Decoration.line({
    class: kind === 'inserted' ? 'gh-line-inserted' : 'gh-line-deleted',
  });
  const marked = (line: number): boolean => {
    if (!ranges) return true;
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [from, to] = ranges[mid]!;
      if (line < from) hi = mid - 1;
      else if (line > to) lo = mid + 1;
      else return true;
    }
    return false;
  };
  const build = (view: EditorView): DecorationSet => {
    const builder = new RangeSetBuilder<Decoration>();
    for (const { from, to } of view.visibleRanges) {
      for (let pos = from; pos <= to;) {
        const line = view.state.doc.lineAt(pos);
        // The empty "line" after a final newline is not content: it stays unmarked.
        const trailing =
          line.number === view.state.doc.lines && line.length === 0 && line.number > 1;
        if (!trailing && marked(line.number)) builder.add(line.from, line.from, mark);
        pos = line.to + 1;
      }
    }
    return builder.finish();
  };
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = build(view);
      }
      update(update: ViewUpdate) {
        if (update.viewportChanged || update.docChanged) this.decorations = build(update.view);
      }
    },
    { decorations: (plugin) => plugin.decorations },
  );
}

/** The language of a file by its name (extension or well-known name), loaded on demand. */
export function languageFor(path: string): LanguageDescription | null {
  const name = path.split(/[\\/]/).pop() ?? path;
  return LanguageDescription.matchFilename(languages, name);
}
