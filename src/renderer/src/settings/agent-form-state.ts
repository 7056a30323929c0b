// The agent form's fields as text a person edits, to and from an agent's entry. Environment values
// are never put back into the form: a name alone on its line keeps the value the agent has.
import type { AgentDraft } from '../../../shared/contract-commands-agents';
import type { SandboxMode } from '../../../shared/sandbox-settings';
import type { AgentConfig } from '../../../shared/settings';

export interface AgentFormState {
  id: string;
  name: string;
  /** What it runs: a command of its own, or an agent of the ACP registry snapshot. */
  source: 'command' | 'registry';
  command: string;
  registry: string;
  /** One argument per line. */
  args: string;
  /** `NAME=value` per line; `NAME` alone keeps the agent's value. */
  env: string;
  cwd: string;
  sandbox: SandboxMode;
  network: 'default' | 'none' | 'all';
  /** Hosts beyond the model API's, one per line. */
  hosts: string;
  allowWrite: string;
  allowUnsandboxed: boolean;
  /** Its commands are tried in a throwaway copy before anyone is asked. */
  preview: boolean;
}

export const EMPTY_FORM: AgentFormState = {
  id: '',
  name: '',
  source: 'command',
  command: '',
  registry: '',
  args: '',
  env: '',
  cwd: '',
  sandbox: 'workspace-write',
  network: 'default',
  hosts: '',
  allowWrite: '',
  allowUnsandboxed: false,
  preview: true,
};

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export function formOf(id: string, agent: AgentConfig): AgentFormState {
  const network = agent.network;
  return {
    id,
    name: agent.name ?? '',
    source: agent.registry ? 'registry' : 'command',
    command: agent.command ?? '',
    registry: agent.registry ?? '',
    args: agent.args.join('\n'),
    env: Object.keys(agent.env).join('\n'),
    cwd: agent.cwd ?? '',
    sandbox: agent.sandbox,
    network: network === 'all' || network === 'none' ? network : 'default',
    hosts: typeof network === 'object' ? network.allow.join('\n') : '',
    allowWrite: agent.allowWrite.join('\n'),
    allowUnsandboxed: agent.allowUnsandboxed,
    preview: agent.preview,
  };
}

/** What the core is sent; it checks every field (and says which is wrong). */
export function draftOf(form: AgentFormState): AgentDraft {
  const hosts = lines(form.hosts);
  const env = Object.fromEntries(
    lines(form.env).map((line) => {
      const at = line.indexOf('=');
      return at < 0 ? [line, null] : [line.slice(0, at).trim(), line.slice(at + 1)];
    }),
  );
  return {
    name: form.name.trim(),
    ...(form.source === 'registry'
      ? { registry: form.registry }
      : { command: form.command.trim() }),
    args: lines(form.args),
    env,
    cwd: form.cwd.trim(),
    sandbox: form.sandbox,
    network: form.network === 'default' && hosts.length > 0 ? { allow: hosts } : form.network,
    allowWrite: lines(form.allowWrite),
    allowUnsandboxed: form.allowUnsandboxed,
    preview: form.preview,
  };
}
