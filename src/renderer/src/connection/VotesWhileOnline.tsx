import type { ReactNode } from 'react';
import { canVote, useConnection } from './connection';
import './VotesWhileOnline.css';

/**
 * The dialog's buttons and choices, disabled as one (a disabled fieldset: no click, no focus, said
 * as unavailable) while the core is not heard from. The keys are refused by the dialog itself.
 */
export function VotesWhileOnline({ children }: { children: ReactNode }) {
  const online = canVote(useConnection());
  return (
    <fieldset className="gh-votes" disabled={!online} data-offline={online ? undefined : 'true'}>
      {children}
    </fieldset>
  );
}
