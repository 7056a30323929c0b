// One file change of a request: a CodeMirror merge view (unified or side by side), highlighted by
// file type, unchanged stretches collapsed; binary, empty and oversized content summarised.
// Reused by the history window: it needs nothing but a PreparedDiff.
import {
  MergeView,
  getChunks,
  getOriginalDoc,
  unifiedMergeView,
  type Change,
  type Chunk,
} from '@codemirror/merge';
import { Compartment, Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import type { PreparedDiff } from '../../../shared/domain';
import { ArrowRight, FileIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { baseName, dirName, formatBytes, formatCount } from '../components/format';
import { Button } from '../ui/Button';
import { computeDiff } from './diff-engine';

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
import { languageFor, lineMarks, readOnlyCode } from './editor';
import type { DiffMode } from './use-diff-mode';
import './DiffView.css';

const CHANGE_LABEL: Record<PreparedDiff['change'], string> = {
  create: 'New file',
  modify: 'Modified',
  delete: 'Deleted',
  move: 'Moved',
};

interface Stats {
  added: number;
  removed: number;
}

type Body =
  | { kind: 'binary' }
  | { kind: 'summary'; text: string }
  | { kind: 'whole'; side: 'inserted' | 'deleted'; text: string }
  | { kind: 'diff'; oldText: string; newText: string };

/** What to draw: a diff only when both sides have text; a whole file when one side is empty. */
function bodyOf(diff: PreparedDiff): Body {
  if (diff.binary) return { kind: 'binary' };
  const { oldText, newText, change } = diff;
  if (oldText === null && newText === null) {
    if (change === 'delete')
      return {
        kind: 'summary',
        text: 'The file will be deleted. The agent sent no content to show.',
      };
    if (change === 'move')
      return { kind: 'summary', text: 'The file is moved; the agent sent no content change.' };
    return { kind: 'summary', text: 'The agent sent no content for this file.' };
  }
  if (change === 'delete') return { kind: 'whole', side: 'deleted', text: oldText ?? '' };
  if ((oldText === null || oldText === '') && change !== 'move') {
    return newText === '' || newText === null
      ? { kind: 'summary', text: 'An empty file.' }
      : { kind: 'whole', side: 'inserted', text: newText };
  }
  return { kind: 'diff', oldText: oldText ?? '', newText: newText ?? '' };
}

function linesIn(doc: Text, from: number, to: number): number {
  if (to <= from) return 0;
  return doc.lineAt(Math.min(to - 1, doc.length)).number - doc.lineAt(from).number + 1;
}

function statsOf(chunks: readonly Chunk[], a: Text, b: Text): Stats {
  let added = 0;
  let removed = 0;
  for (const c of chunks) {
    removed += linesIn(a, c.fromA, c.toA);
    added += linesIn(b, c.fromB, c.toB);
  }
  return { added, removed };
}

function initialStats(diff: PreparedDiff, body: Body): Stats | null {
  if (body.kind === 'whole') {
    return body.side === 'inserted'
      ? { added: diff.newLines, removed: 0 }
      : { added: 0, removed: diff.oldLines };
  }
  return null;
}

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
  const label = CHANGE_LABEL[diff.change];

  const readyRef = useRef(onReady);
  useEffect(() => {
    readyRef.current = onReady;
  });
  const summarised = body.kind === 'binary' || body.kind === 'summary';
  useEffect(() => {
    if (summarised) readyRef.current?.();
  }, [summarised]);

  return (
    <section className={`gh-diff change-${diff.change}`} aria-label={`${label}: ${diff.path}`}>
      <header className="gh-diff-header">
        <span className={`gh-change-badge change-${diff.change}`}>{label}</span>
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
        {body.kind === 'diff' && (
          <Button variant="link" aria-pressed={expanded} onClick={() => setExpanded((e) => !e)}>
            {expanded ? 'Collapse unchanged' : 'Show all lines'}
          </Button>
        )}
      </header>
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

/** 1-based inclusive line ranges each side's changes touch, sorted and merged. */
function changedLines(
  changes: readonly Change[],
  a: Text,
  b: Text,
): [[number, number][], [number, number][]] {
  const side = (doc: Text, pick: (c: Change) => [number, number]) => {
    const ranges: [number, number][] = [];
    for (const c of changes) {
      const [from, to] = pick(c);
      if (to <= from) continue;
      const first = doc.lineAt(from).number;
      const last = doc.lineAt(Math.max(from, to - 1)).number;
      const prev = ranges[ranges.length - 1];
      if (prev && first <= prev[1] + 1) prev[1] = Math.max(prev[1], last);
      else ranges.push([first, last]);
    }
    return ranges;
  };
  return [side(a, (c) => [c.fromA, c.toA]), side(b, (c) => [c.fromB, c.toB])];
}

const count = (ranges: [number, number][]) =>
  ranges.reduce((n, [from, to]) => n + to - from + 1, 0);

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

interface DiffEditorProps {
  path: string;
  /** Lines of the new side, for the "comparing" note. */
  lineCount: number;
  body: Extract<Body, { kind: 'whole' | 'diff' }>;
  mode: DiffMode;
  expanded: boolean;
  onStats: (stats: Stats) => void;
  onReady: () => void;
}

/** Mounts CodeMirror once per (content, mode, expansion); the diff itself may come from a worker. */
function DiffEditor({ path, lineCount, body, mode, expanded, onStats, onReady }: DiffEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onStats, onReady });
  useEffect(() => {
    callbacks.current = { onStats, onReady };
  });
  const [state, setState] = useState<'computing' | 'ready' | 'failed'>('computing');
  const [splitBecause, setSplitBecause] = useState<{
    kind: 'unified' | 'rewrite';
    lines: number;
  } | null>(null);
  const text = body.kind === 'whole' ? body.text : null;
  const side = body.kind === 'whole' ? body.side : null;
  const oldText = body.kind === 'diff' ? body.oldText : null;
  const newText = body.kind === 'diff' ? body.newText : null;

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    let cancelled = false;
    let destroy = () => {};
    const language = new Compartment();
    const views: EditorView[] = [];

    const mount = async () => {
      if (text !== null && side !== null) {
        const view = new EditorView({
          parent,
          doc: text,
          extensions: [
            readOnlyCode(
              side === 'inserted' ? `After: ${path} (new file)` : `Before: ${path} (deleted file)`,
            ),
            lineMarks(side),
            language.of([]),
          ],
        });
        views.push(view);
        destroy = () => view.destroy();
      } else if (oldText !== null && newText !== null) {
        const { changes, removed } = await computeDiff(oldText, newText);
        if (cancelled) return;
        const rewrite = removed.largest > MERGE_MAX_BLOCK_LINES;
        const unified =
          !rewrite && mode === 'unified' && removed.total <= UNIFIED_MAX_REMOVED_LINES;
        if (rewrite) setSplitBecause({ kind: 'rewrite', lines: removed.largest });
        else if (mode === 'unified' && !unified)
          setSplitBecause({ kind: 'unified', lines: removed.total });
        // Splitting a large text into lines is work of its own: one side per task.
        const before = Text.of(oldText.split('\n'));
        await yieldToBrowser();
        if (cancelled) return;
        const after = Text.of(newText.split('\n'));
        await yieldToBrowser();
        if (cancelled) return;
        // The diff was computed already (maybe in a worker): hand it over instead of recomputing.
        const diffConfig = { override: () => changes };
        const collapseUnchanged = expanded ? undefined : { margin: 3, minSize: 6 };
        if (rewrite) {
          const [oldRanges, newRanges] = changedLines(changes, before, after);
          const host = document.createElement('div');
          host.className = 'gh-plain-split';
          parent.appendChild(host);
          const left = new EditorView({
            parent: host,
            doc: before,
            extensions: [
              readOnlyCode(`Before: ${path}`),
              lineMarks('deleted', oldRanges),
              language.of([]),
            ],
          });
          views.push(left);
          destroy = () => {
            left.destroy();
            host.remove();
          };
          // Each side is laid out in a frame of its own.
          await yieldFrame();
          if (cancelled) return;
          const right = new EditorView({
            parent: host,
            doc: after,
            extensions: [
              readOnlyCode(`After: ${path}`),
              lineMarks('inserted', newRanges),
              language.of([]),
            ],
          });
          views.push(right);
          destroy = () => {
            left.destroy();
            right.destroy();
            host.remove();
          };
          callbacks.current.onStats({ added: count(newRanges), removed: count(oldRanges) });
        } else if (unified) {
          const view = new EditorView({
            parent,
            doc: after,
            extensions: [
              readOnlyCode(`After: ${path} (unified diff, removed lines shown inline)`),
              unifiedMergeView({
                original: before,
                mergeControls: false,
                // The changed lines carry their own edge mark (diff.css); a gutter would repeat it.
                gutter: false,
                highlightChanges: true,
                syntaxHighlightDeletions: true,
                collapseUnchanged,
                diffConfig,
              }),
              language.of([]),
            ],
          });
          views.push(view);
          destroy = () => view.destroy();
          callbacks.current.onStats(
            statsOf(
              getChunks(view.state)?.chunks ?? [],
              getOriginalDoc(view.state),
              view.state.doc,
            ),
          );
        } else {
          const merge = new MergeView({
            parent,
            a: { doc: before, extensions: [readOnlyCode(`Before: ${path}`), language.of([])] },
            b: { doc: after, extensions: [readOnlyCode(`After: ${path}`), language.of([])] },
            gutter: false,
            highlightChanges: true,
            collapseUnchanged,
            diffConfig,
          });
          views.push(merge.a, merge.b);
          destroy = () => merge.destroy();
          callbacks.current.onStats(statsOf(merge.chunks, merge.a.state.doc, merge.b.state.doc));
        }
      }
      setState('ready');
      // Ready once the browser has laid the editor out and is about to paint it.
      requestAnimationFrame(() => {
        if (!cancelled) callbacks.current.onReady();
      });
      const description = languageFor(path);
      description
        ?.load()
        .then(async (support) => {
          // Each editor starts its parse in a task of its own (a first parse is a few dozen ms).
          for (const view of views) {
            await yieldToBrowser();
            if (cancelled) return;
            view.dispatch({ effects: language.reconfigure(support) });
          }
        })
        .catch(() => {
          // no highlighting for this file type; the diff itself is unaffected
        });
    };
    mount().catch(() => {
      if (cancelled) return;
      setState('failed');
      callbacks.current.onReady();
    });
    return () => {
      cancelled = true;
      destroy();
    };
  }, [path, text, side, oldText, newText, mode, expanded]);

  return (
    <div className={`gh-diff-body mode-${body.kind === 'whole' ? 'whole' : mode}`}>
      {state === 'computing' && body.kind === 'diff' && (
        <p className="gh-diff-pending" role="status">
          Comparing {formatCount(lineCount)} lines…
        </p>
      )}
      {splitBecause?.kind === 'unified' && (
        <p className="gh-diff-summary" role="note">
          Shown side by side: {formatCount(splitBecause.lines)} removed lines are too many to draw
          inline.
        </p>
      )}
      {splitBecause?.kind === 'rewrite' && (
        <p className="gh-diff-summary" role="note">
          Mostly rewritten: a block of {formatCount(splitBecause.lines)} changed lines. Shown before
          and after, side by side, changed lines marked.
        </p>
      )}
      {state === 'failed' && (
        <p className="gh-diff-summary" role="alert">
          The diff could not be drawn. Deny the request if you cannot check the change another way.
        </p>
      )}
      <div ref={host} className="gh-diff-host" />
    </div>
  );
}
