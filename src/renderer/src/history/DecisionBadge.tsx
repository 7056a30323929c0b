import { DECISION_LABEL, type Decision } from './words';
import './DecisionBadge.css';

/** Allowed, denied or cancelled, as a coloured pill (a list row, the detail's verdict). */
export function DecisionBadge({ decision }: { decision: Decision }) {
  return <span className={`hv-decision ${decision}`}>{DECISION_LABEL[decision]}</span>;
}
