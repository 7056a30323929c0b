// An agent's entry as the agent form leaves it: the form's fields over what the agent had (or the
// defaults, for a new one). Environment values are never sent back to a form: null keeps a value.
import type { AgentDraft } from '../../../shared/contract-commands-agents';
import { AgentConfig } from '../../../shared/settings';

export function applyAgentDraft(existing: AgentConfig | undefined, draft: AgentDraft): unknown {
  const next: Record<string, unknown> = existing ? structuredClone(existing) : {};
  const set = (key: string, value: unknown, clear: boolean) => {
    if (clear) delete next[key];
    else next[key] = value;
  };
  if (draft.name !== undefined) set('name', draft.name, draft.name === '');
  if (draft.registry !== undefined) {
    next['registry'] = draft.registry;
    delete next['command'];
  } else if (draft.command !== undefined) {
    next['command'] = draft.command;
    delete next['registry'];
  }
  if (draft.args !== undefined) next['args'] = draft.args;
  if (draft.env !== undefined) {
    const had = existing?.env ?? {};
    next['env'] = Object.fromEntries(
      Object.entries(draft.env).flatMap(([name, value]) =>
        value !== null ? [[name, value]] : Object.hasOwn(had, name) ? [[name, had[name]]] : [],
      ),
    );
  }
  if (draft.cwd !== undefined) set('cwd', draft.cwd, draft.cwd === '');
  if (draft.sandbox !== undefined) next['sandbox'] = draft.sandbox;
  if (draft.network !== undefined) set('network', draft.network, draft.network === 'default');
  if (draft.allowWrite !== undefined) next['allowWrite'] = draft.allowWrite;
  if (draft.allowUnsandboxed !== undefined) next['allowUnsandboxed'] = draft.allowUnsandboxed;
  if (draft.preview !== undefined) next['preview'] = draft.preview;
  return next;
}

/** The draft applied and validated, or the schema's complaint. */
export function agentFromDraft(existing: AgentConfig | undefined, draft: AgentDraft) {
  return AgentConfig.safeParse(applyAgentDraft(existing, draft));
}
