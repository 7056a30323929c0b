import { homedir } from 'node:os';
import type { Settings } from '../../shared/settings';
import { createReadJudge } from './agents/read-judge';
import { SessionManager } from './agents/sessions';
import { ClientRegistry } from './approvals/clients';
import { ApprovalPipeline } from './approvals/pipeline';
import { createHandlers } from './commands/handlers';
import type { Handlers } from './commands/dispatch';
import {
  loadSettings,
  settingsPath,
  SettingsError,
  updateSettingsFile,
} from './config/settings-file';
import { GrantBook } from './approvals/grant-book';
import { ApprovalLinks } from './approvals/links';
import { createRulesGate, factsOf } from './approvals/rules-gate';
import { initShellParser, validateRules } from './rules';
import { EventBus } from './events/bus';
import {
  MultiClientPermissionMediator,
  validatePolicyConfig,
  type PermissionMediatorEvent,
} from './mediator';
import { openStore, type Store } from './store';
import { KEY_ENV, resolveAuditKey, type ResolvedAuditKey } from './store/audit-key';
import { databasePath } from './store/data-folder';
import type { ConfirmLocally } from './commands/settings-confirmation';

export interface CoreOptions {
  /** $GATEHOUSE_HOME: settings.json and the audit database live here. */
  home: string;
  /** Given settings win over the file (tests, embedding). */
  settings?: Settings;
  now?: () => number;
  /**
   * The key that signs the audit chain, when the shell keeps it (desktop: the OS keychain).
   * Otherwise the headless sources apply (store/audit-key.ts).
   */
  auditKey?: ResolvedAuditKey;
  /**
   * How the shell asks the person where Gatehouse runs to confirm an agent's new command sent over
   * HTTP. Without it such a change is refused.
   */
  confirmLocally?: ConfirmLocally;
}

export interface Core {
  readonly home: string;
  readonly settings: Settings;
  readonly policy: ReturnType<typeof validatePolicyConfig>;
  readonly bus: EventBus;
  readonly store: Store;
  readonly mediator: MultiClientPermissionMediator;
  readonly pipeline: ApprovalPipeline;
  readonly sessions: SessionManager;
  readonly clients: ClientRegistry;
  readonly grants: GrantBook;
  readonly links: ApprovalLinks;
  readonly handlers: Handlers;
  readonly confirmLocally: ConfirmLocally | null;
  now(): number;
  /**
   * Persists a change to settings.json when the settings came from it; settings given in code
   * (tests, embedding) change in memory only.
   */
  saveSettings(change: (json: Record<string, unknown>) => void): void;
  /** Throws SettingsError or InvalidPolicyConfigError when `next` cannot replace the settings. */
  checkSettings(next: Settings): void;
  /**
   * Replaces the settings (validated whole, saved). Agents, rules, approvals and desktop apply at
   * once; the mediator policy and the server address are fixed for the life of the process.
   * Returns the keys that wait for a restart.
   */
  replaceSettings(next: Settings): string[];
  /** Saved changes that wait for a restart. */
  restartNeeded(): string[];
  /** The settings as saved: those in force, with policy and server as they will be after a restart. */
  savedSettings(): Settings;
  /** Ends every session; pending requests are answered fail-closed and audited before it returns. */
  close(): Promise<void>;
}

/** The composition root: everything that decides, with no Electron and no transport. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const now = options.now ?? Date.now;
  const settings = options.settings ?? loadSettings(options.home);
  const policy = validatePolicyConfig(settings.policy);
  const checked = validateRules(settings.rules);
  if (!checked.ok) {
    throw new SettingsError(
      settingsPath(options.home),
      checked.errors.map((e) => `rules: ${e.message}`),
    );
  }
  // Shell commands are judged part by part; the parser must be ready before the first request.
  await initShellParser();
  const bus = new EventBus();
  const dbPath = databasePath(options.home);
  const auditKey = options.auditKey ?? resolveAuditKey({ home: options.home, dbPath });
  // Whatever the source, the agents spawned later must not inherit a key from the environment.
  delete process.env[KEY_ENV];
  const store = openStore({
    path: dbPath,
    now,
    retention: settings.retention,
    checkpointKey: auditKey.key,
  });
  if (auditKey.movedFrom) {
    store.recordEvent({
      type: 'audit_key_moved',
      payload: { from: auditKey.movedFrom, to: auditKey.location },
    });
  }
  const clients = new ClientRegistry({
    now,
    store,
    audit: (type, payload) => store.recordEvent({ type, at: now(), payload }),
  });
  const grants = new GrantBook(store, now, () => bus.publish({ type: 'grants_changed' }));
  const links = new ApprovalLinks(now, (requestId) => pipeline.pending.get(requestId)?.expiresAt ?? null);
  bus.subscribe((event) => {
    if (event.type === 'permission_resolved') links.forget(event.requestId);
  });

  // The mediator and the pipeline call each other; neither callback runs before both exist.
  const mediator = new MultiClientPermissionMediator(policy.policy, {
    consensusQuorum: policy.consensusQuorum,
    now,
    votersForSession: () => clients.voterIds(),
    audit: (record) => pipeline.onMediatorAudit(record),
    emit: (_sessionId, event) => forward(event),
  });
  const pipeline: ApprovalPipeline = new ApprovalPipeline({
    mediator,
    store,
    bus,
    now,
    timeoutMs: () => settings.approvals.timeoutSeconds * 1000,
    decideBefore: createRulesGate({ rules: () => settings.rules, grants, now }),
    remember: async (approval, session, choice) => {
      const result = await grants.remember(factsOf(approval, session.cwd), choice);
      return result.ok ? `remembered as grant ${result.grant.id} (${choice.scope})` : result.error;
    },
  });
  const sessions = new SessionManager({
    agents: () => settings.agents,
    defaultPolicy: () => policy.policy,
    pipeline,
    mediator,
    store,
    bus,
    now,
    home: options.home,
    cancelGraceMs: () => settings.approvals.cancelGraceSeconds * 1000,
    judgeRead: createReadJudge({
      rules: () => settings.rules,
      grants: (agentId) => grants.activeFor(agentId),
      now,
      homeDir: homedir(),
    }),
    onEnd: (sessionId) => void grants.endSession(sessionId),
  });

  function forward(event: PermissionMediatorEvent): void {
    switch (event.type) {
      case 'permission_partial_vote': {
        const tally = {
          quorum: event.quorum,
          votesNeeded: event.votesNeeded,
          voters: event.voters,
          perOption: { ...event.tally },
        };
        pipeline.pending.update(event.requestId, { tally });
        bus.publish({
          type: 'permission_partial_vote',
          requestId: event.requestId,
          sessionId: event.sessionId,
          tally,
        });
        return;
      }
      case 'permission_forbidden':
        bus.publish({
          type: 'permission_forbidden',
          requestId: event.requestId,
          sessionId: event.sessionId,
          clientId: event.clientId ?? null,
          reason: event.reason,
        });
        return;
      case 'permission_timeout_extended':
        pipeline.pending.update(event.requestId, { expiresAt: event.expiresAtMs });
        bus.publish({
          type: 'permission_extended',
          requestId: event.requestId,
          expiresAt: event.expiresAtMs,
        });
        return;
      case 'permission_resolved':
        // Published by the pipeline once the decision is committed, with its decider.
        return;
    }
  }

  /** Validates what replaceSettings would apply; returns the rules as checked. */
  function checkedSettingsRules(next: Settings): Settings['rules'] {
    validatePolicyConfig(next.policy, () => {});
    const checkedRules = validateRules(next.rules);
    if (!checkedRules.ok) {
      throw new SettingsError(
        settingsPath(options.home),
        checkedRules.errors.map((e) => `rules: ${e.message}`),
      );
    }
    return checkedRules.rules;
  }

  let savedForRestart: Pick<Settings, 'policy' | 'server'> = {
    policy: settings.policy,
    server: settings.server,
  };
  const core: Core = {
    home: options.home,
    settings,
    policy,
    bus,
    store,
    mediator,
    pipeline,
    sessions,
    clients,
    grants,
    links,
    handlers: undefined as unknown as Handlers,
    confirmLocally: options.confirmLocally ?? null,
    now,
    saveSettings(change) {
      if (!options.settings) updateSettingsFile(options.home, change);
    },
    checkSettings(next) {
      checkedSettingsRules(next);
    },
    replaceSettings(next) {
      const rules = checkedSettingsRules(next);
      core.saveSettings((json) => {
        for (const key of Object.keys(json)) delete json[key];
        Object.assign(json, next);
      });
      savedForRestart = { policy: next.policy, server: next.server };
      Object.assign(settings, {
        agents: next.agents,
        rules,
        approvals: next.approvals,
        retention: next.retention,
        desktop: next.desktop,
      });
      store.setRetention(next.retention);
      return core.restartNeeded();
    },
    savedSettings() {
      return { ...settings, ...savedForRestart };
    },
    restartNeeded() {
      return (['policy', 'server'] as const).filter(
        (key) => JSON.stringify(savedForRestart[key]) !== JSON.stringify(settings[key]),
      );
    },
    async close() {
      await sessions.closeAll('shutdown');
      await store.close();
    },
  };
  (core as { handlers: Handlers }).handlers = createHandlers(core);
  return core;
}
