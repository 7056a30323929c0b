import type { ReactNode } from 'react';
import { CapsHeading } from '../ui/CapsHeading';
import { Section } from '../ui/Section';
import './DetailSection.css';

interface Props {
  titleId: string;
  title: ReactNode;
  /** A control at the right of the title. */
  aside?: ReactNode;
  children: ReactNode;
}

/** One part of a decided request's detail: its changes, its votes, its raw input. */
export function DetailSection({ titleId, title, aside, children }: Props) {
  return (
    <Section
      className="hv-section"
      titleId={titleId}
      heading={<CapsHeading id={titleId}>{title}</CapsHeading>}
      aside={aside}
    >
      {children}
    </Section>
  );
}
