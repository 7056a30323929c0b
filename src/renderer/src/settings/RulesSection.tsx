// The rules of settings.json in order, with add, edit and delete through the rule editor.
import { useCallback, useEffect, useState } from 'react';
import type { Rule } from '../../../shared/rules';
import { useApi } from '../api/context';
import { KindBadge } from '../approvals/KindBadge';
import { Revealed } from '../components/Revealed';
import { RuleEditor } from '../rules/RuleEditor';
import { draftOfRule, EMPTY_DRAFT, type RuleDraft } from '../rules/rule-draft';
import { AsyncState } from '../ui/AsyncState';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Notice } from '../ui/Notice';
import { Table } from '../ui/Table';
import './RulesSection.css';

interface EditorState {
  title: string;
  initial: RuleDraft;
  editing: boolean;
}

const ACTION_LABEL: Record<Rule['action'], string> = { allow: 'Allow', ask: 'Ask', deny: 'Deny' };

export function RulesSection({ onChanged }: { onChanged?: () => void }) {
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
      <AsyncState
        items={rules}
        error={error}
        loading="Loading…"
        empty="No rules yet: every request asks (unless a mode or a grant decides it)."
      >
        {(shown) => (
          <Table
            label="Rules"
            columns={['#', 'Action', 'Kind', 'Command or path', 'Agent', 'Project']}
          >
            {shown.map((rule, i) => (
              <tr key={rule.id} data-rule-id={rule.id}>
                <td className="dim">{i + 1}</td>
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
                      <span className="dim">
                        {' '}
                        {rule.commandMatch === 'exact' ? 'exactly' : '…'}
                      </span>
                    </>
                  ) : rule.path !== undefined ? (
                    <code>
                      <Revealed text={rule.path} />
                    </code>
                  ) : (
                    <span className="dim">any</span>
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
