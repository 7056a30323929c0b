import { describe, expect, it } from 'vitest';
import type { Actor } from './admin-audit';
import {
  confirmationLine,
  describeLaunch,
  SettingsConfirmations,
  type LocalConfirmation,
} from './settings-confirmation';
import { launchChangedAgents, settingsChanges } from '../config/settings-diff';
import { Settings } from '../../../shared/settings';

const base = Settings.parse({
  agents: { a: { command: 'gemini', args: ['--acp'], env: { A: '1', B: '2' } } },
});
const by: Actor = {
  clientId: 'c1',
  identityProven: true,
  paired: true,
  surface: 'browser',
  transport: 'http',
};

describe('what needs a local confirmation', () => {
  it('a new agent or a changed command, args, cwd or env; not the mode, the name or the env order', () => {
    const agent = base.agents.a!;
    const next = (a: Partial<typeof agent>) =>
      Settings.parse({ ...base, agents: { a: { ...agent, ...a } } });
    expect(launchChangedAgents(base, next({ mode: 'plan', name: 'A' }))).toEqual([]);
    expect(launchChangedAgents(base, next({ env: { B: '2', A: '1' } }))).toEqual([]);
    expect(launchChangedAgents(base, next({ command: 'sh' }))).toEqual(['a']);
    expect(launchChangedAgents(base, next({ args: [] }))).toEqual(['a']);
    expect(launchChangedAgents(base, next({ cwd: '/tmp' }))).toEqual(['a']);
    expect(launchChangedAgents(base, next({ env: { A: '1', B: '3' } }))).toEqual(['a']);
    const added = Settings.parse({ ...base, agents: { ...base.agents, b: { command: 'x' } } });
    expect(launchChangedAgents(base, added)).toEqual(['b']);
  });

  it('a registry agent added, or its registry id changed, or a command replaced by a registry id', () => {
    const registry = Settings.parse({ agents: { r: { registry: 'gemini' } } });
    const withR = (r: object) => Settings.parse({ agents: { r } });
    expect(launchChangedAgents(Settings.parse({}), registry)).toEqual(['r']);
    expect(launchChangedAgents(registry, withR({ registry: 'gemini', mode: 'plan' }))).toEqual([]);
    expect(launchChangedAgents(registry, withR({ registry: 'qwen-code' }))).toEqual(['r']);
    expect(launchChangedAgents(withR({ command: 'gemini' }), registry)).toEqual(['r']);
  });

  it('the audit diff names each changed top-level key and hashes env values', () => {
    const next = Settings.parse({
      ...base,
      agents: { a: { ...base.agents.a!, env: { A: 'secret' } } },
      approvals: { timeoutSeconds: 10 },
    });
    const changes = settingsChanges(base, next);
    expect(Object.keys(changes).sort()).toEqual(['agents', 'approvals']);
    expect(JSON.stringify(changes)).not.toContain('secret');
    expect((changes.agents!.after as Settings['agents']).a!.env.A).toMatch(/^sha256:/);
  });
});

describe('the confirmation', () => {
  it('names the ACP Registry agent beside the command line its snapshot gives', () => {
    expect(
      describeLaunch({
        id: 'g',
        added: true,
        registry: 'gemini',
        command: 'npx',
        args: ['--yes', '@google/gemini-cli@0.27.3'],
        cwd: null,
        envNames: [],
      }),
    ).toBe(
      'new agent "g" command to "npx" "--yes" "@google/gemini-cli@0.27.3" (ACP Registry agent "gemini")',
    );
  });

  it('the terminal line shows every character of the command: no escape sequence can hide it', () => {
    const change: LocalConfirmation = {
      id: 'x',
      code: '482-913',
      expiresAt: 600_000,
      requestedBy: by,
      agents: [
        {
          id: 'a',
          added: false,
          command: 'sh\r\u001b[2Kgemini',
          args: ['-c', 'id'],
          cwd: null,
          envNames: [],
        },
      ],
    };
    const line = confirmationLine(change, 0);
    expect(line).toBe(
      'Confirm the change of agent "a" command to "sh⟨U+000D⟩⟨U+001B⟩[2Kgemini" "-c" "id" (asked by client "c1"): code 482-913 (expires in 10 min)',
    );
  });

  it('expires after ten minutes, audited', async () => {
    let now = 0;
    const audits: string[] = [];
    let code = '';
    const confirmations = new SettingsConfirmations({
      now: () => now,
      confirmLocally: (change) => {
        code = change.code;
        return { how: 'code' };
      },
      saved: () => base,
      launchOf: (_id, agent) => ({ command: agent.command!, args: agent.args }),
      apply: () => Promise.resolve('applied'),
      audit: (type, _by, payload) => {
        audits.push(`${type}${payload.reason ? `: ${String(payload.reason)}` : ''}`);
        return Promise.resolve();
      },
      report: () => undefined,
    });
    const next = Settings.parse({ ...base, agents: { a: { command: 'sh' } } });
    const ticket = await confirmations.request(next, ['a'], by);
    now += 10 * 60_000;
    await expect(confirmations.confirm(ticket.id, code, by)).rejects.toMatchObject({
      name: 'NotFoundError',
      kind: 'not_found',
    });
    expect(audits).toEqual(['settings_change_pending', 'settings_change_discarded: expired']);
  });
});
