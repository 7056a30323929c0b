// A settings change that waits for a person where Gatehouse runs (an agent's new command sent from
// a browser): headless shows a code on its terminal, to type here; the desktop app asks in its own
// dialog. Nothing is applied until then.
import { useState, type FormEvent } from 'react';
import type { CommandOutput, SettingsConfirmation } from '../../../shared/contract';
import { useApi } from '../api/context';
import { Button } from '../ui/Button';
import { Field } from '../ui/Field';
import { Notice } from '../ui/Notice';
import { useAction } from '../ui/use-action';
import '../ui/Card.css';
import './ConfirmChange.css';

interface Props {
  confirmation: SettingsConfirmation;
  onApplied(out: CommandOutput<'confirmSettingsChange'>): void;
  onDismiss(): void;
}

export function ConfirmChange({ confirmation, onApplied, onDismiss }: Props) {
  const api = useApi();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useAction(setError);
  const until = new Date(confirmation.expiresAt).toLocaleTimeString();
  const agents = confirmation.agents.join(', ');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(confirmation.id, async () =>
      onApplied(await api.call('confirmSettingsChange', { id: confirmation.id, code })),
    );
  };

  return (
    <section className="ui-card sv-confirm" aria-labelledby="sv-confirm-title">
      <h3 id="sv-confirm-title">
        {confirmation.how === 'code'
          ? 'Waiting for confirmation: enter the code shown where Gatehouse runs'
          : 'Waiting for confirmation in the Gatehouse window'}
      </h3>
      <p className="ui-card-desc">
        The change of {agents} is not applied yet. It expires at {until}.
      </p>
      {confirmation.how === 'code' && (
        <form onSubmit={submit} aria-label="Confirm the settings change">
          <Field label="Code" className="sv-field">
            <input
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="123-456"
              maxLength={20}
              required
            />
          </Field>
          <div className="sv-confirm-actions">
            <Button type="submit" variant="primary" disabled={busy !== null || code.trim() === ''}>
              Confirm
            </Button>
            <button type="button" onClick={onDismiss}>
              Close
            </button>
          </div>
        </form>
      )}
      {confirmation.how === 'dialog' && (
        <button type="button" onClick={onDismiss}>
          Close
        </button>
      )}
      {error && <Notice tone="error">{error}</Notice>}
    </section>
  );
}
