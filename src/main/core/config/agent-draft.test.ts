import { describe, expect, it } from 'vitest';
import { AgentConfig } from '../../../shared/settings';
import { agentFromDraft } from './agent-draft';

const existing = AgentConfig.parse({
  name: 'Gemini',
  registry: 'gemini',
  env: { GEMINI_API_KEY: 'secret', OLD: 'x' },
  mode: 'plan',
  bypassPermissions: true,
  network: 'none',
  denyRead: ['~/private'],
});

describe('agentFromDraft', () => {
  it('keeps what the form does not set, and env values sent back as null', () => {
    const next = agentFromDraft(existing, {
      command: '/usr/bin/gemini',
      env: { GEMINI_API_KEY: null, NEW: 'y', GONE: null },
      network: 'default',
      cwd: '',
    });
    expect(next.success && next.data).toMatchObject({
      name: 'Gemini',
      command: '/usr/bin/gemini',
      env: { GEMINI_API_KEY: 'secret', NEW: 'y' },
      mode: 'plan',
      bypassPermissions: true,
      denyRead: ['~/private'],
    });
    // A command replaces the registry id; "default" network is the absence of a choice.
    expect(next.success && next.data.registry).toBeUndefined();
    expect(next.success && next.data.network).toBeUndefined();
  });

  it('starts a new agent from the defaults, and refuses what the settings schema refuses', () => {
    const added = agentFromDraft(undefined, { command: 'gemini', args: ['--acp'] });
    expect(added.success && added.data).toMatchObject({
      sandbox: 'workspace-write',
      bypassPermissions: false,
      env: {},
    });
    expect(agentFromDraft(undefined, { command: 'x', env: { GATEHOUSE_TOKEN: 't' } }).success).toBe(
      false,
    );
  });

  it("turns an agent's command preview off and on, and keeps it when the form does not say", () => {
    const off = agentFromDraft(existing, { preview: false });
    expect(off.success && off.data.preview).toBe(false);
    const kept = off.success ? agentFromDraft(off.data, { name: 'G' }) : off;
    expect(kept.success && kept.data.preview).toBe(false);
    const on = kept.success ? agentFromDraft(kept.data, { preview: true }) : kept;
    expect(on.success && on.data.preview).toBe(true);
    expect(agentFromDraft(undefined, { command: 'gemini' }).data?.preview).toBe(true);
  });
});
