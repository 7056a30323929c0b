// The headless entry reads GATEHOUSE_TOKEN once and drops it from its environment, so an agent it
// spawns does not inherit the token; it prints the token with a one-time pairing secret.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

describe('headless token', () => {
  let child: ChildProcess | undefined;
  let home: string | undefined;
  let work: string | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (home) rmSync(home, { recursive: true, force: true });
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is printed with a pairing secret and is not in the environment of the agents', async () => {
    home = mkdtempSync(join(tmpdir(), 'gatehouse-token-'));
    // The session folder, apart from the data folder (which a sandboxed agent cannot see).
    work = mkdtempSync(join(tmpdir(), 'gatehouse-token-work-'));
    const envFile = join(work, 'agent-env.txt');
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        agents: {
          probe: { command: '/bin/sh', args: ['-c', `env > '${envFile}'; exec sleep 30`] },
        },
      }),
    );
    child = spawn(join('node_modules', '.bin', 'tsx'), ['src/main/headless.ts'], {
      env: {
        ...process.env,
        GATEHOUSE_HOME: home,
        GATEHOUSE_PORT: '0',
        GATEHOUSE_TOKEN: 'secret-token-from-env',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const line = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Gatehouse is running at (\S+)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child!.stdout!.on('data', onData);
      child!.stderr!.on('data', onData);
      child!.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    const url = new URL(line);
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect(fragment.get('token')).toBe('secret-token-from-env');
    expect(fragment.get('pair')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const controller = new AbortController();
    void fetch(`${url.origin}/api/sessions`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer secret-token-from-env',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ agentId: 'probe', cwd: work }),
      signal: controller.signal,
    }).catch(() => undefined);
    for (
      let i = 0;
      i < 200 && !(existsSync(envFile) && readFileSync(envFile, 'utf8').includes('PATH='));
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    controller.abort();
    const env = readFileSync(envFile, 'utf8');
    expect(env).toContain('PATH=');
    expect(env).not.toContain('GATEHOUSE');
    expect(env).not.toContain('secret-token-from-env');
  });
});
