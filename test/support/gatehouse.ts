// A real Gatehouse core + HTTP server in the test process, and the renderer's own HTTP client.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatehouseEvent } from '../../src/shared/contract';
import type { PendingApproval } from '../../src/shared/domain';
import type { HistoryItem } from '../../src/shared/history';
import { Settings, type AgentConfig, type SettingsInput } from '../../src/shared/settings';
import { scriptedAgentConfig, type ScriptedAgentScript } from './agents/scripted-agent';
import { PAIRING_CODE_TTL_MS } from '../../src/main/core/approvals/clients';
import { createCore, type Core, type CoreOptions } from '../../src/main/core/core';
import {
  startHttpServer,
  type HttpServerOptions,
  type RunningServer,
} from '../../src/main/server/http-server';
import { HttpApi } from '../../src/renderer/src/api/http-client';

export interface TestGatehouse {
  core: Core;
  server: RunningServer;
  token: string;
  home: string;
  /** A paired API client: a person's, as the UI is once paired. */
  api: HttpApi;
  /** Every event seen since start, in order. */
  events: GatehouseEvent[];
  /**
   * Another client of the same server: paired (default), registered only (`paired: false`: an API
   * client holding just the bearer token), or neither (`register: false`).
   */
  client(options?: { register?: boolean; paired?: boolean; label?: string }): Promise<HttpApi>;
  /** A one-time pairing secret minted in-process (as a person's paired client would). */
  pairingSecret(ttlMs?: number): string;
  /** Resolves with the next pending approval matching `predicate` (or one already pending). */
  nextApproval(
    predicate?: (a: PendingApproval) => boolean,
    timeoutMs?: number,
  ): Promise<PendingApproval>;
  waitForEvent<T extends GatehouseEvent['type']>(
    type: T,
    predicate?: (e: Extract<GatehouseEvent, { type: T }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<GatehouseEvent, { type: T }>>;
  /**
   * The session's latest decision on something its agent asked. A real agent also connects to its
   * own hosts in the background; the sandbox's refusals of those are decisions too, and may land
   * after the one a test reads.
   */
  lastDecision(sessionId: string): Promise<HistoryItem>;
  close(): Promise<void>;
}

export async function startGatehouse(
  settings: SettingsInput,
  serverOptions: Partial<HttpServerOptions> = {},
  coreOptions: Pick<CoreOptions, 'managedSettingsPath'> & {
    /** Write the settings to settings.json and start from the file, as a person's core does. */
    settingsFile?: boolean;
    /** A data folder the test made and removes (a core started again on it); default: a fresh one. */
    home?: string;
  } = {},
): Promise<TestGatehouse> {
  const { settingsFile, home: givenHome, ...options } = coreOptions;
  const home = givenHome ?? mkdtempSync(join(tmpdir(), 'gatehouse-home-'));
  if (settingsFile) writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  const core = await createCore({
    home,
    ...(settingsFile ? {} : { settings: Settings.parse(settings) }),
    ...options,
  });
  const token = randomBytes(16).toString('hex');
  const server = await startHttpServer({ core, token, port: 0, ...serverOptions });
  const events: GatehouseEvent[] = [];
  const waiters = new Set<(event: GatehouseEvent) => void>();
  core.bus.subscribe((event) => {
    events.push(event);
    for (const waiter of waiters) waiter(event);
  });
  const apis: HttpApi[] = [];

  const pairingSecret = (ttlMs = PAIRING_CODE_TTL_MS) =>
    core.clients.issuePairingSecret(ttlMs, 'test').secret;
  const client = async ({ register = true, paired = true, label = 'test' } = {}) => {
    const api = new HttpApi(server.url, token);
    apis.push(api);
    if (register && paired) await api.pair(pairingSecret(), label, 'api');
    else if (register) await api.connect(label, 'api');
    return api;
  };

  const waitFor = <R>(
    match: (e: GatehouseEvent) => R | undefined,
    timeoutMs: number,
    what: string,
  ) =>
    new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const waiter = (event: GatehouseEvent) => {
        const hit = match(event);
        if (!hit) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(hit);
      };
      waiters.add(waiter);
    });

  return {
    core,
    server,
    token,
    home,
    api: await client(),
    events,
    client,
    pairingSecret,
    nextApproval(predicate: (a: PendingApproval) => boolean = () => true, timeoutMs = 30_000) {
      const already = core.pipeline.pending.list().find(predicate);
      if (already) return Promise.resolve(already);
      return waitFor<PendingApproval>(
        (e) =>
          e.type === 'permission_requested' && predicate(e.approval) ? e.approval : undefined,
        timeoutMs,
        'a permission request',
      );
    },
    waitForEvent<T extends GatehouseEvent['type']>(
      type: T,
      predicate: (e: Extract<GatehouseEvent, { type: T }>) => boolean = () => true,
      timeoutMs = 30_000,
    ) {
      type E = Extract<GatehouseEvent, { type: T }>;
      return waitFor<E>(
        (e) => (e.type === type && predicate(e as E) ? (e as E) : undefined),
        timeoutMs,
        `event ${type}`,
      );
    },
    async lastDecision(sessionId: string) {
      await core.store.flush();
      const { items } = await core.store.history({ sessionId, limit: 50 });
      const found = items.find((item) => item.decider.type !== 'sandbox');
      if (!found) throw new Error(`no decision in session ${sessionId}`);
      return found;
    },
    async close() {
      for (const api of apis) api.close();
      await server.close();
      await core.close();
      if (!givenHome) rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface ScriptedSession {
  gh: TestGatehouse;
  sessionId: string;
  /** The session folder (real path). */
  folder: string;
  /** What the agent was answered to each of its permission requests, in order. */
  replies(): { outcome: string; optionId?: string }[];
  /** Every message the agent read ('in') or wrote ('out'). */
  log(): AgentLogLine[];
  close(): Promise<void>;
}

/**
 * A Gatehouse with one scripted agent (id `s`) and one open session in a fresh folder — the setup of
 * most pipeline tests. The agent logs every message, so tests can check what it was told.
 */
export async function startScriptedSession(
  script: ScriptedAgentScript,
  options: {
    settings?: Partial<SettingsInput>;
    agent?: Partial<AgentConfig>;
    server?: Partial<HttpServerOptions>;
    /** A folder the test made (and removes); default: a fresh one removed by close(). */
    folder?: string;
    /** The administrator's managed policy file. */
    managedSettingsPath?: string;
  } = {},
): Promise<ScriptedSession> {
  const folder = options.folder ?? realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-work-')));
  const logDir = mkdtempSync(join(tmpdir(), 'gatehouse-agentlog-'));
  const logFile = join(logDir, 'agent.jsonl');
  const gh = await startGatehouse(
    {
      ...options.settings,
      agents: {
        s: {
          ...scriptedAgentConfig(script, { logFile }),
          ...options.agent,
          // The log lies in the real temp folder, which the sandbox replaces with its own.
          allowWrite: [logDir, ...(options.agent?.allowWrite ?? [])],
        },
      },
    },
    options.server,
    options.managedSettingsPath ? { managedSettingsPath: options.managedSettingsPath } : {},
  );
  const { sessionId } = await gh.api.call('createSession', { agentId: 's', cwd: folder });
  const log = () =>
    readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AgentLogLine);
  return {
    gh,
    sessionId,
    folder,
    log,
    replies() {
      const lines = log();
      const asked = new Set(
        lines
          .filter((l) => l.dir === 'out' && l.msg.method === 'session/request_permission')
          .map((l) => l.msg.id),
      );
      return lines
        .filter((l) => l.dir === 'in' && asked.has(l.msg.id) && l.msg.result?.outcome)
        .map((l) => l.msg.result!.outcome!);
    },
    async close() {
      await gh.close();
      if (!options.folder) rmSync(folder, { recursive: true, force: true });
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}

export interface AgentLogLine {
  dir: 'in' | 'out';
  msg: {
    id?: number;
    method?: string;
    result?: { outcome?: { outcome: string; optionId?: string } };
    error?: { code: number; message: string };
  };
}
