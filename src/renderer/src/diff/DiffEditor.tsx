import { useEffect, useRef, useState } from 'react';
import { formatCount } from '../components/format';
import type { Body, Stats } from './diff-body';
import { loadDiffDrawing } from './load';
import type { Mounting, SplitReason } from './mount-diff';
import type { DiffMode } from './use-diff-mode';
import './DiffEditor.css';

interface Props {
  path: string;
  /** Lines of the longer side, for the "comparing" note. */
  lineCount: number;
  body: Extract<Body, { kind: 'whole' | 'diff' }>;
  mode: DiffMode;
  expanded: boolean;
  onStats: (stats: Stats) => void;
  onReady: () => void;
}

/** Mounts CodeMirror once per (content, mode, expansion); the diff itself may come from a worker. */
export function DiffEditor({ path, lineCount, body, mode, expanded, onStats, onReady }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onStats, onReady });
  useEffect(() => {
    callbacks.current = { onStats, onReady };
  });
  const [state, setState] = useState<'computing' | 'ready' | 'failed'>('computing');
  const [splitBecause, setSplitBecause] = useState<SplitReason | null>(null);
  const text = body.kind === 'whole' ? body.text : null;
  const side = body.kind === 'whole' ? body.side : null;
  const oldText = body.kind === 'diff' ? body.oldText : null;
  const newText = body.kind === 'diff' ? body.newText : null;

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    let cancelled = false;
    let mounting: Mounting | null = null;

    const mount = async () => {
      const { Mounting } = await loadDiffDrawing();
      if (cancelled) return;
      const drawing = (mounting = new Mounting(parent, path));
      if (text !== null && side !== null) {
        drawing.whole(text, side);
      } else if (oldText !== null && newText !== null) {
        await drawing.changes(oldText, newText, mode, expanded, {
          split: setSplitBecause,
          stats: (stats) => callbacks.current.onStats(stats),
        });
        if (cancelled) return;
      }
      setState('ready');
      // Ready once the browser has laid the editor out and is about to paint it.
      requestAnimationFrame(() => {
        if (!cancelled) callbacks.current.onReady();
      });
      drawing.highlight();
    };
    mount().catch(() => {
      if (cancelled) return;
      setState('failed');
      callbacks.current.onReady();
    });
    return () => {
      cancelled = true;
      if (mounting) {
        mounting.cancelled = true;
        mounting.destroy();
      }
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
