// Where a new agent starts from: an agent found on this machine, one Gatehouse knows how to run,
// one of the ACP registry snapshot, or a command of the person's own. Picking one fills the form;
// every field stays editable, and nothing is saved until the form is.
import { useEffect, useState } from 'react';
import type { CommandOutput } from '../../../shared/contract';
import { useApi } from '../api/context';
import { Field } from '../ui/Field';
import { EMPTY_FORM, type AgentFormState } from './agent-form-state';

type Known = CommandOutput<'knownAgents'>;
type Registry = CommandOutput<'listRegistryAgents'>['agents'];

interface Props {
  /** Ids already configured: offered still, under a free id. */
  taken: ReadonlySet<string>;
  onPick(form: AgentFormState): void;
}

/** The id an agent is added under: its own, or with a number when that one is taken. */
function freeId(id: string, taken: ReadonlySet<string>): string {
  if (!taken.has(id)) return id;
  for (let n = 2; ; n++) if (!taken.has(`${id}-${n}`)) return `${id}-${n}`;
}

export function AgentSourcePicker({ taken, onPick }: Props) {
  const api = useApi();
  const [known, setKnown] = useState<Known>([]);
  const [registry, setRegistry] = useState<Registry>([]);
  const [picked, setPicked] = useState('custom');

  useEffect(() => {
    api.call('knownAgents', {}).then(setKnown, () => setKnown([]));
    api.call('listRegistryAgents', {}).then(
      (r) => setRegistry(r.agents.filter((a) => a.kinds.length > 0)),
      () => setRegistry([]),
    );
  }, [api]);

  const pick = (value: string) => {
    setPicked(value);
    const [kind, id] = value.split(':', 2) as [string, string];
    if (kind === 'known') {
      const agent = known.find((a) => a.id === id)!;
      onPick({
        ...EMPTY_FORM,
        id: freeId(agent.id, taken),
        name: agent.name,
        command: agent.command,
        args: agent.args.join('\n'),
      });
    } else if (kind === 'registry') {
      const agent = registry.find((a) => a.id === id)!;
      onPick({
        ...EMPTY_FORM,
        id: freeId(agent.id, taken),
        name: agent.name,
        source: 'registry',
        registry: agent.id,
      });
    } else onPick(EMPTY_FORM);
  };

  const found = known.filter((a) => a.found);
  const notFound = known.filter((a) => !a.found);
  return (
    <Field label="Start from" className="sv-field">
      <select value={picked} onChange={(e) => pick(e.target.value)}>
        <option value="custom">A command of your own</option>
        {found.length > 0 && (
          <optgroup label="Found on this machine">
            {found.map((a) => (
              <option key={a.id} value={`known:${a.id}`}>
                {a.name} ({a.command})
              </option>
            ))}
          </optgroup>
        )}
        {notFound.length > 0 && (
          <optgroup label="Known agents (not found on this machine)">
            {notFound.map((a) => (
              <option key={a.id} value={`known:${a.id}`}>
                {a.name} ({[a.command, ...a.args].join(' ')})
              </option>
            ))}
          </optgroup>
        )}
        {registry.length > 0 && (
          <optgroup label="ACP registry">
            {registry.map((a) => (
              <option key={a.id} value={`registry:${a.id}`}>
                {a.name} {a.version}
              </option>
            ))}
          </optgroup>
        )}
      </select>
    </Field>
  );
}
