// The administrator's managed rules: judged before the user's, shown locked (no edit, no delete),
// with the file they come from.
import type { ManagedPolicyView } from '../../../shared/managed-settings';
import { LockIcon } from '../components/icons';
import { Table } from '../ui/Table';
import { RULE_COLUMNS, RuleCells } from './RuleCells';

export function ManagedRules({ managed }: { managed: ManagedPolicyView | null }) {
  if (!managed || managed.rules.length === 0) return null;
  const from = `Set by your administrator: ${managed.path}`;
  return (
    <section className="sv-managed" aria-label="Managed rules">
      <p className="sv-managed-note">
        <LockIcon /> Managed rules come first and cannot be changed here.{' '}
        <span className="dim">{from}</span>
      </p>
      <Table label="Managed rules" columns={RULE_COLUMNS}>
        {managed.rules.map((rule, i) => (
          <tr key={rule.id} data-rule-id={rule.id} data-managed="true">
            <RuleCells rule={rule} index={i} />
            <td className="ui-table-actions">
              <span className="sv-locked" title={from}>
                <LockIcon /> Locked
              </span>
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
