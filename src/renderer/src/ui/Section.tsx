import type { ReactNode } from 'react';
import './Section.css';

interface Props {
  titleId: string;
  /** The section's heading element, whose id is `titleId`. */
  heading: ReactNode;
  /** A note or a control at the right of the heading. */
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled part of a page: its heading in a row with what belongs beside it, then its content. */
export function Section({ titleId, heading, aside, className, children }: Props) {
  return (
    <section className={className} aria-labelledby={titleId}>
      <div className="ui-section-head">
        {heading}
        {aside}
      </div>
      {children}
    </section>
  );
}
