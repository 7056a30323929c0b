import type { ReactNode } from 'react';
import { Notice } from './Notice';
import './AsyncState.css';

interface Props<T> {
  /** null until the list is loaded. */
  items: readonly T[] | null;
  /** The last load or action that failed: shown above the rest, which stays as it was. */
  error?: string | null;
  /** Shown until the list is loaded; nothing when left out. */
  loading?: ReactNode;
  /** Shown instead of the content when the list is empty; nothing when left out. */
  empty?: ReactNode;
  children(items: readonly T[]): ReactNode;
}

/** A list read from the core: its error, then what is loading, that there is nothing, or the list. */
export function AsyncState<T>({ items, error, loading, empty, children }: Props<T>) {
  return (
    <>
      {error && <Notice tone="error">{error}</Notice>}
      {items === null
        ? loading !== undefined && <p className="dim">{loading}</p>
        : items.length === 0
          ? empty !== undefined && <p className="ui-async-empty">{empty}</p>
          : children(items)}
    </>
  );
}
