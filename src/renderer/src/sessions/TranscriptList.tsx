import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { TranscriptEntry } from '../../../shared/transcript';
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
  const atBottom = useRef(true);
  const last = entries.at(-1);

  useEffect(() => {
    if (atBottom.current && entries.length > 0)
      virtualizer.scrollToIndex(entries.length - 1, { align: 'end' });
  }, [entries.length, last?.rev, virtualizer]);

  const onScroll = () => {
    const el = scroller.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };

  return (
    <div
      className="transcript-scroll"
      ref={scroller}
      onScroll={onScroll}
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
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
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
