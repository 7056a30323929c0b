// Timeouts, desktop behaviour and the mediator policy, edited as a form and saved whole; the
// core's validation errors are shown as it wrote them, and keys that wait for a restart say so.
import { useId, useState, type FormEvent } from 'react';
import type { PermissionPolicy } from '../../../shared/domain';
import type { ManagedOverride } from '../../../shared/managed-settings';
import { MAX_PREVIEW_TIMEOUT_SECONDS } from '../../../shared/preview';
import type { Settings } from '../../../shared/settings';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Field } from '../ui/Field';
import { useReportedAction } from '../ui/use-action';
import { OverriddenNote } from './OverriddenNote';
import './GeneralSection.css';

interface Props {
  settings: Settings;
  supportedPolicies: PermissionPolicy[];
  restartNeeded: string[];
  /** User settings the managed policy replaced. */
  overridden: readonly ManagedOverride[];
  update(patch: (settings: Settings) => void): Promise<void>;
}

interface Form {
  timeoutSeconds: string;
  previewEnabled: boolean;
  previewSeconds: string;
  raiseOnRequest: boolean;
  startAtLogin: boolean;
  permissionStrategy: string;
  consensusQuorum: string;
}

const formOf = (s: Settings): Form => ({
  timeoutSeconds: String(s.approvals.timeoutSeconds),
  previewEnabled: s.preview.enabled,
  previewSeconds: String(s.preview.timeoutSeconds),
  raiseOnRequest: s.desktop.raiseOnRequest,
  startAtLogin: s.desktop.startAtLogin,
  permissionStrategy: s.policy.permissionStrategy ?? '',
  consensusQuorum: s.policy.consensusQuorum === undefined ? '' : String(s.policy.consensusQuorum),
});

const DESKTOP_CHECKS = [
  [
    'raiseOnRequest',
    'Raise the approval dialog on a new request',
    'Otherwise the notification and the tray carry it.',
  ],
  ['startAtLogin', 'Start Gatehouse at login', 'In the tray, without a window.'],
] as const;

/** What was typed, as the number it says; anything else goes to the core as is, to be refused there. */
const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

function RestartFlag({ show }: { show: boolean }) {
  return show ? <span className="sv-restart">Saved — applies after restart</span> : null;
}

export function GeneralSection({
  settings,
  supportedPolicies,
  restartNeeded,
  overridden,
  update,
}: Props) {
  const uid = useId();
  const [saved, setSaved] = useState<Form>(() => formOf(settings));
  const [form, setForm] = useState<Form>(saved);
  const { busy, report, notice, clear } = useReportedAction();
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);
  const set = <K extends keyof Form>(key: K, value: Form[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const save = (e: FormEvent) => {
    e.preventDefault();
    void report('save', async () => {
      await update((s) => {
        s.approvals = { ...s.approvals, timeoutSeconds: numberOf(form.timeoutSeconds) };
        s.preview = { enabled: form.previewEnabled, timeoutSeconds: numberOf(form.previewSeconds) };
        s.desktop = {
          ...s.desktop,
          raiseOnRequest: form.raiseOnRequest,
          startAtLogin: form.startAtLogin,
        };
        const policy: Settings['policy'] = { ...s.policy };
        if (form.permissionStrategy) policy.permissionStrategy = form.permissionStrategy;
        else delete policy.permissionStrategy;
        if (form.consensusQuorum.trim()) policy.consensusQuorum = numberOf(form.consensusQuorum);
        else delete policy.consensusQuorum;
        s.policy = policy;
      });
      setSaved(form);
      return 'Saved.';
    });
  };

  const strategies = [...supportedPolicies];
  if (
    form.permissionStrategy &&
    !strategies.includes(form.permissionStrategy as PermissionPolicy)
  ) {
    strategies.push(form.permissionStrategy as PermissionPolicy);
  }

  return (
    <Card
      id="sv-general"
      title="General"
      description="Saved to the settings file as a whole; most changes apply at once."
    >
      <form className="sv-form" onSubmit={save} noValidate aria-label="General settings">
        <fieldset>
          <legend>Approvals</legend>
          <Field label="Timeout (seconds)" className="sv-field">
            <input
              type="number"
              inputMode="numeric"
              className="sv-number"
              value={form.timeoutSeconds}
              onChange={(e) => set('timeoutSeconds', e.target.value)}
              aria-describedby={`${uid}-timeout`}
            />
            <small id={`${uid}-timeout`} className="sv-hint">
              A request nobody answers is denied after this long (fail-closed). 1 to 86,400.
            </small>
          </Field>
        </fieldset>

        <fieldset>
          <legend>Command preview</legend>
          <label className="sv-check">
            <input
              type="checkbox"
              checked={form.previewEnabled}
              onChange={(e) => set('previewEnabled', e.target.checked)}
            />
            <span>
              Try each command in a throwaway copy before asking
              <small className="sv-hint">
                The dialog shows what it changed, the hosts it tried and its last output. It runs
                without network; nothing it does reaches your files. Each agent can turn it off.
              </small>
            </span>
          </label>
          <Field label="Stop a preview after (seconds)" className="sv-field">
            <input
              type="number"
              inputMode="numeric"
              className="sv-number"
              value={form.previewSeconds}
              disabled={!form.previewEnabled}
              onChange={(e) => set('previewSeconds', e.target.value)}
              aria-describedby={`${uid}-preview`}
            />
            <small id={`${uid}-preview`} className="sv-hint">
              A command still running then is stopped with everything it started, and the preview
              says so. 1 to {MAX_PREVIEW_TIMEOUT_SECONDS}.
            </small>
          </Field>
        </fieldset>

        <fieldset>
          <legend>Desktop</legend>
          {DESKTOP_CHECKS.map(([key, label, hint]) => (
            <label key={key} className="sv-check">
              <input
                type="checkbox"
                checked={form[key]}
                onChange={(e) => set(key, e.target.checked)}
              />
              <span>
                {label}
                <small className="sv-hint">{hint}</small>
              </span>
            </label>
          ))}
        </fieldset>

        <fieldset>
          <legend>
            Policy <RestartFlag show={restartNeeded.includes('policy')} />
          </legend>
          <div className="sv-row">
            <Field label="Strategy" className="sv-field">
              <select
                value={form.permissionStrategy}
                onChange={(e) => set('permissionStrategy', e.target.value)}
              >
                <option value="">Default (first-responder)</option>
                {strategies.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
              <OverriddenNote overridden={overridden} setting="policy.permissionStrategy" />
            </Field>
            <Field label="Consensus quorum" className="sv-field">
              <input
                type="number"
                inputMode="numeric"
                className="sv-number"
                value={form.consensusQuorum}
                placeholder="default"
                onChange={(e) => set('consensusQuorum', e.target.value)}
                aria-describedby={`${uid}-quorum`}
              />
            </Field>
          </div>
          <small id={`${uid}-quorum`} className="sv-hint">
            Who decides a request: the first person to answer, a designated client, a quorum of
            voters (consensus), or only this machine. Applies after a restart.
          </small>
        </fieldset>

        <fieldset>
          <legend>
            Server <RestartFlag show={restartNeeded.includes('server')} />
          </legend>
          <p className="sv-readonly">
            Address in settings{' '}
            <code>
              {settings.server.host}:{settings.server.port}
            </code>{' '}
            <span className="dim">(edit settings.json; applies after restart)</span>
          </p>
        </fieldset>

        {notice('save')}
        <div className="sv-form-actions">
          <button
            type="button"
            disabled={!dirty || busy !== null}
            onClick={() => {
              setForm(saved);
              clear();
            }}
          >
            Discard changes
          </button>
          <Button type="submit" variant="primary" disabled={busy !== null}>
            {busy ? 'Saving…' : 'Save settings'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
