import { describe, expect, it } from 'vitest';
import {
  agentFamily,
  askingChoice,
  configSelectors,
  isAutoApproving,
  modesSelector,
  type ModeChoice,
} from './agent-modes';

const mode = (id: string, name = id, description = ''): ModeChoice => ({ id, name, description });

// As the agents advertise them (docs/real-agents.md, their sources). claude-agent-acp 0.101 offers
// auto unless its settings disable it, and starts in it when no defaultMode is set; bypass unless
// it runs as root outside a sandbox; dontAsk it accepts only from its settings.
const CLAUDE = [
  mode('default', 'Manual', 'Always ask before making changes'),
  mode('acceptEdits', 'Accept edits', 'Automatically accept all file edits'),
  mode('plan', 'Plan', 'Create a plan before making changes'),
  mode('auto', 'Auto', 'Claude handles permission decisions'),
  mode('dontAsk', "Don't Ask", "Don't prompt for permissions"),
  mode('bypassPermissions', 'Bypass permissions', 'Accepts all permissions'),
];
const GEMINI = [
  mode('default', 'Default', 'Prompts for approval'),
  mode('autoEdit', 'Auto Edit', 'Auto-approves edit tools'),
  mode('yolo', 'YOLO', 'Auto-approves all tools'),
  mode('plan', 'Plan', 'Read-only mode'),
];
const CODEX = [
  mode('read-only', 'Read Only'),
  mode('auto', 'Auto'),
  mode('full-access', 'Full Access'),
];
// The renamed codex-acp 2.6 (codex 0.166): its `mode` config option, in its own words; a new session
// starts in `agent`. A permission profile's mode asks as codex's config says, unseen here.
const CODEX_26 = [
  mode('read-only', 'Read-only', 'Requires approval to edit files and access the internet.'),
  mode(
    'workspace-write',
    'Workspace access',
    'Edit workspace files; ask before writing outside the workspace or accessing the network.',
  ),
  mode('agent', 'Auto review', 'Only ask for actions detected as potentially unsafe'),
  mode(
    'agent-full-access',
    'Full access',
    'Unrestricted access to the internet and any file on your computer',
  ),
  mode('permission-profile:team', 'team', 'Use the team Codex permission profile.'),
];

const autoIds = (choices: ModeChoice[], family: ReturnType<typeof agentFamily>) =>
  choices.filter((c) => isAutoApproving(c, family)).map((c) => c.id);

describe('modes that approve by themselves', () => {
  it('knows each agent family by the name it reports, else by its id in the settings', () => {
    expect(agentFamily('@agentclientprotocol/claude-agent-acp')).toBe('claude');
    expect(agentFamily('gemini-cli')).toBe('gemini');
    expect(agentFamily(undefined, 'codex')).toBe('codex');
    expect(agentFamily('@agentclientprotocol/codex-acp')).toBe('codex');
    expect(agentFamily('codex-acp')).toBe('codex');
    expect(agentFamily('scripted-agent', 's')).toBeNull();
  });

  it('reads the per-agent table: claude, gemini, codex', () => {
    expect(autoIds(CLAUDE, 'claude')).toEqual([
      'acceptEdits',
      'auto',
      'dontAsk',
      'bypassPermissions',
    ]);
    expect(autoIds(GEMINI, 'gemini')).toEqual(['autoEdit', 'yolo']);
    expect(autoIds(CODEX, 'codex')).toEqual(['full-access']);
    expect(autoIds(CODEX_26, 'codex')).toEqual([
      'agent',
      'agent-full-access',
      'permission-profile:team',
    ]);
  });

  it("by their words alone, an unknown agent's auto review and classifier modes do not ask", () => {
    expect(autoIds(CODEX_26, null)).toEqual(['agent', 'agent-full-access']);
    expect(isAutoApproving(mode('auto', 'Auto', 'Claude handles permission decisions'), null)).toBe(
      true,
    );
  });

  it('for an unknown agent, goes by what the name or description says', () => {
    expect(autoIds(GEMINI, null)).toEqual(['autoEdit', 'yolo']);
    expect(autoIds(CLAUDE, null)).toEqual(['acceptEdits', 'auto', 'dontAsk', 'bypassPermissions']);
    expect(isAutoApproving(mode('turbo', 'Turbo', 'Skips all approval prompts'), null)).toBe(true);
    expect(isAutoApproving(mode('free', 'Free', 'Runs tools without asking'), null)).toBe(true);
    expect(isAutoApproving(mode('careful', 'Careful', 'Asks before every tool'), null)).toBe(false);
    expect(isAutoApproving(mode('build'), null)).toBe(false);
  });

  it('compares ids without case or punctuation', () => {
    expect(isAutoApproving(mode('BYPASS_PERMISSIONS', 'x'), 'claude')).toBe(true);
    expect(isAutoApproving(mode('AgentFullAccess', 'x'), 'codex')).toBe(true);
  });
});

describe('the asking mode, by meaning', () => {
  it('maps ask and plan onto each agent, never onto a mode that approves by itself', () => {
    expect(askingChoice(CLAUDE, 'ask', 'claude')?.id).toBe('default');
    expect(askingChoice(CLAUDE, 'plan', 'claude')?.id).toBe('plan');
    expect(askingChoice(GEMINI, 'ask', 'gemini')?.id).toBe('default');
    expect(askingChoice(GEMINI, 'plan', 'gemini')?.id).toBe('plan');
    expect(askingChoice(CODEX, 'plan', 'codex')?.id).toBe('read-only');
  });

  it('keeps codex 2.6 in read-only, where it asks before every edit and every escalation', () => {
    expect(askingChoice(CODEX_26, 'ask', 'codex')?.id).toBe('read-only');
    expect(askingChoice(CODEX_26, 'plan', 'codex')?.id).toBe('read-only');
    // Unrecognised, it is still never left in a mode that does not ask.
    expect(askingChoice(CODEX_26, 'ask', null)?.id).toBe('workspace-write');
  });

  it('finds them by name or description when the ids say nothing', () => {
    const odd = [
      mode('m1', 'Free rein', 'Never asks'),
      mode('m2', 'Look only', 'Read-only: proposes, changes nothing'),
      mode('m3', 'Careful', 'Asks for approval before each change'),
    ];
    expect(askingChoice(odd, 'ask', null)?.id).toBe('m3');
    expect(askingChoice(odd, 'plan', null)?.id).toBe('m2');
  });

  it('falls back to a mode nothing is known about, and gives up when every mode skips asking', () => {
    expect(askingChoice([mode('yolo'), mode('build', 'Build')], 'ask', null)?.id).toBe('build');
    expect(askingChoice([mode('yolo'), mode('autoEdit')], 'plan', 'gemini')).toBeNull();
  });
});

describe('reading what an agent advertises', () => {
  it('reads session modes and mode config options, grouped or not; ignores the rest', () => {
    expect(modesSelector({ currentModeId: 'yolo', availableModes: GEMINI })).toMatchObject({
      via: 'mode',
      current: 'yolo',
    });
    expect(modesSelector({ currentModeId: 1 })).toBeNull();
    const selectors = configSelectors([
      { id: 'model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
      {
        id: 'mode',
        type: 'select',
        currentValue: 'bypassPermissions',
        options: [{ value: 'bypassPermissions', name: 'Bypass' }],
      },
      {
        id: 'preset',
        type: 'select',
        category: 'mode',
        currentValue: 'plan',
        options: [{ group: 'g', name: 'G', options: [{ value: 'plan', name: 'Plan' }] }],
      },
      { id: 'mode', type: 'boolean', currentValue: true },
    ]);
    expect(selectors.map((s) => [s.configId, s.current, s.choices.map((c) => c.id)])).toEqual([
      ['mode', 'bypassPermissions', ['bypassPermissions']],
      ['preset', 'plan', ['plan']],
    ]);
    expect(configSelectors('nonsense')).toEqual([]);
  });
});
