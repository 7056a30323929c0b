import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import type { TranscriptEntry } from '../../../shared/transcript';
import { TailFollow } from './tail-follow';
import { TranscriptEntryView } from './TranscriptEntry';

/**
 * The transcript, drawn only where it is on screen (a session can hold thousands of entries), and
 * kept scrolled to the newest while the reader is at the bottom.
 */
export function TranscriptList({
  entries,
  dropped,
}: {
  entries: TranscriptEntry[];
  dropped: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer's functions change with its state; the compiler leaves this component as written.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 80,
    overscan: 6,
    getItemKey: (index) => entries[index]!.id,
    // A scroll or a new row's measurement renders with React's batching, not at once inside the
    // event: a stream of updates would otherwise render the list synchronously again and again.
    useFlushSync: false,
  });
  const [tail] = useState(() => new TailFollow());
  const last = entries.at(-1);
  const totalSize = virtualizer.getTotalSize();

  // Again whenever rows are measured: the end moves when a row turns out taller than estimated.
  useEffect(() => {
    if (tail.following && entries.length > 0)
      virtualizer.scrollToIndex(entries.length - 1, { align: 'end' });
  }, [entries.length, last?.rev, totalSize, virtualizer, tail]);

  // A pointer let go anywhere, not only over the list, ends a drag of its scroll bar.
  useEffect(() => {
    const release = () => tail.hold(false);
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
    return () => {
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
    };
  }, [tail]);

  const onScroll = (event: SyntheticEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    tail.scrolled(event.timeStamp, el.scrollTop, el.scrollHeight - el.scrollTop - el.clientHeight);
  };
  const onInput = (event: SyntheticEvent) => tail.input(event.timeStamp);
  // Home and End go through the list: the browser's own smooth scroll to an end is cut short each
  // time rows drawn on the way are measured and the list moves to make up for their size.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    tail.input(event.timeStamp);
    if (entries.length === 0 || (event.key !== 'Home' && event.key !== 'End')) return;
    event.preventDefault();
    if (event.key === 'Home') {
      virtualizer.scrollToIndex(0, { align: 'start' });
      return;
    }
    tail.toEnd();
    virtualizer.scrollToIndex(entries.length - 1, { align: 'end' });
  };

  return (
    <div
      className="transcript-scroll"
      ref={scroller}
      onScroll={onScroll}
      onWheel={onInput}
      onKeyDown={onKeyDown}
      onTouchMove={onInput}
      onPointerDown={() => tail.hold(true)}
      tabIndex={0}
      aria-label="transcript"
      role="log"
    >
      {dropped > 0 && (
        <p className="dim t-dropped">
          {dropped} earlier entries were dropped to keep the transcript small.
        </p>
      )}
      {entries.length === 0 && <p className="dim">Nothing yet: send a prompt.</p>}
      <div style={{ height: totalSize, position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className="t-row"
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              width: '100%',
              transform: `translateY(${item.start}px)`,
            }}
          >
            <TranscriptEntryView entry={entries[item.index]!} />
          </div>
        ))}
      </div>
    </div>
  );
}
