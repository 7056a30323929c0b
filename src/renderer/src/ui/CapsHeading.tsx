import type { ReactNode } from 'react';
import './CapsHeading.css';

/** A small capitalised heading over a group of facts (a decision's parts, a rule's preview). */
export function CapsHeading({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h3 id={id} className="ui-caps-heading">
      {children}
    </h3>
  );
}
