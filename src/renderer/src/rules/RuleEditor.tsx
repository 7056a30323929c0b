// The rule editor (history's "Make this a rule", suggestions, the settings' rule list): every field
// of a rule, a live preview of the past requests it would have matched, and Save, which shows the
// core's validation errors as the core wrote them.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { AgentInfo } from '../../../shared/domain';
import { TOOL_KINDS, type Rule, type ToolKind } from '../../../shared/rules';
import { useApi } from '../api/context';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { TrustConfirm } from '../approvals/TrustConfirm';
import { useGuard } from '../approvals/use-guard';
import { PreviewConditionField } from './PreviewConditionField';
import { ruleOfDraft, suggestId, type RuleDraft, type RuleTarget } from './rule-draft';
import { RulePreview } from './RulePreview';
import './RuleEditor.css';

interface Props {
  /** Heading of the editor ("Make this a rule", "New rule", "Edit rule"). */
  title: string;
  initial: RuleDraft;
  /** Editing a saved rule: its id stays. */
  editing?: boolean;
  /** A line over the form saying where the draft came from. */
  origin?: string;
  onSaved(rules: Rule[], saved: Rule): void;
  onClose(): void;
}

export function RuleEditor({ title, initial, editing = false, origin, onSaved, onClose }: Props) {
  const api = useApi();
  const uid = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [draft, setDraft] = useState<RuleDraft>(initial);
  const [idTouched, setIdTouched] = useState(editing || initial.id !== '');
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [takenIds, setTakenIds] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  // An allow rule that matches any request, waiting for the person to confirm what it allows.
  const [allowAny, setAllowAny] = useState<{ rule: Rule; reach: string } | null>(null);

  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
    return () => el?.close();
  }, []);

  useEffect(() => {
    api.call('listAgents', {}).then(setAgents, () => undefined);
    api.call('listRules', {}).then(
      (rules) =>
        setTakenIds(new Set(rules.map((r) => r.id).filter((id) => !editing || id !== initial.id))),
      () => undefined,
    );
  }, [api, editing, initial.id]);

  const id = idTouched ? draft.id : suggestId(draft, takenIds);
  const rule = useMemo(() => ruleOfDraft({ ...draft, id }), [draft, id]);
  const chosen = draft.target !== '';
  const confirming =
    allowAny !== null && JSON.stringify(allowAny.rule) === JSON.stringify(rule) ? allowAny : null;
  const confirmGuarded = useGuard(confirming ? `allow-any:${JSON.stringify(rule)}` : '');
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const setTarget = (target: RuleTarget) =>
    setDraft((d) => ({
      ...d,
      target,
      // A command is only ever a shell command; a path never is.
      toolKind:
        target === 'command'
          ? 'execute'
          : target === 'path' && d.toolKind === 'execute'
            ? ''
            : d.toolKind,
    }));

  /** What the core says the rule allows when nothing narrows it; null when it names something. */
  const reachOf = async (asked: Rule): Promise<string | null> => {
    try {
      return (await api.call('previewRule', { rule: asked, limit: 1 })).allowsAny;
    } catch {
      // An invalid rule: the save below shows the core's own words for it.
      return null;
    }
  };

  const store = async (confirmed: boolean) => {
    if (!chosen) return;
    setSaving(true);
    setSaveError(null);
    try {
      const reach = confirmed ? null : await reachOf(rule);
      if (reach !== null) {
        setAllowAny({ rule, reach });
        return;
      }
      const rules = await api.call('saveRule', {
        ruleId: rule.id,
        rule,
        ...(confirmed ? { confirmAllowAny: true as const } : {}),
      });
      setAllowAny(null);
      onSaved(rules, rule);
    } catch (error) {
      setSaveError((error as Error).message);
    } finally {
      setSaving(false);
    }
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    void store(false);
  };

  const agentChoices =
    agents.some((a) => a.id === draft.agent) || !draft.agent
      ? agents
      : [...agents, { id: draft.agent, name: draft.agent } as AgentInfo];
  const kindValue = Array.isArray(draft.toolKind) ? draft.toolKind.join(',') : draft.toolKind;
  // Only commands are previewed: the condition is offered to an allow that can match one.
  const mayRun =
    draft.toolKind === '' ||
    draft.toolKind === 'execute' ||
    (Array.isArray(draft.toolKind) && draft.toolKind.includes('execute'));

  return (
    <dialog
      ref={dialog}
      className="re-dialog"
      aria-labelledby={`${uid}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <form className="re-form" onSubmit={save} noValidate>
        <header className="re-head">
          <h2 id={`${uid}-title`}>{title}</h2>
          {origin && <p className="re-origin">{origin}</p>}
        </header>
        <div className="re-body">
          <div className="re-fields">
            <fieldset className="re-segmented">
              <legend>Action</legend>
              {(['allow', 'ask', 'deny'] as const).map((action) => (
                <label
                  key={action}
                  className={`re-seg ${action}${draft.action === action ? ' on' : ''}`}
                >
                  <input
                    type="radio"
                    name={`${uid}-action`}
                    value={action}
                    checked={draft.action === action}
                    onChange={() => set('action', action)}
                  />
                  {action === 'allow' ? 'Allow' : action === 'ask' ? 'Ask' : 'Deny'}
                </label>
              ))}
            </fieldset>

            <Field label="Tool kind" className="re-field">
              <select
                value={kindValue}
                onChange={(e) =>
                  set(
                    'toolKind',
                    e.target.value.includes(',')
                      ? draft.toolKind
                      : (e.target.value as ToolKind | ''),
                  )
                }
              >
                <option value="">Any kind</option>
                {Array.isArray(draft.toolKind) && (
                  <option value={kindValue}>Several: {draft.toolKind.join(', ')}</option>
                )}
                {TOOL_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            </Field>

            <fieldset className="re-segmented">
              <legend>Matches</legend>
              {(
                [
                  ['any', 'Any request'],
                  ['command', 'A command'],
                  ['path', 'A path'],
                ] as const
              ).map(([target, label]) => (
                <label key={target} className={`re-seg${draft.target === target ? ' on' : ''}`}>
                  <input
                    type="radio"
                    name={`${uid}-target`}
                    value={target}
                    checked={draft.target === target}
                    onChange={() => setTarget(target)}
                  />
                  {label}
                </label>
              ))}
            </fieldset>

            {draft.target === 'command' && (
              <div className="re-row">
                <Field label="Command" className="re-field grow">
                  <input
                    className="mono"
                    value={draft.command}
                    onChange={(e) => set('command', e.target.value)}
                    spellCheck={false}
                    autoComplete="off"
                    aria-describedby={`${uid}-command-hint`}
                  />
                </Field>
                <Field label="Match" className="re-field">
                  <select
                    value={draft.commandMatch}
                    onChange={(e) =>
                      set('commandMatch', e.target.value as RuleDraft['commandMatch'])
                    }
                  >
                    <option value="exact">exactly these words</option>
                    <option value="prefix">these words, then anything</option>
                  </select>
                </Field>
                {draft.commandParts && draft.commandParts.length > 1 && (
                  <div className="re-parts" role="group" aria-label="Commands of the original line">
                    <span className="re-parts-label">
                      The line ran {draft.commandParts.length} commands; a rule matches one at a
                      time:
                    </span>
                    {draft.commandParts.map((part, i) => (
                      <button
                        key={i}
                        type="button"
                        className="re-part"
                        aria-pressed={draft.command === part}
                        onClick={() => set('command', part)}
                      >
                        <code>{part}</code>
                      </button>
                    ))}
                  </div>
                )}
                <p id={`${uid}-command-hint`} className="re-hint">
                  One simple command, matched against every part of a shell line. Quote like the
                  shell; an unquoted <code>*</code> matches within one word.
                </p>
              </div>
            )}
            {draft.target === 'path' && (
              <Field label="Path (glob)" className="re-field">
                <input
                  className="mono"
                  value={draft.path}
                  onChange={(e) => set('path', e.target.value)}
                  spellCheck={false}
                  autoComplete="off"
                  aria-describedby={`${uid}-path-hint`}
                />
                <small id={`${uid}-path-hint`} className="re-hint">
                  Relative globs are relative to the session folder; <code>**</code> crosses
                  folders.
                </small>
              </Field>
            )}

            {draft.action === 'allow' && mayRun && chosen && (
              <PreviewConditionField
                draft={draft}
                onChange={(change) => setDraft((d) => ({ ...d, ...change }))}
              />
            )}

            <div className="re-row">
              <Field label="Agent" className="re-field">
                <select value={draft.agent} onChange={(e) => set('agent', e.target.value)}>
                  <option value="">Any agent</option>
                  {agentChoices.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name === a.id ? a.id : `${a.name} (${a.id})`}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Project folder" className="re-field grow">
                <input
                  className="mono"
                  value={draft.project}
                  onChange={(e) => set('project', e.target.value)}
                  placeholder="any folder"
                  spellCheck={false}
                  autoComplete="off"
                />
              </Field>
            </div>

            <div className="re-row">
              <Field label="Reason" className="re-field grow">
                <input
                  value={draft.reason}
                  onChange={(e) => set('reason', e.target.value)}
                  placeholder="optional"
                />
              </Field>
              <Field label="Rule id" className="re-field">
                <input
                  className="mono"
                  value={id}
                  readOnly={editing}
                  onChange={(e) => {
                    setIdTouched(true);
                    set('id', e.target.value);
                  }}
                  spellCheck={false}
                  autoComplete="off"
                />
              </Field>
            </div>
          </div>

          {chosen ? (
            <RulePreview rule={rule} />
          ) : (
            <p className="re-preview re-choose" id={`${uid}-choose`}>
              Choose what the rule matches — any request, a command or a path — to see the past
              requests it would have matched. Until then it matches nothing.
            </p>
          )}
        </div>

        {saveError && (
          <Notice tone="error" className="re-save-error">
            {saveError}
          </Notice>
        )}
        {confirming ? (
          <TrustConfirm
            title={`Allow ${confirming.reach}?`}
            confirmLabel="Save this allow rule"
            armed={!confirmGuarded && !saving}
            onConfirm={() => void store(true)}
            onCancel={() => setAllowAny(null)}
          >
            <p>
              Rule <strong>{rule.id}</strong> narrows to no particular command or path: from now on
              it allows {confirming.reach} without asking — as Bypass does — except what an explicit
              deny rule blocks. It is saved in settings and stays until you edit or delete it.
            </p>
            <p>To allow less, cancel and choose a command or a path.</p>
          </TrustConfirm>
        ) : (
          <footer className="re-foot">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <Button
              type="submit"
              variant="primary"
              disabled={saving || !chosen}
              aria-describedby={chosen ? undefined : `${uid}-choose`}
            >
              {saving ? 'Saving…' : 'Save rule'}
            </Button>
          </footer>
        )}
      </form>
    </dialog>
  );
}
