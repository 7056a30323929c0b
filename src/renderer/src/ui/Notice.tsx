import type { ReactNode } from 'react';
import './Notice.css';

/**
 * What came of an action or a load, under it: an error is announced at once (`alert`), a
 * confirmation politely (`status`).
 */
export function Notice({ tone, children }: { tone: 'error' | 'done'; children: ReactNode }) {
  return tone === 'error' ? (
    <p className="ui-notice-error" role="alert">
      {children}
    </p>
  ) : (
    <p className="ui-notice-done" role="status">
      {children}
    </p>
  );
}
