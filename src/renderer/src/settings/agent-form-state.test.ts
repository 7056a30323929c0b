import { describe, expect, it } from 'vitest';
import { AgentConfig } from '../../../shared/settings';
import { draftOf, EMPTY_FORM, formOf } from './agent-form-state';

describe('the agent form', () => {
  it('shows env names without their values, and sends a name alone back as "keep"', () => {
    const agent = AgentConfig.parse({
      command: 'gemini',
      args: ['--acp'],
      env: { GEMINI_API_KEY: 'sk-1' },
      network: { allow: ['example.com:8443'] },
    });
    const form = formOf('gemini', agent);
    expect(JSON.stringify(form)).not.toContain('sk-1');
    expect(draftOf({ ...form, env: `${form.env}\nDEBUG=1=2` })).toEqual({
      name: '',
      command: 'gemini',
      args: ['--acp'],
      env: { GEMINI_API_KEY: null, DEBUG: '1=2' },
      cwd: '',
      sandbox: 'workspace-write',
      network: { allow: ['example.com:8443'] },
      allowWrite: [],
      allowUnsandboxed: false,
      preview: true,
    });
  });

  it("shows and sends the agent's command preview as it is", () => {
    const agent = AgentConfig.parse({ command: 'codex-acp', preview: false });
    const form = formOf('codex', agent);
    expect(form.preview).toBe(false);
    expect(draftOf(form).preview).toBe(false);
    expect(draftOf({ ...form, preview: true }).preview).toBe(true);
    expect(EMPTY_FORM.preview).toBe(true);
  });

  it('sends a registry id instead of a command, and no host list when the network is off', () => {
    const draft = draftOf({
      ...EMPTY_FORM,
      source: 'registry',
      registry: 'mistral-vibe',
      command: 'ignored',
      network: 'none',
      hosts: 'a.example',
    });
    expect(draft).toMatchObject({ registry: 'mistral-vibe', network: 'none' });
    expect(draft.command).toBeUndefined();
  });
});
