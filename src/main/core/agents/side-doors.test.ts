import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AgentConfig, type LaunchableAgent } from '../../../shared/settings';
import { AUTO_APPROVING_MODES } from './agent-modes';
import {
  ACCEPTS_LOCAL_APPROVALS,
  SIDE_DOORS,
  launchFamily,
  openDoors,
  unguardedByDoor,
} from './side-doors';

const agent = (command: string, args: string[], extra: object = {}) =>
  AgentConfig.parse({ command, args, ...extra }) as LaunchableAgent;

describe('side doors', () => {
  it('names for each door a test that exists, and takes the auto-approving modes from their one list', () => {
    for (const door of SIDE_DOORS) expect(existsSync(door.proof), door.proof).toBe(true);
    const modeFamilies = SIDE_DOORS.filter((d) => d.kind === 'auto-approving-mode').map(
      (d) => d.family,
    );
    expect(modeFamilies).toEqual(
      Object.entries(AUTO_APPROVING_MODES)
        .filter(([, modes]) => modes.length > 0)
        .map(([family]) => family),
    );
    expect(openDoors('opencode').map((d) => d.kind)).toEqual(['local-approval-api']);
    expect(openDoors('gemini')).toEqual([]);
  });

  it('recognises opencode by its command line, whatever the agent is called', () => {
    expect(launchFamily('helper', agent('/usr/local/bin/opencode', ['acp']))).toBe('opencode');
    expect(launchFamily('helper', agent('npx', ['-y', 'opencode-ai', 'acp']))).toBe('opencode');
    expect(launchFamily('opencode', agent('node', ['wrapper.js']))).toBe('opencode');
    expect(launchFamily('helper', agent('npx', ['@zed-industries/codex-acp']))).toBe('codex');
  });

  it('recognises both codex-acp packages and claude-agent-acp, run by their bin or by node', () => {
    const nodeModules = '/opt/lib/node_modules';
    for (const launch of [
      agent('npx', ['-y', '@agentclientprotocol/codex-acp@2.6.0']),
      agent(`${nodeModules}/.bin/codex-acp`, []),
      agent('node', [`${nodeModules}/@agentclientprotocol/codex-acp/dist/index.js`]),
      agent(`${nodeModules}/@zed-industries/codex-acp-linux-x64/bin/codex-acp`, []),
    ])
      expect(launchFamily('helper', launch)).toBe('codex');
    expect(
      launchFamily(
        'helper',
        agent('node', [`${nodeModules}/@agentclientprotocol/claude-agent-acp/dist/index.js`]),
      ),
    ).toBe('claude');
    // A script outside any package says nothing.
    expect(launchFamily('helper', agent('node', ['/opt/tools/dist/index.js']))).toBeNull();
  });

  it('refuses an agent with an open door unless it opted in, then names it unguarded', () => {
    const plain = agent('opencode', ['acp']);
    expect(() => unguardedByDoor('oc', plain, 'opencode')).toThrow(/"allowUnguarded": true/);
    // What the agent calls itself counts too: a wrapper script does not hide it.
    expect(() => unguardedByDoor('oc', plain, null, 'opencode')).toThrow(/allowUnguarded/);
    const optedIn = agent('opencode', ['acp'], { allowUnguarded: true });
    expect(unguardedByDoor('oc', optedIn, 'opencode')).toBe(ACCEPTS_LOCAL_APPROVALS);
    expect(unguardedByDoor('g', agent('gemini', ['--acp']), 'gemini', null)).toBeNull();
  });
});
