// Each configured agent: how it is started, the permission mode of its new sessions, its Bypass
// (trust without asking), and the mediator policy its requests follow.
import type { FormEvent } from 'react';
import type { AgentInfo, PermissionMode } from '../../../shared/domain';
import type { Settings } from '../../../shared/settings';
import { useApi } from '../api/context';
import { ModeOptions } from '../components/ModeOptions';
import { MODE_HINT, MODE_LABEL } from '../history/words';
import { AsyncState } from '../ui/AsyncState';
import { Card } from '../ui/Card';
import { Field } from '../ui/Field';
import { Stack } from '../ui/Stack';
import { useReportedAction } from '../ui/use-action';
import './AgentsSection.css';

interface Props {
  settings: Settings;
  agents: AgentInfo[];
  /** Saves settings changed by `patch` (applied to the settings in force); throws the core's error. */
  update(patch: (settings: Settings) => void): Promise<void>;
  onBypassChanged(): void;
}

export function AgentsSection({ settings, agents, update, onBypassChanged }: Props) {
  const api = useApi();
  const { report, notice } = useReportedAction();
  const ids = Object.keys(settings.agents);

  const setMode = (agentId: string, mode: PermissionMode) =>
    report(agentId, async () => {
      await update((s) => {
        s.agents[agentId]!.mode = mode;
      });
      return `New sessions of ${agentId} start in ${MODE_LABEL[mode]}.`;
    });

  /** From a browser this waits for a confirmation where Gatehouse runs (the view shows how). */
  const setCommand = (agentId: string, e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const command = String(form.get('command') ?? '').trim();
    const args = String(form.get('args') ?? '')
      .split('\n')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    void report(agentId, async () => {
      await update((s) => {
        const agent = s.agents[agentId]!;
        // A command of its own replaces the ACP Registry's: an agent has one or the other.
        delete agent.registry;
        Object.assign(agent, { command, args });
      });
      return `${agentId} starts with the new command.`;
    });
  };

  const setBypass = (agentId: string, enabled: boolean) =>
    report(agentId, async () => {
      await api.call('setAgentBypass', { agentId, enabled });
      onBypassChanged();
      return enabled
        ? `${agentId} is trusted: its requests are allowed without asking.`
        : `${agentId} asks again.`;
    });

  return (
    <Card
      id="sv-agents"
      title="Agents"
      description="The agents Gatehouse can start, and how much each one is trusted."
    >
      <AsyncState items={ids} empty="No agents yet: add one under “agents” in settings.json.">
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
                      </div>
                    </div>
                  </div>
                  <details className="sv-agent-edit">
                    <summary>Change the command</summary>
                    <form aria-label={`Command of ${name}`} onSubmit={(e) => setCommand(id, e)}>
                      <Field label="Command" className="sv-field">
                        <input name="command" defaultValue={config.command} required />
                      </Field>
                      <Field label="Arguments, one per line" className="sv-field">
                        <textarea name="args" rows={3} defaultValue={config.args.join('\n')} />
                      </Field>
                      <button type="submit">Save command</button>
                    </form>
                  </details>
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
