// The rules of settings.json in order, with add, edit and delete through the rule editor.
import { useCallback, useEffect, useState } from 'react';
import type { Rule } from '../../../shared/rules';
import { useApi } from '../api/context';
import { KindBadge } from '../approvals/KindBadge';
import { Revealed } from '../components/Revealed';
import { RuleEditor } from '../rules/RuleEditor';
import { draftOfRule, EMPTY_DRAFT, type RuleDraft } from '../rules/rule-draft';

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
    <section className="sv-card" aria-labelledby="sv-rules-title" id="sv-rules">
      <div className="sv-card-head">
        <div>
          <h3 id="sv-rules-title">Rules</h3>
          <p className="sv-desc">
            Decide before anyone is asked. When several match, deny wins over ask, ask over allow;
            then the most specific.
          </p>
        </div>
        <button
          type="button"
          className="sv-primary"
          onClick={() =>
            setEditor({
              title: 'New rule',
              initial: { ...EMPTY_DRAFT, source: 'ui', createdAt: Date.now() },
              editing: false,
            })
          }
        >
          Add rule…
        </button>
      </div>
      {notice && (
        <p className="sv-notice" role="status">
          {notice}
        </p>
      )}
      {error && (
        <p className="sv-error" role="alert">
          {error}
        </p>
      )}
      {rules === null ? (
        <p className="sv-dim">Loading…</p>
      ) : rules.length === 0 ? (
        <p className="sv-empty">
          No rules yet: every request asks (unless a mode or a grant decides it).
        </p>
      ) : (
        <div className="sv-table-wrap">
          <table className="sv-table" aria-label="Rules">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Action</th>
                <th scope="col">Kind</th>
                <th scope="col">Command or path</th>
                <th scope="col">Agent</th>
                <th scope="col">Project</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.map((rule, i) => (
                <tr key={rule.id} data-rule-id={rule.id}>
                  <td className="sv-dim">{i + 1}</td>
                  <td>
                    <span className={`sv-action ${rule.action}`}>{ACTION_LABEL[rule.action]}</span>
                  </td>
                  <td>
                    {rule.toolKind === undefined ? (
                      <span className="sv-dim">any</span>
                    ) : (
                      <span className="sv-kinds">
                        {(Array.isArray(rule.toolKind) ? rule.toolKind : [rule.toolKind]).map(
                          (k) => (
                            <KindBadge key={k} kind={k} />
                          ),
                        )}
                      </span>
                    )}
                  </td>
                  <td className="sv-target">
                    {rule.command !== undefined ? (
                      <>
                        <code>
                          <Revealed text={rule.command} />
                        </code>
                        <span className="sv-dim">
                          {' '}
                          {rule.commandMatch === 'exact' ? 'exactly' : '…'}
                        </span>
                      </>
                    ) : rule.path !== undefined ? (
                      <code>
                        <Revealed text={rule.path} />
                      </code>
                    ) : (
                      <span className="sv-dim">any</span>
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
                  <td>{rule.agent ?? <span className="sv-dim">any</span>}</td>
                  <td className="sv-project">
                    {rule.project ? (
                      <code>{rule.project}</code>
                    ) : (
                      <span className="sv-dim">any</span>
                    )}
                  </td>
                  <td className="sv-actions">
                    {confirming === rule.id ? (
                      <span
                        className="sv-confirm"
                        role="group"
                        aria-label={`Delete rule ${rule.id}?`}
                      >
                        <button
                          type="button"
                          className="sv-danger"
                          onClick={() => void remove(rule.id)}
                        >
                          Delete {rule.id}
                        </button>
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
            </tbody>
          </table>
        </div>
      )}
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
    </section>
  );
}
