// The settings window: grants, rules, agents and the general settings, over one settings file;
// which terminal CLIs are hooked; the paired devices.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CommandOutput, SettingsConfirmation } from '../../../shared/contract';
import type { AgentInfo, PermissionPolicy } from '../../../shared/domain';
import type { Settings } from '../../../shared/settings';
import { useApi } from '../api/context';
import { AgentsSection } from './AgentsSection';
import { ConfirmChange } from './ConfirmChange';
import { DevicesSection } from './DevicesSection';
import { GeneralSection } from './GeneralSection';
import { GrantsSection } from './GrantsSection';
import { RegistrySection } from './RegistrySection';
import { HooksSection } from './HooksSection';
import { RulesSection } from './RulesSection';
import { SupportSection } from './SupportSection';
import { Button } from '../ui/Button';
import { Notice } from '../ui/Notice';
import './SettingsView.css';

type Loaded = CommandOutput<'getSettings'>;
type RestartKey = 'policy' | 'server';
const RESTART_KEYS: RestartKey[] = ['policy', 'server'];

const SECTIONS = [
  ['sv-grants', 'Grants'],
  ['sv-rules', 'Rules'],
  ['sv-agents', 'Agents'],
  ['sv-registry', 'ACP registry'],
  ['sv-general', 'General'],
  ['sv-hooks', 'Terminal CLIs'],
  ['sv-devices', 'Devices'],
  ['sv-support', 'Support'],
] as const;

export function SettingsView() {
  const api = useApi();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [policies, setPolicies] = useState<PermissionPolicy[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<SettingsConfirmation | null>(null);
  const savedForRestart = useRef<Partial<Pick<Settings, RestartKey>>>({});

  const reload = useCallback(() => {
    api.call('getSettings', {}).then(setLoaded, (e: Error) => setError(e.message));
    api.call('listAgents', {}).then(setAgents, () => undefined);
  }, [api]);

  useEffect(() => {
    reload();
    api.call('health', {}).then(
      (h) => setPolicies(h.supportedPolicies),
      () => undefined,
    );
  }, [api, reload]);

  /**
   * Applies `patch` to the settings in force right now (read again, so a rule saved meanwhile is not
   * overwritten) and saves them whole. Throws the core's error, verbatim.
   */
  const update = useCallback(
    async (patch: (settings: Settings) => void) => {
      const current = await api.call('getSettings', {});
      const next = structuredClone(current.settings);
      // getSettings answers with the policy and server in force; a change saved for the restart
      // must not be written back over by the next save.
      for (const key of RESTART_KEYS) {
        const saved = savedForRestart.current[key];
        if (current.restartNeeded.includes(key) && saved)
          Object.assign(next, { [key]: structuredClone(saved) });
      }
      patch(next);
      const out = await api.call('updateSettings', { settings: next });
      if (out.confirmation) {
        setWaiting(out.confirmation);
        throw new Error('Not applied yet: it waits for a confirmation where Gatehouse runs.');
      }
      for (const key of RESTART_KEYS) {
        if (out.restartNeeded.includes(key))
          Object.assign(savedForRestart.current, { [key]: next[key] });
        else delete savedForRestart.current[key];
      }
      setLoaded(out);
      api.call('listAgents', {}).then(setAgents, () => undefined);
    },
    [api],
  );

  return (
    <div className="sv">
      <header className="sv-head">
        <div>
          <h2>Settings</h2>
          {loaded && (
            <p className="sv-path">
              Saved in <code>{loaded.path}</code>
            </p>
          )}
        </div>
        <nav className="sv-jump" aria-label="Settings sections">
          {SECTIONS.map(([id, label]) => (
            <Button
              key={id}
              variant="ghost"
              onClick={() =>
                document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' })
              }
            >
              {label}
            </Button>
          ))}
        </nav>
      </header>
      {error && <Notice tone="error">The settings could not be loaded: {error}</Notice>}
      {waiting && (
        <ConfirmChange
          confirmation={waiting}
          onApplied={(out) => {
            setWaiting(null);
            setLoaded(out);
            api.call('listAgents', {}).then(setAgents, () => undefined);
          }}
          onDismiss={() => {
            setWaiting(null);
            reload();
          }}
        />
      )}
      <GrantsSection />
      <RulesSection onChanged={reload} managed={loaded?.managed ?? null} />
      {loaded && (
        <>
          <AgentsSection
            settings={loaded.settings}
            agents={agents}
            update={update}
            onBypassChanged={reload}
          />
          <RegistrySection settings={loaded.settings} update={update} />
          <GeneralSection
            settings={loaded.settings}
            supportedPolicies={policies}
            restartNeeded={loaded.restartNeeded}
            update={update}
          />
        </>
      )}
      <HooksSection />
      <DevicesSection />
      <SupportSection />
    </div>
  );
}
