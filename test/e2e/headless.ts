// Runs `npm run headless` as a new user would (the built entry), in its own GATEHOUSE_HOME.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SettingsInput } from '../../src/shared/settings';

export interface Headless {
  /** The URL the server printed, token in the fragment. */
  url: string;
  origin: string;
  token: string;
  home: string;
  /** Authenticated fetch against the API. */
  api(path: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

export async function startHeadless(settings: SettingsInput): Promise<Headless> {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-home-'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings, null, 2));
  const child: ChildProcess = spawn(process.execPath, ['out/main/headless.js'], {
    env: { ...process.env, GATEHOUSE_HOME: home, GATEHOUSE_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`headless did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Gatehouse is running at (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`headless exited with ${code}:\n${output}`)));
  });
  const parsed = new URL(url);
  const token = new URLSearchParams(parsed.hash.slice(1)).get('token')!;
  return {
    url,
    origin: parsed.origin,
    token,
    home,
    api: (path, init = {}) =>
      fetch(`${parsed.origin}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...init.headers,
        },
      }),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}
