// An agent from the ACP Registry, started through npx: the scripted agent packed as a tarball with a
// `bin`, named by the registry snapshot's `npx.package`. npx installs it from the tarball into an
// npm cache of the test's own, offline, so nothing reaches the network.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { saveRegistrySnapshot } from '../../src/main/core/agents/registry-snapshot';
import { AgentConfig } from '../../src/shared/settings';
import { scriptedAgentLaunch, type ScriptedAgentScript } from '../support/agents/scripted-agent';
import { startGatehouse, type TestGatehouse } from '../support/gatehouse';
import { registryFixture } from '../support/registry-fixture';
import { cleanupAfterEach, freshDir } from '../support/steps';

const cleanup = cleanupAfterEach();

/**
 * The scripted agent as an npm package whose bin runs it; returns the tarball's path. With `cmd`,
 * the scripted agent is that bin and the package's default bin only says it is the wrong one.
 */
function packScriptedAgent(cmd?: string): string {
  const dir = freshDir(cleanup, 'gatehouse-agent-pkg-');
  const agent = resolve('test/support/agents/scripted-agent.ts');
  const name = 'gatehouse-scripted-agent';
  const bin: Record<string, string> = cmd
    ? { [name]: 'default.mjs', [cmd]: 'agent.mjs' }
    : { [name]: 'agent.mjs' };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', bin }));
  // The scripted agent runs when it is the script node was given.
  const code = `#!/usr/bin/env node\nprocess.argv[1] = ${JSON.stringify(agent)};\nawait import(${JSON.stringify(pathToFileURL(agent).href)});\n`;
  writeFileSync(join(dir, 'agent.mjs'), code, { mode: 0o755 });
  const wrong = `#!/usr/bin/env node\nconsole.error('the default program ran');\nprocess.exit(3);\n`;
  writeFileSync(join(dir, 'default.mjs'), wrong, { mode: 0o755 });
  execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: dir,
    stdio: 'ignore',
  });
  const tarball = readdirSync(dir).find((file) => file.endsWith('.tgz'))!;
  return join(dir, tarball);
}

async function registryGatehouse(
  script: ScriptedAgentScript,
  registryId: string,
  cmd?: string,
): Promise<TestGatehouse> {
  const tarball = packScriptedAgent(cmd);
  const npmCache = freshDir(cleanup, 'gatehouse-npm-cache-');
  const { env } = scriptedAgentLaunch(script);
  const gh = await startGatehouse({
    agents: {
      s: {
        registry: registryId,
        sandbox: 'off',
        env: {
          ...(env as Record<string, string>),
          // npm offline with an empty cache of its own: the tarball is all it can install.
          npm_config_cache: npmCache,
          npm_config_offline: 'true',
          npm_config_update_notifier: 'false',
        },
      },
    },
  });
  cleanup.push(() => gh.close());
  const registry = registryFixture();
  registry.agents.push({
    id: 'scripted',
    name: 'Scripted agent',
    version: '1.0.0',
    description: 'The test suite’s ACP agent',
    distribution: {
      npx: { package: `file:${tarball}`, ...(cmd ? { cmd } : {}), args: ['--from-registry'] },
    },
  });
  saveRegistrySnapshot(gh.home, JSON.stringify(registry), 'fixture');
  return gh;
}

describe('an agent from the ACP Registry', () => {
  it('starts through npx from the snapshot, asks through Gatehouse and answers the prompt', async () => {
    const folder = realpathSync(freshDir(cleanup, 'gatehouse-work-'));
    const target = join(folder, 'hello.txt');
    const gh = await registryGatehouse(
      {
        prompts: [
          [
            {
              type: 'requestPermission',
              toolCall: {
                toolCallId: 'w1',
                kind: 'edit',
                title: 'Write hello.txt',
                locations: [{ path: target }],
              },
              options: [
                { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
                { optionId: 'no', name: 'No', kind: 'reject_once' },
              ],
              onAllow: [{ type: 'writeFile', path: target, content: 'from the registry\n' }],
            },
            { type: 'text', text: 'done' },
          ],
        ],
      },
      'scripted',
    );
    const { sessionId } = await gh.api.call('createSession', { agentId: 's', cwd: folder });
    const turn = gh.api.call('prompt', { sessionId, text: 'write it' });
    const approval = await gh.nextApproval();
    expect(approval.toolCall.title).toBe('Write hello.txt');
    await gh.api.call('vote', { requestId: approval.requestId, optionId: 'yes' });
    expect(await turn).toEqual({ stopReason: 'end_turn' });
    expect(readFileSync(target, 'utf8')).toBe('from the registry\n');

    const [agent] = await gh.api.call('listAgents', {});
    expect(agent).toMatchObject({
      id: 's',
      name: 'Scripted agent',
      command: 'npx',
      args: [
        '--yes',
        expect.stringMatching(/^file:.*gatehouse-scripted-agent-1\.0\.0\.tgz$/),
        '--from-registry',
      ],
    });
  });

  it('runs the program the entry names with `cmd`, not the package default one', async () => {
    const folder = realpathSync(freshDir(cleanup, 'gatehouse-work-'));
    const gh = await registryGatehouse(
      { prompts: [[{ type: 'text', text: 'the named program answered' }]] },
      'scripted',
      'gatehouse-scripted-acp',
    );
    const { sessionId } = await gh.api.call('createSession', { agentId: 's', cwd: folder });
    expect(await gh.api.call('prompt', { sessionId, text: 'hi' })).toEqual({
      stopReason: 'end_turn',
    });
    const said = gh.events.flatMap((e) =>
      e.type === 'session_update' && e.update.sessionUpdate === 'agent_message_chunk'
        ? [(e.update['content'] as { text: string }).text]
        : [],
    );
    expect(said).toEqual(['the named program answered']);
    const [agent] = await gh.api.call('listAgents', {});
    expect(agent?.args).toEqual([
      '--package',
      expect.stringMatching(/^file:.*gatehouse-scripted-agent-1\.0\.0\.tgz$/),
      '--yes',
      'gatehouse-scripted-acp',
      '--from-registry',
    ]);
  });

  it('a snapshot whose entry names a cmd that is no program name is refused at import', async () => {
    const gh = await registryGatehouse({ prompts: [] }, 'scripted');
    const before = readFileSync(join(gh.home, 'registry.json'), 'utf8');
    const registry = JSON.parse(before) as { agents: { distribution: object }[] };
    registry.agents.at(-1)!.distribution = {
      npx: { package: 'gatehouse-scripted-agent@1.0.0', cmd: '../../bin/sh' },
    };
    expect(() => saveRegistrySnapshot(gh.home, JSON.stringify(registry), 'fixture')).toThrow(
      /agents\.3\.distribution\.npx\.cmd: cmd: the name of one of the package’s programs/,
    );
    expect(readFileSync(join(gh.home, 'registry.json'), 'utf8')).toBe(before);
  });

  it('an id the snapshot does not hold is a start error that names it', async () => {
    const folder = realpathSync(freshDir(cleanup, 'gatehouse-work-'));
    const gh = await registryGatehouse({ prompts: [] }, 'no-such-agent');
    await expect(gh.api.call('createSession', { agentId: 's', cwd: folder })).rejects.toThrow(
      'agent "s" did not start: agent "s": no agent "no-such-agent" in the ACP Registry snapshot',
    );
    expect((await gh.api.call('listSessions', {})).length).toBe(0);
  });

  it('over HTTP, adding a registry agent or changing its id waits for a local confirmation: with none, refused', async () => {
    const gh = await registryGatehouse({ prompts: [] }, 'scripted');
    const { settings } = await gh.api.call('getSettings', {});
    const added = {
      ...settings,
      agents: { ...settings.agents, g: AgentConfig.parse({ registry: 'gemini' }) },
    };
    const switched = { ...settings, agents: { s: { ...settings.agents.s!, registry: 'gemini' } } };
    for (const next of [added, switched]) {
      await expect(gh.api.call('updateSettings', { settings: next })).rejects.toThrow(
        /an agent's command can only be changed here from the desktop app or in settings.json/,
      );
    }
    expect(Object.keys(gh.core.settings.agents)).toEqual(['s']);
    expect(gh.core.settings.agents.s!.registry).toBe('scripted');
  });
});
