// Runs `npm run headless` as a new user would (the built entry), in its own GATEHOUSE_HOME.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';
import type { SettingsInput } from '../../src/shared/settings';

export interface Identity {
  clientId: string;
  clientToken: string;
}

export interface Headless {
  /** The URL the server printed, token and pairing secret in the fragment (spent by the harness). */
  url: string;
  origin: string;
  token: string;
  home: string;
  /** The harness's own paired client: the printed secret, exchanged at start (a person's voter). */
  identity: Identity;
  /** A fresh one-time pairing address for a browser page: opening it pairs that page. */
  pairingUrl(): Promise<string>;
  /** Another paired client, paired in Node with a fresh code. */
  pair(label: string, surface?: 'browser' | 'api'): Promise<Identity>;
  /** Fetch against the API with the bearer token only (an unpaired caller). */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** What the process printed so far (its terminal: a local confirmation's code goes there). */
  output(): string;
  /** Sends the core a signal (SIGSTOP freezes it, SIGCONT wakes it); the data folder stays. */
  signal(signal: NodeJS.Signals): void;
  /** Stops the core (SIGTERM) and keeps its data folder, for a restart. */
  halt(): Promise<void>;
  /** Starts the core again on the same data folder and port; resolves with the URL it printed. */
  restart(): Promise<string>;
  stop(): Promise<void>;
}

export interface HeadlessOptions {
  /** An administrator's managed policy, written beside the home and named by its variable. */
  managedSettings?: unknown;
  /** The PATH Gatehouse runs with, instead of this process's (what it finds installed). */
  path?: string;
  /** Files written into the data folder before the start (a registry snapshot). */
  files?: Record<string, string>;
  /** Where it listens (GATEHOUSE_HOST): an address of this machine to serve on its network. */
  host?: string;
}

export async function startHeadless(
  settings: SettingsInput,
  options: HeadlessOptions = {},
): Promise<Headless> {
  const home = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-home-'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings, null, 2));
  for (const [name, content] of Object.entries(options.files ?? {})) {
    writeFileSync(join(home, name), content);
  }
  const env: Record<string, string> = {};
  if (options.path !== undefined) env['PATH'] = options.path;
  if (options.host !== undefined) env['GATEHOUSE_HOST'] = options.host;
  if (options.managedSettings !== undefined) {
    const file = join(home, 'managed-settings.json');
    writeFileSync(file, JSON.stringify(options.managedSettings, null, 2));
    env['GATEHOUSE_MANAGED_SETTINGS'] = file;
  }
  let output = '';
  const launch = (port: string) => {
    const started: ChildProcess = spawn(process.execPath, ['out/main/headless.js'], {
      env: { ...process.env, GATEHOUSE_HOME: home, GATEHOUSE_PORT: port, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const printed = new Promise<string>((resolve, reject) => {
      let own = '';
      const timer = setTimeout(() => reject(new Error(`headless did not start:\n${own}`)), 20_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        own += chunk.toString();
        const match = /Gatehouse is running at (\S+)/.exec(own);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      started.stdout!.on('data', onData);
      started.stderr!.on('data', onData);
      started.once('exit', (code) => reject(new Error(`headless exited with ${code}:\n${own}`)));
    });
    return { started, printed };
  };
  const first = launch('0');
  let child = first.started;
  const url = await first.printed;
  const halt = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await exited;
    }
  };
  const parsed = new URL(url);
  const fragment = new URLSearchParams(parsed.hash.slice(1));
  const token = fragment.get('token')!;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${parsed.origin}${path}`, {
      // A core that stops answering fails the call, with its path, before the test's own bound.
      signal: AbortSignal.timeout(30_000),
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    }).catch((error: unknown) => {
      throw new Error(`${init.method ?? 'GET'} ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    });
  const json = async <T>(response: Promise<Response>, what: string): Promise<T> => {
    const r = await response;
    if (!r.ok) throw new Error(`${what}: HTTP ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  const pairWith = (secret: string, label: string, surface: 'browser' | 'api') =>
    json<Identity>(
      api('/api/clients/pair', {
        method: 'POST',
        body: JSON.stringify({ pairingSecret: secret, label, surface }),
      }),
      'pair',
    );
  const identity = await pairWith(fragment.get('pair')!, 'e2e harness', 'api');
  const newCode = async () =>
    (
      await json<{ secret: string }>(
        api('/api/clients/pairing-code', {
          method: 'POST',
          headers: {
            'x-gatehouse-client-id': identity.clientId,
            'x-gatehouse-client-token': identity.clientToken,
          },
        }),
        'pairing code',
      )
    ).secret;
  return {
    url,
    origin: parsed.origin,
    token,
    home,
    identity,
    pairingUrl: async () => `${parsed.origin}/#token=${token}&pair=${await newCode()}`,
    pair: async (label, surface = 'browser') => pairWith(await newCode(), label, surface),
    api,
    output: () => output,
    signal: (signal) => child.kill(signal),
    halt,
    async restart() {
      await halt();
      const next = launch(parsed.port);
      child = next.started;
      return next.printed;
    },
    async stop() {
      const ended = child.exitCode ?? child.signalCode;
      await halt();
      await keepForFailedTest(output, ended);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * A failed test carries what its core printed, and whether the core had already ended: a core that
 * stops answering shows in the page only as "not answering".
 */
async function keepForFailedTest(output: string, ended: number | string | null): Promise<void> {
  let info: ReturnType<typeof test.info>;
  try {
    info = test.info();
  } catch {
    return; // not inside a test (the dialog benchmark)
  }
  if (info.status === info.expectedStatus) return;
  const state = ended === null ? 'still running' : `already ended (${ended})`;
  await info.attach('core output', {
    body: `the core was ${state} when the test ended\n${output}`,
    contentType: 'text/plain',
  });
}
