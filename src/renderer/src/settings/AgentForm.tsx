// One agent's entry as a form: what it runs (a command with its arguments, or an ACP registry
// agent), its environment, the folder it starts in, and its sandbox. Saving sends it to the core,
// which checks it (a taken id or name, an empty command, a program that is not there) and, from a
// browser, keeps a change of what runs waiting for the code shown where Gatehouse runs.
import { useId, useState, type FormEvent } from 'react';
import type { AgentDraft } from '../../../shared/contract-commands-agents';
import type { SandboxMode } from '../../../shared/sandbox-settings';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { draftOf, type AgentFormState } from './agent-form-state';
import { AgentSourcePicker } from './AgentSourcePicker';

interface Props {
  /** The agent changed, or null for a new one. */
  agentId: string | null;
  initial: AgentFormState;
  taken: ReadonlySet<string>;
  /** Sends the entry; throws the core's words. */
  save(agentId: string, draft: AgentDraft): Promise<void>;
  onCancel(): void;
}

const SANDBOXES: [SandboxMode, string][] = [
  ['workspace-write', 'Writes only in the session folder (recommended)'],
  ['read-only', 'Writes nothing itself (Gatehouse makes the edits you approve)'],
  ['off', 'No sandbox'],
];

export function AgentForm({ agentId, initial, taken, save, onCancel }: Props) {
  const uid = useId();
  const [form, setForm] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof AgentFormState>(key: K, value: AgentFormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  /** The fields written one entry per line. */
  const lines = (key: 'args' | 'env' | 'hosts' | 'allowWrite', describedBy?: string) => (
    <textarea
      value={form[key]}
      rows={2}
      onChange={(e) => set(key, e.target.value)}
      spellCheck={false}
      aria-describedby={describedBy}
    />
  );
  const title = agentId ? `Edit ${initial.name || agentId}` : 'Add an agent';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await save(agentId ?? form.id.trim(), draftOf(form));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="sv-form sv-agent-form" aria-label={title} onSubmit={(e) => void submit(e)}>
      <h4>{title}</h4>
      {!agentId && <AgentSourcePicker taken={taken} onPick={(picked) => setForm(picked)} />}
      <div className="sv-row">
        {!agentId && (
          <Field label="Id" className="sv-field">
            <input
              value={form.id}
              onChange={(e) => set('id', e.target.value)}
              required
              maxLength={64}
              aria-describedby={`${uid}-id`}
            />
            <small id={`${uid}-id`} className="sv-hint">
              How settings.json and <code>gatehouse acp --agent</code> name it.
            </small>
          </Field>
        )}
        <Field label="Name" className="sv-field">
          <input value={form.name} onChange={(e) => set('name', e.target.value)} maxLength={100} />
        </Field>
      </div>
      {form.source === 'registry' ? (
        <p className="sv-readonly">
          Runs the ACP registry agent <code>{form.registry}</code> as the snapshot says.{' '}
          <Button variant="link" onClick={() => set('source', 'command')}>
            Use a command instead
          </Button>
        </p>
      ) : (
        <Field label="Command" className="sv-field">
          <input
            value={form.command}
            onChange={(e) => set('command', e.target.value)}
            placeholder="gemini, or /usr/local/bin/my-agent"
            spellCheck={false}
            aria-describedby={`${uid}-command`}
          />
          <small id={`${uid}-command`} className="sv-hint">
            A program on the PATH, or its absolute path.
          </small>
        </Field>
      )}
      <Field label="Arguments, one per line" className="sv-field">
        {lines('args')}
      </Field>
      <Field label="Environment, NAME=value per line" className="sv-field">
        {lines('env', `${uid}-env`)}
        <small id={`${uid}-env`} className="sv-hint">
          Values are never shown again: a name alone on its line keeps its value.
        </small>
      </Field>
      <Field label="Working folder (empty: the session folder)" className="sv-field">
        <input value={form.cwd} onChange={(e) => set('cwd', e.target.value)} spellCheck={false} />
      </Field>
      <fieldset>
        <legend>Sandbox</legend>
        <div className="sv-row">
          <Field label="Files" className="sv-field">
            <select
              value={form.sandbox}
              onChange={(e) => set('sandbox', e.target.value as SandboxMode)}
            >
              {SANDBOXES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Network" className="sv-field">
            <select
              value={form.network}
              onChange={(e) => set('network', e.target.value as AgentFormState['network'])}
            >
              <option value="default">Its model API only (and the hosts below)</option>
              <option value="none">None</option>
              <option value="all">Any host</option>
            </select>
          </Field>
        </div>
        {form.network === 'default' && (
          <Field label="More hosts, one per line (host or host:port)" className="sv-field">
            {lines('hosts')}
          </Field>
        )}
        <Field label="More writable folders, one per line" className="sv-field">
          {lines('allowWrite')}
        </Field>
        <label className="sv-check">
          <input
            type="checkbox"
            checked={form.allowUnsandboxed}
            onChange={(e) => set('allowUnsandboxed', e.target.checked)}
          />
          <span>
            Run it without a sandbox where none can start
            <small className="sv-hint">Otherwise its session does not start there.</small>
          </span>
        </label>
      </fieldset>
      <label className="sv-check">
        <input
          type="checkbox"
          checked={form.preview}
          onChange={(e) => set('preview', e.target.checked)}
        />
        <span>
          Preview commands
          <small className="sv-hint">
            Before you are asked, each command it wants to run is tried once in a throwaway copy of
            the session, without network; the dialog shows what it changed. Off also when the
            preview is off in General.
          </small>
        </span>
      </label>
      {error && <Notice tone="error">{error}</Notice>}
      <div className="sv-form-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? 'Saving…' : agentId ? 'Save agent' : 'Add agent'}
        </Button>
      </div>
    </form>
  );
}
