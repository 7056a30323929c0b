// Agents to add with one click: the known ones installed on this machine (outside Gatehouse's own
// install) and those of the ACP registry snapshot. Adding one is the agent form's command: checked
// the same way, and from a browser it waits for the confirmation shown where Gatehouse runs, since
// it chooses the program Gatehouse will start.
import { useEffect, useState } from 'react';
import type { CommandOutput, SettingsConfirmation } from '../../../shared/contract';
import type { AgentDraft } from '../../../shared/contract-commands-agents';
import { useApi } from '../api/context';
import { ConfirmChange } from '../settings/ConfirmChange';
import { Button } from '../ui/Button';
import { Notice } from '../ui/Notice';

interface Offer {
  id: string;
  name: string;
  /** Where it comes from, as the person reads it. */
  what: string;
  note: string | null;
  draft: AgentDraft;
}

function offersOf(
  found: CommandOutput<'agentsOnPath'>,
  registry: CommandOutput<'listRegistryAgents'>,
): Offer[] {
  const offers: Offer[] = found.map((a) => ({
    id: a.id,
    name: a.name,
    what: [a.command, ...a.args].join(' '),
    note: a.note,
    draft: { name: a.name, command: a.command, args: a.args },
  }));
  for (const a of registry.agents) {
    if (a.kinds.length === 0 || offers.some((o) => o.id === a.id)) continue;
    offers.push({
      id: a.id,
      name: a.name,
      what: `ACP registry ${a.version} (${a.kinds.join(', ')})`,
      note: null,
      draft: { name: a.name, registry: a.id },
    });
  }
  return offers;
}

export function AgentOffers({ onAdded }: { onAdded(): void }) {
  const api = useApi();
  const [offers, setOffers] = useState<Offer[] | null>(null);
  const [waiting, setWaiting] = useState<SettingsConfirmation | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    Promise.all([api.call('agentsOnPath', {}), api.call('listRegistryAgents', {})]).then(
      ([found, registry]) => setOffers(offersOf(found, registry)),
      () => setOffers([]),
    );
  }, [api]);

  const add = async (offer: Offer) => {
    setError(null);
    try {
      const out = await api.call('addAgent', { agentId: offer.id, agent: offer.draft });
      if (out.confirmation) setWaiting(out.confirmation);
      else onAdded();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  if (!offers || offers.length === 0) return null;
  return (
    <div className="home-offers">
      {waiting && (
        <ConfirmChange
          confirmation={waiting}
          onApplied={() => {
            setWaiting(null);
            onAdded();
          }}
          onDismiss={() => setWaiting(null)}
        />
      )}
      {error && <Notice tone="error">{error}</Notice>}
      <ul aria-label="Agents to add">
        {offers.map((offer) => (
          <li key={offer.id}>
            <span>
              <strong>{offer.name}</strong> <code className="dim">{offer.what}</code>
              {offer.note && <span className="home-offer-note">{offer.note}</span>}
            </span>
            <Button
              variant="primary"
              aria-label={`Add ${offer.name}`}
              onClick={() => void add(offer)}
            >
              Add
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
