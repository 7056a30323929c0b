import type { ReactNode } from 'react';
import './Card.css';

interface Props {
  /** The section's id (a jump target); its heading is `${id}-title`. */
  id: string;
  title: ReactNode;
  description?: ReactNode;
  /** Controls at the head's right: an add button, a toggle. */
  actions?: ReactNode;
  children: ReactNode;
}

/** A titled card of a page made of several independent parts (the settings). */
export function Card({ id, title, description, actions, children }: Props) {
  return (
    <section className="ui-card" aria-labelledby={`${id}-title`} id={id}>
      <div className="ui-card-head">
        <div>
          <h3 id={`${id}-title`}>{title}</h3>
          {description && <p className="ui-card-desc">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}
