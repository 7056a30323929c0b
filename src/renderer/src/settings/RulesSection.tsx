// The rules of settings.json in order, with add, edit and delete through the rule editor; the
// administrator's managed rules above them, locked.
import { useCallback, useEffect, useState } from 'react';
import type { ManagedPolicyView } from '../../../shared/managed-settings';
import type { Rule } from '../../../shared/rules';
import { useApi } from '../api/context';
import { useWhenStreamOpens } from '../connection/stream-open';
import { RuleEditor } from '../rules/RuleEditor';
import { draftOfRule, EMPTY_DRAFT, type RuleDraft } from '../rules/rule-draft';
import { AsyncState } from '../ui/AsyncState';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Notice } from '../ui/Notice';
import { Table } from '../ui/Table';
import { ManagedRules } from './ManagedRules';
import { RULE_COLUMNS, RuleCells } from './RuleCells';
import './RulesSection.css';

interface EditorState {
  title: string;
  initial: RuleDraft;
  editing: boolean;
}

export function RulesSection({
  onChanged,
  managed,
}: {
  onChanged?: () => void;
  /** The administrator's policy, whose rules are listed first, locked. */
  managed: ManagedPolicyView | null;
}) {
  const api = useApi();
  const [rules, setRules] = useState<Rule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editor, setEditor] = useState<EditorState | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [notice, setNotice] = useState('');

  const load = useCallback(() => {
    api.call('listRules', {}).then(setRules, (e: Error) => setError(e.message));
  }, [api]);
  useEffect(load, [load]);
  useWhenStreamOpens(api, load);

  const remove = async (ruleId: string) => {
    setError(null);
    try {
      setRules(await api.call('deleteRule', { ruleId }));
      setNotice(`Rule ${ruleId} deleted.`);
      onChanged?.();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setConfirming(null);
    }
  };

  return (
    <Card
      id="sv-rules"
      title="Rules"
      description={
        <>
          Decide before anyone is asked. When several match, deny wins over ask, ask over allow;
          then the most specific.
        </>
      }
      actions={
        <Button
          variant="primary"
          onClick={() =>
            setEditor({
              title: 'New rule',
              initial: { ...EMPTY_DRAFT, source: 'ui', createdAt: Date.now() },
              editing: false,
            })
          }
        >
          Add rule…
        </Button>
      }
    >
      {notice && <Notice tone="done">{notice}</Notice>}
      <ManagedRules managed={managed} />
      <AsyncState
        items={rules}
        error={error}
        loading="Loading…"
        empty="No rules yet: every request asks (unless a mode or a grant decides it)."
      >
        {(shown) => (
          <Table label="Rules" columns={RULE_COLUMNS}>
            {shown.map((rule, i) => (
              <tr key={rule.id} data-rule-id={rule.id}>
                <RuleCells rule={rule} index={i} />
                <td className="ui-table-actions">
                  {confirming === rule.id ? (
                    <span role="group" aria-label={`Delete rule ${rule.id}?`}>
                      <Button variant="danger" onClick={() => void remove(rule.id)}>
                        Delete {rule.id}
                      </Button>
                      <button type="button" onClick={() => setConfirming(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <>
                      <button
                        type="button"
                        aria-label={`Edit rule ${rule.id}`}
                        onClick={() =>
                          setEditor({
                            title: `Edit rule ${rule.id}`,
                            initial: draftOfRule(rule),
                            editing: true,
                          })
                        }
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        aria-label={`Delete rule ${rule.id}`}
                        onClick={() => setConfirming(rule.id)}
                      >
                        Delete
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </AsyncState>
      {editor && (
        <RuleEditor
          title={editor.title}
          initial={editor.initial}
          editing={editor.editing}
          onClose={() => setEditor(null)}
          onSaved={(list, saved) => {
            setRules(list);
            setEditor(null);
            setNotice(`Rule ${saved.id} saved.`);
            onChanged?.();
          }}
        />
      )}
    </Card>
  );
}
