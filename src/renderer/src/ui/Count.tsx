import type { ReactNode } from 'react';
import './Count.css';

/** A number in a pill beside a label ("Approvals 3", "Queue 12"). */
export function Count({ children }: { children: ReactNode }) {
  return <span className="ui-count">{children}</span>;
}
