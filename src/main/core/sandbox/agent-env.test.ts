import { describe, expect, it } from 'vitest';
import { agentEnvironment } from './agent-env';
import { AgentConfig } from '../../../shared/settings';

const PARENT: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  USER: 'u',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TERM: 'xterm',
  TMPDIR: '/tmp',
  https_proxy: 'http://proxy:3128',
  NO_PROXY: 'localhost',
  NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
  XDG_CONFIG_HOME: '/home/u/.config',
  XDG_STATE_HOME: '/home/u/.gatehouse/state',
  GATEHOUSE_TOKEN: 'secret-token',
  GATEHOUSE_HOME: '/home/u/.gatehouse',
  GATEHOUSE_AUDIT_KEY: 'k',
  AWS_SECRET_ACCESS_KEY: 'aws',
  GITHUB_TOKEN: 'gh',
  GEMINI_API_KEY: 'gem',
  GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:1',
  ANTHROPIC_API_KEY: 'ant',
  OPENAI_API_KEY: 'oai',
  DASHSCOPE_API_KEY: 'dash',
};

const agent = (command: string, args: string[] = [], env: Record<string, string> = {}) => ({
  command,
  args,
  env,
});

describe('agentEnvironment', () => {
  it('passes the allow-list and nothing else of the parent', () => {
    const env = agentEnvironment(PARENT, agent('/opt/bin/my-agent'), 'linux', '/home/u/.gatehouse');
    // These of the parent's variables, with the parent's values, and no other.
    const passed =
      'PATH HOME USER LANG LC_ALL TERM TMPDIR https_proxy NO_PROXY NODE_EXTRA_CA_CERTS';
    expect(env).toEqual(
      Object.fromEntries([...passed.split(' '), 'XDG_CONFIG_HOME'].map((k) => [k, PARENT[k]])),
    );
  });

  it('never passes GATEHOUSE_TOKEN or GATEHOUSE_HOME, not even from the agent settings', () => {
    const env = agentEnvironment(
      PARENT,
      agent('gemini', ['--acp'], { GATEHOUSE_TOKEN: 'again', gatehouse_home: '/x' }),
      'linux',
    );
    expect(Object.keys(env).filter((k) => /^gatehouse_/i.test(k))).toEqual([]);
  });

  it('gives a known agent the variables of its model API, and only its own', () => {
    const gemini = agentEnvironment(
      PARENT,
      agent('node', ['/x/@google/gemini-cli/bundle/gemini.js', '--acp']),
      'linux',
    );
    expect(gemini).toMatchObject({
      GEMINI_API_KEY: 'gem',
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:1',
    });
    expect(gemini).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(gemini).not.toHaveProperty('OPENAI_API_KEY');

    const claude = agentEnvironment(
      PARENT,
      agent('npx', ['@zed-industries/claude-code-acp']),
      'linux',
    );
    expect(claude).toMatchObject({ ANTHROPIC_API_KEY: 'ant' });
    expect(claude).not.toHaveProperty('GEMINI_API_KEY');

    expect(agentEnvironment(PARENT, agent('codex-acp'), 'linux')).toMatchObject({
      OPENAI_API_KEY: 'oai',
    });
    expect(agentEnvironment(PARENT, agent('qwen', ['--acp']), 'linux')).toMatchObject({
      DASHSCOPE_API_KEY: 'dash',
    });
  });

  it('lets the settings env win over the parent', () => {
    const env = agentEnvironment(
      PARENT,
      agent('gemini', [], { HOME: '/tmp/isolated', EXTRA: '1' }),
      'linux',
    );
    expect(env.HOME).toBe('/tmp/isolated');
    expect(env.EXTRA).toBe('1');
  });

  it('drops XDG directories inside the Gatehouse home', () => {
    const env = agentEnvironment(
      { XDG_DATA_DIRS: '/usr/share:/home/u/.gatehouse/share', XDG_RUNTIME_DIR: '/run/user/1' },
      agent('a'),
      'linux',
      '/home/u/.gatehouse',
    );
    expect(env).toEqual({ XDG_RUNTIME_DIR: '/run/user/1' });
  });

  it('on Windows matches names case-insensitively and passes what programs need to start', () => {
    const env = agentEnvironment(
      {
        Path: 'C:\\Windows',
        SystemRoot: 'C:\\Windows',
        ComSpec: 'cmd.exe',
        Gatehouse_Token: 't',
        Secret: 's',
      },
      agent('a', [], { PATH: 'D:\\bin' }),
      'win32',
    );
    expect(env).toEqual({ SystemRoot: 'C:\\Windows', ComSpec: 'cmd.exe', PATH: 'D:\\bin' });
  });
});

describe('agent settings env', () => {
  it('refuses GATEHOUSE_* variables with a clear message', () => {
    const parsed = AgentConfig.safeParse({ command: 'a', env: { GATEHOUSE_TOKEN: 'x' } });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toMatch(/GATEHOUSE_\* variables are Gatehouse's own/);
    expect(AgentConfig.safeParse({ command: 'a', env: { GEMINI_API_KEY: 'x' } }).success).toBe(
      true,
    );
  });
});
