import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AgentConfig, type LaunchableAgent } from '../../../shared/settings';
import { isInside } from '../fs/containment';
import { GEMINI_POLICY } from './gemini-policy';
import { prepareAgentLaunch } from './launch';

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
  it('starts Gemini CLI with a read-only policy file in a temp folder of its own, removed at cleanup', async () => {
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
    // Readable in the sandbox: the temp folder is, Gatehouse's data folder is hidden there.
    expect(isInside(path!, tmpdir())).toBe(true);
    expect(isInside(path!, gatehouseHome)).toBe(false);
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
});
