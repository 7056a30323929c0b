// The agents of the ACP Registry snapshot, each one added to settings as `{ "registry": id }`. From
// a browser an added agent waits for a confirmation where Gatehouse runs, as a new command does.
import { useEffect, useState } from 'react';
import type { CommandOutput } from '../../../shared/contract';
import { AgentConfig, type Settings } from '../../../shared/settings';
import { useApi } from '../api/context';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Stack } from '../ui/Stack';
import { useReportedAction } from '../ui/use-action';
import './RegistrySection.css';

type Listing = CommandOutput<'listRegistryAgents'>;

interface Props {
  settings: Settings;
  update(patch: (settings: Settings) => void): Promise<void>;
}

export function RegistrySection({ settings, update }: Props) {
  const api = useApi();
  const [listing, setListing] = useState<Listing | null>(null);
  const { report, notice } = useReportedAction();

  useEffect(() => {
    api
      .call('listRegistryAgents', {})
      .then(setListing, (e: Error) => setListing({ agents: [], problem: e.message }));
  }, [api]);

  const add = (id: string) =>
    report(id, async () => {
      await update((s) => {
        s.agents[id] = AgentConfig.parse({ registry: id });
      });
      return `${id} is added: start it from Home.`;
    });

  return (
    <Card
      id="sv-registry"
      title="Agents from the ACP registry"
      description="The agents of the registry snapshot (gatehouse agents import-registry). An added agent runs what the snapshot says: npx or uvx and its package, or a binary you unpacked."
    >
      {listing?.problem && <p className="dim">{listing.problem}</p>}
      <Stack className="sv-registry">
        {(listing?.agents ?? []).map((agent) => {
          const added = settings.agents[agent.id] !== undefined;
          return (
            <li
              key={agent.id}
              className="sv-registry-agent"
              aria-labelledby={`sv-registry-${agent.id}`}
            >
              <div className="sv-registry-head">
                <h4 id={`sv-registry-${agent.id}`}>
                  {agent.name} <span className="dim">{agent.version}</span>
                </h4>
                <span className="sv-registry-kind">
                  {agent.kinds.join(', ') || 'no kind Gatehouse runs'}
                </span>
                <Button
                  variant="primary"
                  disabled={added}
                  aria-label={`Add ${agent.name}`}
                  onClick={() => void add(agent.id)}
                >
                  {added ? 'Added' : 'Add'}
                </Button>
              </div>
              <p className="sv-registry-desc">{agent.description}</p>
              {notice(agent.id)}
            </li>
          );
        })}
      </Stack>
    </Card>
  );
}
