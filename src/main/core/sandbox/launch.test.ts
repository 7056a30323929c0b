import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AgentConfig, type LaunchableAgent } from '../../../shared/settings';
import { isInside } from '../fs/containment';
import { GEMINI_POLICY, GEMINI_POLICY_FILE_NAME } from './gemini-policy';
import { prepareAgentLaunch } from './launch';
import { LaunchFileChangedError } from './launch-file';
import { ToolFailedError } from './tool-runner';

const gatehouseHome = mkdtempSync(join(tmpdir(), 'gatehouse-launch-home-'));
afterAll(() => rmSync(gatehouseHome, { recursive: true, force: true }));

const launch = (agentId: string, config: z.input<typeof AgentConfig>) =>
  prepareAgentLaunch({
    agentId,
    config: AgentConfig.parse({ sandbox: 'off', ...config }) as LaunchableAgent,
    sessionDir: gatehouseHome,
    gatehouseHome,
    onViolation: () => {},
  });

describe('an agent’s launch', () => {
  it('starts Gemini CLI with a read-only policy file in a folder of its own in the data folder, removed at cleanup', async () => {
    const prepared = await launch('my-agent', {
      command: 'node',
      args: ['/opt/lib/node_modules/@google/gemini-cli/bundle/gemini.js', '--acp'],
    });
    const [flag, path] = prepared.args.slice(-2);
    expect(prepared.args.slice(0, 2)).toEqual([
      '/opt/lib/node_modules/@google/gemini-cli/bundle/gemini.js',
      '--acp',
    ]);
    expect(flag).toBe('--policy');
    expect(readFileSync(path!, 'utf8')).toBe(GEMINI_POLICY);
    expect(statSync(path!).mode & 0o777).toBe(0o444);
    // Where no agent can write: every sandbox hides the data folder (and binds this file alone
    // read-only into its own session's).
    expect(isInside(path!, join(gatehouseHome, 'run'))).toBe(true);
    await prepared.cleanup();
    expect(existsSync(dirname(path!))).toBe(false);
    await prepared.cleanup();
  });

  it('recognises Gemini CLI by its command line (npx, its bin), each launch with its own file', async () => {
    const first = await launch('g', {
      command: 'npx',
      args: ['-y', '@google/gemini-cli', '--acp'],
    });
    const second = await launch('g', { command: '/usr/local/bin/gemini', args: ['--acp'] });
    expect(first.args).toContain('--policy');
    expect(second.args).toContain('--policy');
    expect(first.args.at(-1)).not.toBe(second.args.at(-1));
    await Promise.all([first.cleanup(), second.cleanup()]);
  });

  it('gives any other program its arguments unchanged, even one its settings call "gemini"', async () => {
    for (const [agentId, command, args] of [
      ['gemini', 'node', ['scripted-agent.js']],
      ['claude', 'npx', ['@zed-industries/claude-code-acp']],
    ] as const) {
      const prepared = await launch(agentId, { command, args: [...args] });
      expect(prepared.args).toEqual(args);
      await prepared.cleanup();
    }
  });

  it('refuses the start when the policy file changed between its writing and the start', async () => {
    const pending = prepareAgentLaunch({
      agentId: 'g',
      config: AgentConfig.parse({
        sandbox: 'off',
        command: '/usr/local/bin/gemini',
        args: ['--acp'],
      }) as LaunchableAgent,
      sessionDir: gatehouseHome,
      gatehouseHome,
      onViolation: () => {},
    });
    // Written before the first wait of the launch's preparation; checked at its end.
    const run = join(gatehouseHome, 'run');
    const dir = readdirSync(run).find(
      (name) => name.startsWith('launch-') && existsSync(join(run, name, GEMINI_POLICY_FILE_NAME)),
    )!;
    const path = join(run, dir, GEMINI_POLICY_FILE_NAME);
    chmodSync(path, 0o644);
    writeFileSync(path, GEMINI_POLICY.replaceAll('ask_user', 'allow'));
    await expect(pending).rejects.toBeInstanceOf(LaunchFileChangedError);
    await expect(pending).rejects.toThrow(/changed since it was written/);
    expect(existsSync(path)).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')(
    'fails the start when bubblewrap could not be checked, never running the agent unsandboxed for it',
    async () => {
      const asked: string[] = [];
      const attempt = () =>
        prepareAgentLaunch({
          agentId: 'lost-check',
          config: AgentConfig.parse({
            command: 'node',
            sandbox: 'workspace-write',
            allowUnsandboxed: true,
          }) as LaunchableAgent,
          sessionDir: gatehouseHome,
          gatehouseHome,
          onViolation: () => {},
          // What ran the check was lost before bubblewrap answered.
          runTool: (command) => {
            asked.push(command);
            return Promise.reject(new ToolFailedError('the agent launcher exited', '', false));
          },
        });
      await expect(attempt()).rejects.toThrow(
        'bubblewrap could not be checked: the agent launcher exited',
      );
      // Not remembered: the next start checks again.
      await expect(attempt()).rejects.toThrow('could not be checked');
      expect(asked).toHaveLength(2);
    },
  );
});
