// The decisions as one virtualized listbox: only the rows in view are in the page, so a history of
// a million decisions scrolls like one of ten. Up/down move the selection, Enter opens the detail.
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  type KeyboardEvent,
  type Ref,
} from 'react';
import type { HistoryItem } from '../../../shared/history';
import { KindBadge } from '../approvals/KindBadge';
import { baseName, dirName } from '../components/format';
import { AlertIcon } from '../components/icons';
import { Revealed } from '../components/Revealed';
import { DecisionBadge } from './DecisionBadge';
import { decisionOf, deciderWords, formatWhen } from './words';
import './HistoryList.css';

/** Row height in CSS pixels (rows are one line of title and one of detail, cut with an ellipsis). */
export const ROW_HEIGHT = 64;

export interface HistoryListHandle {
  focus(): void;
}

interface Props {
  items: HistoryItem[];
  selectedId: string | null;
  openId: string | null;
  hasMore: boolean;
  busy: boolean;
  now: number;
  onSelect(requestId: string): void;
  onOpen(requestId: string): void;
  onLoadMore(): void;
  ref?: Ref<HistoryListHandle>;
}

export const rowDomId = (requestId: string) => `hv-row-${requestId}`;

/** What a row shows under its title: the command, or the file name first and then its folder. */
function Subject({ item }: { item: HistoryItem }) {
  if (item.commandText) return <Revealed text={item.commandText} />;
  const first = item.paths[0];
  if (!first) return <span className="dim">—</span>;
  const more = item.paths.length - 1;
  return (
    <>
      <span className="hv-file">
        <Revealed text={baseName(first)} />
      </span>{' '}
      <Revealed text={dirName(first)} />
      {more > 0 && ` +${more}`}
    </>
  );
}

export function HistoryList({
  items,
  selectedId,
  openId,
  hasMore,
  busy,
  now,
  onSelect,
  onOpen,
  onLoadMore,
  ref,
}: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer is read during render by design; this component is not memoized by the compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (index) => items[index]?.requestId ?? index,
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows.length > 0 ? rows[rows.length - 1]!.index : -1;

  useImperativeHandle(ref, () => ({ focus: () => scroller.current?.focus() }), []);

  // Near the end of what is loaded: ask for the next page.
  useEffect(() => {
    if (hasMore && lastIndex >= items.length - 5) onLoadMore();
  }, [hasMore, lastIndex, items.length, onLoadMore]);

  // New decisions arrive on top; someone reading further down keeps their place.
  const firstId = useRef<string | null>(null);
  useLayoutEffect(() => {
    const previous = firstId.current;
    firstId.current = items[0]?.requestId ?? null;
    const el = scroller.current;
    if (!previous || !el || el.scrollTop === 0) return;
    const moved = items.findIndex((i) => i.requestId === previous);
    if (moved > 0) el.scrollTop += moved * ROW_HEIGHT;
  }, [items]);

  const selectedIndex = selectedId ? items.findIndex((i) => i.requestId === selectedId) : -1;

  const move = (index: number) => {
    const target = items[Math.max(0, Math.min(items.length - 1, index))];
    if (!target) return;
    onSelect(target.requestId);
    virtualizer.scrollToIndex(items.indexOf(target), { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(
      1,
      Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT) / ROW_HEIGHT) - 1,
    );
    const at = selectedIndex;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(at + 1),
      ArrowUp: () => move(at < 0 ? 0 : at - 1),
      PageDown: () => move(at + page),
      PageUp: () => move(at - page),
      Home: () => move(0),
      End: () => move(items.length - 1),
      Enter: () => {
        if (selectedId) onOpen(selectedId);
      },
    };
    const action = keys[e.key];
    if (!action || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    action();
  };

  return (
    <div
      ref={scroller}
      className="hv-list"
      role="listbox"
      aria-label="Decisions, newest first"
      aria-busy={busy || undefined}
      aria-activedescendant={selectedIndex >= 0 ? rowDomId(selectedId!) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (selectedIndex < 0 && items[0]) onSelect(items[0].requestId);
      }}
    >
      <div
        role="presentation"
        className="hv-list-sizer"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {rows.map((row) => {
          const item = items[row.index]!;
          const decision = decisionOf(item.reply);
          const selected = item.requestId === selectedId;
          return (
            <div
              key={row.key}
              id={rowDomId(item.requestId)}
              role="option"
              aria-selected={selected}
              aria-posinset={row.index + 1}
              aria-setsize={hasMore ? -1 : items.length}
              data-request-id={item.requestId}
              className={`hv-row${selected ? ' selected' : ''}${item.requestId === openId ? ' open' : ''}`}
              style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
              onClick={() => {
                onSelect(item.requestId);
                onOpen(item.requestId);
              }}
            >
              <DecisionBadge decision={decision} />
              <span className="hv-row-title">
                <Revealed text={item.title || '(no title)'} />
              </span>
              <time className="hv-row-time" dateTime={new Date(item.decidedAt).toISOString()}>
                {formatWhen(item.decidedAt, now)}
              </time>
              <span className="hv-row-kind">
                <KindBadge kind={item.toolKind} />
              </span>
              <span className="hv-row-subject">
                <Subject item={item} />
              </span>
              <span className="hv-row-meta">
                {item.warningCodes.length > 0 && (
                  <span className="hv-warn" title={item.warningCodes.join(', ')}>
                    <AlertIcon />
                    <span className="visually-hidden">
                      {item.warningCodes.length} warning{item.warningCodes.length === 1 ? '' : 's'},
                    </span>
                  </span>
                )}
                <span className="hv-row-agent">{item.agentId}</span>
                <span aria-hidden="true"> · </span>
                <span className="hv-row-decider">
                  {deciderWords(item.reply, item.decider)}
                  {item.message && (
                    <span className="hv-row-message" title={item.message}>
                      : “{item.message}”
                    </span>
                  )}
                </span>
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
