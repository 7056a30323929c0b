// Each configured agent: how it is started, the permission mode of its new sessions, its Bypass
// (trust without asking), and the mediator policy its requests follow; added, edited and removed
// here. From a browser, a change of what an agent runs (or a looser sandbox) waits for the code
// shown where Gatehouse runs, as any such settings change does.
import { useState } from 'react';
import type { SettingsConfirmation } from '../../../shared/contract';
import type { AgentDraft } from '../../../shared/contract-commands-agents';
import type { AgentInfo, PermissionMode } from '../../../shared/domain';
import type { ManagedOverride } from '../../../shared/managed-settings';
import type { Settings } from '../../../shared/settings';
import { useApi } from '../api/context';
import { ModeOptions } from '../components/ModeOptions';
import { MODE_HINT, MODE_LABEL } from '../history/words';
import { AsyncState } from '../ui/AsyncState';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Field } from '../ui/Field';
import { Stack } from '../ui/Stack';
import { useReportedAction } from '../ui/use-action';
import { AgentForm } from './AgentForm';
import { EMPTY_FORM, formOf } from './agent-form-state';
import { ConfirmChange } from './ConfirmChange';
import { OverriddenNote } from './OverriddenNote';
import './AgentsSection.css';

interface Props {
  settings: Settings;
  agents: AgentInfo[];
  /** User settings the managed policy replaced. */
  overridden: readonly ManagedOverride[];
  /** Saves settings changed by `patch` (applied to the settings in force); throws the core's error. */
  update(patch: (settings: Settings) => void): Promise<void>;
  /** An agent was added, changed or removed (or its Bypass switched): read the settings again. */
  onChanged(): void;
}

/** Which form is open: a new agent's, or one agent's edit. */
type Editing = { kind: 'add' } | { kind: 'edit'; agentId: string } | null;

export function AgentsSection({ settings, agents, overridden, update, onChanged }: Props) {
  const api = useApi();
  const { report, notice } = useReportedAction();
  const ids = Object.keys(settings.agents);
  const [editing, setEditing] = useState<Editing>(null);
  const [waiting, setWaiting] = useState<SettingsConfirmation | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  const save = async (agentId: string, draft: AgentDraft) => {
    const out =
      editing?.kind === 'edit'
        ? await api.call('updateAgent', { agentId, agent: draft })
        : await api.call('addAgent', { agentId, agent: draft });
    setEditing(null);
    if (out.confirmation) setWaiting(out.confirmation);
    else onChanged();
  };

  const remove = (agentId: string) =>
    report(agentId, async () => {
      await api.call('removeAgent', { agentId });
      setRemoving(null);
      onChanged();
      return `${agentId} is removed.`;
    });

  const setMode = (agentId: string, mode: PermissionMode) =>
    report(agentId, async () => {
      await update((s) => {
        s.agents[agentId]!.mode = mode;
      });
      return `New sessions of ${agentId} start in ${MODE_LABEL[mode]}.`;
    });

  const setBypass = (agentId: string, enabled: boolean) =>
    report(agentId, async () => {
      await api.call('setAgentBypass', { agentId, enabled });
      onChanged();
      return enabled
        ? `${agentId} is trusted: its requests are allowed without asking.`
        : `${agentId} asks again.`;
    });

  return (
    <Card
      id="sv-agents"
      title="Agents"
      description="The agents Gatehouse can start, and how much each one is trusted."
      actions={
        editing?.kind !== 'add' && (
          <Button variant="primary" onClick={() => setEditing({ kind: 'add' })}>
            Add agent
          </Button>
        )
      }
    >
      {waiting && (
        <ConfirmChange
          confirmation={waiting}
          onApplied={() => {
            setWaiting(null);
            onChanged();
          }}
          onDismiss={() => setWaiting(null)}
        />
      )}
      {editing?.kind === 'add' && (
        <AgentForm
          agentId={null}
          initial={EMPTY_FORM}
          taken={new Set(ids)}
          save={save}
          onCancel={() => setEditing(null)}
        />
      )}
      <AsyncState items={ids} empty="No agents yet: add one.">
        {(shown) => (
          <Stack className="sv-agents">
            {shown.map((id) => {
              const config = settings.agents[id]!;
              const info = agents.find((a) => a.id === id);
              const name = config.name ?? id;
              const bypass = config.bypassPermissions;
              // The core resolves a registry agent's command line from its snapshot.
              const line = [info?.command ?? config.command, ...(info?.args ?? config.args)].join(
                ' ',
              );
              return (
                <li
                  key={id}
                  className="sv-agent"
                  aria-labelledby={`sv-agent-${id}`}
                  data-agent-id={id}
                >
                  <div className="sv-agent-head">
                    <h4 id={`sv-agent-${id}`}>
                      {name} {name !== id && <span className="dim">({id})</span>}
                    </h4>
                    <span className="sv-policy" title="Mediator policy for this agent's requests">
                      Policy:{' '}
                      <strong>
                        {info?.policy ??
                          config.policy ??
                          settings.policy.permissionStrategy ??
                          'first-responder'}
                      </strong>
                      <OverriddenNote overridden={overridden} setting={`agents.${id}.policy`} />
                    </span>
                  </div>
                  <p className="sv-command">
                    <code title={line}>{line}</code>
                    {config.cwd && <span className="dim"> in {config.cwd}</span>}
                    {config.registry && (
                      <span className="dim"> from the ACP Registry ({config.registry})</span>
                    )}
                  </p>
                  <div className="sv-agent-controls">
                    <Field label="Mode of new sessions" className="sv-field">
                      <select
                        value={config.mode}
                        onChange={(e) => void setMode(id, e.target.value as PermissionMode)}
                        aria-describedby={`sv-agent-${id}-mode`}
                      >
                        <ModeOptions />
                      </select>
                      <small id={`sv-agent-${id}-mode`} className="sv-hint">
                        {MODE_HINT[config.mode]}
                      </small>
                      <OverriddenNote overridden={overridden} setting={`agents.${id}.mode`} />
                    </Field>
                    <div className="sv-bypass">
                      <button
                        type="button"
                        role="switch"
                        aria-checked={bypass}
                        className={`sv-switch${bypass ? ' on' : ''}`}
                        aria-labelledby={`sv-agent-${id}-bypass`}
                        aria-describedby={`sv-agent-${id}-bypass-hint`}
                        onClick={() => void setBypass(id, !bypass)}
                      >
                        <span className="sv-switch-thumb" aria-hidden="true" />
                      </button>
                      <div>
                        <span id={`sv-agent-${id}-bypass`} className="sv-bypass-label">
                          Bypass permissions for {name}
                        </span>
                        <small id={`sv-agent-${id}-bypass-hint`} className="sv-hint">
                          Every request from {name} is allowed without asking, except what a deny
                          rule refuses. Decisions are still recorded in the history.
                        </small>
                        <OverriddenNote
                          overridden={overridden}
                          setting={`agents.${id}.bypassPermissions`}
                        />
                      </div>
                    </div>
                  </div>
                  <div className="sv-agent-actions">
                    <Button
                      variant="ghost"
                      aria-label={`Edit ${name}`}
                      onClick={() => setEditing({ kind: 'edit', agentId: id })}
                    >
                      Edit
                    </Button>
                    {removing === id ? (
                      <span className="sv-agent-remove" role="group" aria-label={`Remove ${name}?`}>
                        Remove {name}? Its running sessions go on.{' '}
                        <Button variant="danger-solid" onClick={() => void remove(id)}>
                          Remove
                        </Button>{' '}
                        <Button variant="ghost" onClick={() => setRemoving(null)}>
                          Keep
                        </Button>
                      </span>
                    ) : (
                      <Button
                        variant="danger"
                        aria-label={`Remove ${name}`}
                        onClick={() => setRemoving(id)}
                      >
                        Remove
                      </Button>
                    )}
                  </div>
                  {editing?.kind === 'edit' && editing.agentId === id && (
                    <AgentForm
                      agentId={id}
                      initial={formOf(id, config)}
                      taken={new Set(ids)}
                      save={save}
                      onCancel={() => setEditing(null)}
                    />
                  )}
                  {notice(id)}
                </li>
              );
            })}
          </Stack>
        )}
      </AsyncState>
    </Card>
  );
}
