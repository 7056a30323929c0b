import type { ReactNode } from 'react';
import { Section } from '../ui/Section';
import './DialogSection.css';

interface Props {
  titleId: string;
  title: ReactNode;
  /** A quiet word on where the content comes from, at the right of the title. */
  note?: ReactNode;
  /** A control at the right of the title. */
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled part of a request in the dialog: its changes, its command, its paths. */
export function DialogSection({ titleId, title, note, aside, className, children }: Props) {
  return (
    <Section
      className={className ? `gh-section ${className}` : 'gh-section'}
      titleId={titleId}
      heading={<h3 id={titleId}>{title}</h3>}
      aside={
        <>
          {note && <span className="gh-section-note">{note}</span>}
          {aside}
        </>
      }
    >
      {children}
    </Section>
  );
}
