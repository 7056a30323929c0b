import type { ReactNode } from 'react';
import './Notice.css';

/**
 * What came of an action or a load, under it: an error is announced at once (`alert`), a
 * confirmation politely (`status`).
 */
export function Notice({
  tone,
  className,
  children,
}: {
  tone: 'error' | 'done';
  /** Where it stands in its view (margins). */
  className?: string;
  children: ReactNode;
}) {
  const classes = [`ui-notice-${tone}`, className].filter(Boolean).join(' ');
  return (
    <p className={classes} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}
