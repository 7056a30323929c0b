import type { PermissionMode } from '../../../shared/domain';

/** A decision that stands without a person: a rule (the administrator's or the user's), a grant, a mode. */
export type StandingDecider =
  | { type: 'rule'; ruleId: string; source?: 'managed' }
  | { type: 'grant'; grantId: string }
  | { type: 'mode'; mode: PermissionMode };

/** How a standing decision is named to a person: `rule no-rm`, `managed rule no-curl`, `mode plan`. */
export function standingName(by: StandingDecider): string {
  switch (by.type) {
    case 'rule':
      return `${by.source === 'managed' ? 'managed rule' : 'rule'} ${by.ruleId}`;
    case 'grant':
      return `grant ${by.grantId}`;
    case 'mode':
      return `mode ${by.mode}`;
  }
}
