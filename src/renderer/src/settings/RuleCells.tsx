// One rule's cells in a rules table: what it does, to what, for whom. The user's rules and the
// administrator's managed rules are shown alike; only their actions differ.
import type { Rule } from '../../../shared/rules';
import { KindBadge } from '../approvals/KindBadge';
import { Revealed } from '../components/Revealed';
import { previewConditionWords } from '../rules/rule-words';

const ACTION_LABEL: Record<Rule['action'], string> = { allow: 'Allow', ask: 'Ask', deny: 'Deny' };

export const RULE_COLUMNS = ['#', 'Action', 'Kind', 'Command or path', 'Agent', 'Project'];

export function RuleCells({ rule, index }: { rule: Rule; index: number }) {
  const when = previewConditionWords(rule);
  return (
    <>
      <td className="dim">{index + 1}</td>
      <td>
        <span className={`sv-action ${rule.action}`}>{ACTION_LABEL[rule.action]}</span>
      </td>
      <td>
        {rule.toolKind === undefined ? (
          <span className="dim">any</span>
        ) : (
          <span className="sv-kinds">
            {(Array.isArray(rule.toolKind) ? rule.toolKind : [rule.toolKind]).map((k) => (
              <KindBadge key={k} kind={k} />
            ))}
          </span>
        )}
      </td>
      <td className="sv-target">
        {rule.command !== undefined ? (
          <>
            <code>
              <Revealed text={rule.command} />
            </code>
            <span className="dim"> {rule.commandMatch === 'exact' ? 'exactly' : '…'}</span>
          </>
        ) : rule.path !== undefined ? (
          <code>
            <Revealed text={rule.path} />
          </code>
        ) : (
          <span className="dim">any</span>
        )}
        {when && (
          <span className="sv-rule-when">
            <Revealed text={when} />
          </span>
        )}
        <span className="sv-rule-id">
          {rule.id}
          {rule.reason && (
            <>
              {' '}
              · <Revealed text={rule.reason} />
            </>
          )}
        </span>
      </td>
      <td>{rule.agent ?? <span className="dim">any</span>}</td>
      <td className="sv-project">
        {rule.project ? <code>{rule.project}</code> : <span className="dim">any</span>}
      </td>
    </>
  );
}
