// Draws one file change into a host element with CodeMirror: a whole file, a unified or a side by
// side merge view, or two plain views for a rewritten file. Each large step yields to the browser,
// and the caller may cancel between steps.
import { MergeView, getChunks, getOriginalDoc, unifiedMergeView } from '@codemirror/merge';
import { Compartment, Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { changedLines, lineCount, statsOf, type Stats } from './diff-body';
import { computeDiff } from './diff-engine';
import { languageFor, lineMarks, readOnlyCode } from './editor';
import type { DiffMode } from './use-diff-mode';

export { warmDiffWorker } from './diff-engine';

/**
 * A unified view draws every removed line up front (each removed block is one widget, not
 * virtualized); past this many the diff is shown side by side, where both sides are virtualized.
 */
const UNIFIED_MAX_REMOVED_LINES = 1_500;
/**
 * A merge view decorates every line of a changed block when any of it is in view; a block this
 * large (a rewritten file) is shown as two plain views instead, its lines marked as they scroll in.
 */
const MERGE_MAX_BLOCK_LINES = 5_000;

/** Lets the browser paint and handle input between two pieces of main-thread work. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/** Waits until the browser has drawn a frame (CodeMirror measures a new editor in that frame). */
const yieldFrame = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Why a diff asked for unified is drawn side by side. */
export interface SplitReason {
  kind: 'unified' | 'rewrite';
  lines: number;
}

/**
 * One drawing of a change. `destroy` always undoes what is on screen so far (the caller runs it
 * when the drawing is replaced, even halfway); `cancelled` stops the drawing at its next step.
 */
export class Mounting {
  cancelled = false;
  readonly views: EditorView[] = [];
  readonly language = new Compartment();
  destroy: () => void = () => {};

  constructor(
    readonly parent: HTMLElement,
    readonly path: string,
  ) {}

  /** A new or deleted file, every line marked. */
  whole(text: string, side: 'inserted' | 'deleted'): void {
    const view = new EditorView({
      parent: this.parent,
      doc: text,
      extensions: [
        readOnlyCode(
          side === 'inserted'
            ? `After: ${this.path} (new file)`
            : `Before: ${this.path} (deleted file)`,
        ),
        lineMarks(side),
        this.language.of([]),
      ],
    });
    this.views.push(view);
    this.destroy = () => view.destroy();
  }

  /** The changes from `oldText` to `newText`, computed (maybe in a worker) and drawn. */
  async changes(
    oldText: string,
    newText: string,
    mode: DiffMode,
    expanded: boolean,
    on: { split(reason: SplitReason): void; stats(stats: Stats): void },
  ): Promise<void> {
    const { changes, removed } = await computeDiff(oldText, newText);
    if (this.cancelled) return;
    const rewrite = removed.largest > MERGE_MAX_BLOCK_LINES;
    const unified = !rewrite && mode === 'unified' && removed.total <= UNIFIED_MAX_REMOVED_LINES;
    if (rewrite) on.split({ kind: 'rewrite', lines: removed.largest });
    else if (mode === 'unified' && !unified) on.split({ kind: 'unified', lines: removed.total });
    // Splitting a large text into lines is work of its own: one side per task.
    const before = Text.of(oldText.split('\n'));
    await yieldToBrowser();
    if (this.cancelled) return;
    const after = Text.of(newText.split('\n'));
    await yieldToBrowser();
    if (this.cancelled) return;
    // The diff was computed already (maybe in a worker): hand it over instead of recomputing.
    const diffConfig = { override: () => changes };
    const collapseUnchanged = expanded ? undefined : { margin: 3, minSize: 6 };
    const { path, language } = this;
    if (rewrite) {
      const [oldRanges, newRanges] = changedLines(changes, before, after);
      const host = document.createElement('div');
      host.className = 'gh-plain-split';
      this.parent.appendChild(host);
      const left = new EditorView({
        parent: host,
        doc: before,
        extensions: [
          readOnlyCode(`Before: ${path}`),
          lineMarks('deleted', oldRanges),
          language.of([]),
        ],
      });
      this.views.push(left);
      this.destroy = () => {
        left.destroy();
        host.remove();
      };
      // Each side is laid out in a frame of its own.
      await yieldFrame();
      if (this.cancelled) return;
      const right = new EditorView({
        parent: host,
        doc: after,
        extensions: [
          readOnlyCode(`After: ${path}`),
          lineMarks('inserted', newRanges),
          language.of([]),
        ],
      });
      this.views.push(right);
      this.destroy = () => {
        left.destroy();
        right.destroy();
        host.remove();
      };
      on.stats({ added: lineCount(newRanges), removed: lineCount(oldRanges) });
    } else if (unified) {
      const view = new EditorView({
        parent: this.parent,
        doc: after,
        extensions: [
          readOnlyCode(`After: ${path} (unified diff, removed lines shown inline)`),
          unifiedMergeView({
            original: before,
            mergeControls: false,
            // The changed lines carry their own edge mark (DiffEditor.css); a gutter would repeat it.
            gutter: false,
            highlightChanges: true,
            syntaxHighlightDeletions: true,
            collapseUnchanged,
            diffConfig,
          }),
          language.of([]),
        ],
      });
      this.views.push(view);
      this.destroy = () => view.destroy();
      on.stats(
        statsOf(getChunks(view.state)?.chunks ?? [], getOriginalDoc(view.state), view.state.doc),
      );
    } else {
      const merge = new MergeView({
        parent: this.parent,
        a: { doc: before, extensions: [readOnlyCode(`Before: ${path}`), language.of([])] },
        b: { doc: after, extensions: [readOnlyCode(`After: ${path}`), language.of([])] },
        gutter: false,
        highlightChanges: true,
        collapseUnchanged,
        diffConfig,
      });
      this.views.push(merge.a, merge.b);
      this.destroy = () => merge.destroy();
      on.stats(statsOf(merge.chunks, merge.a.state.doc, merge.b.state.doc));
    }
  }

  /** Syntax colours once the file type's language has loaded; without one, none. */
  highlight(): void {
    languageFor(this.path)
      ?.load()
      .then(async (support) => {
        // Each editor starts its parse in a task of its own (a first parse is a few dozen ms).
        for (const view of this.views) {
          await yieldToBrowser();
          if (this.cancelled) return;
          view.dispatch({ effects: this.language.reconfigure(support) });
        }
      })
      .catch(() => {
        // no highlighting for this file type; the diff itself is unaffected
      });
  }
}
