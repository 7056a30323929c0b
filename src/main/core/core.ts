import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ManagedOverride } from '../../shared/managed-settings';
import type { Settings } from '../../shared/settings';
import { installedGatehouse } from './agents/hooked-clis';
import { HookWatcher } from './agents/hook-watch';
import { launchAgent } from './agents/launcher';
import { endLeftoverAgents } from './agents/leftover-agents';
import { createReadJudge } from './agents/read-judge';
import { SessionManager } from './agents/sessions';
import { ClientRegistry } from './approvals/clients';
import { GrantBook } from './approvals/grant-book';
import { createCoverage } from './approvals/coverage';
import { gatherDiskFacts } from './approvals/disk-facts';
import { EditorSessions } from './agents/editor-sessions';
import { TerminalSessions } from './agents/terminal-sessions';
import { ApprovalLinks } from './approvals/links';
import { ApprovalPipeline } from './approvals/pipeline';
import type { StageTimes } from './approvals/request-stages';
import { createRulesGate, factsOf } from './approvals/rules-gate';
import type { Handlers } from './commands/dispatch';
import { createHandlers } from './commands/handlers';
import { settingsReload } from './commands/settings-reload';
import type { CommandServices, SettingsFileProblem, SettingsService } from './commands/services';
import type { ConfirmLocally } from './commands/settings-confirmation';
import { auditOverrides, checkAgainstManaged, resolveManaged } from './config/managed-overrides';
import {
  effectiveRules,
  managedAgents,
  managedTelemetry,
  protectedEntries,
  readManagedPolicy,
  type ManagedPolicy,
} from './config/managed-settings';
import {
  loadSettings,
  settingsPath,
  SettingsError,
  updateSettingsFile,
} from './config/settings-file';
import { watchSettingsFile } from './config/settings-watch';
import { createEffects } from './effects/service';
import { EventBus } from './events/bus';
import { logger } from './log/logger';
import { validatePolicyConfig } from './mediator';
import { initShellParser, validateRules } from './rules';
import { createPreviewer } from './preview';
import { removeLeftoverLaunchFolders } from './sandbox/launch-folders';
import { removeLeftoverScratchFolders } from './sandbox/scratch-sweep';
import { openStore, type Store } from './store';
import { KEY_ENV, resolveAuditKey, type ResolvedAuditKey } from './store/audit-key';
import { placeDatabase } from './store/data-folder';
import { startTelemetry } from './telemetry';

const log = logger('core');

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
  /**
   * Where the administrator's managed policy is read (default: the platform's path, or
   * GATEHOUSE_MANAGED_SETTINGS). A missing file is no managed policy.
   */
  managedSettingsPath?: string;
  /** The managed policy as the entry already read it (null: none); read here otherwise. */
  managed?: ManagedPolicy | null;
  /**
   * settings.json as the entry already read it (it chose the server's address from them): used
   * instead of reading the file again, and still watched and saved.
   */
  fileSettings?: Settings;
  /** Told where each permission request's time went before it was shown (the bench). */
  requestStages?: (times: StageTimes) => void;
  /** The user's HOME, whose CLI settings files are listed (default: $HOME, else the OS's). */
  userHome?: string;
}

export interface Core extends CommandServices {
  readonly handlers: Handlers;
  /** Sessions an editor runs through `gatehouse acp`, as the control socket reports them. */
  readonly editorSessions: EditorSessions;
  /** Sessions of terminal CLIs whose hook asks Gatehouse (`gatehouse hook`). */
  readonly terminalSessions: TerminalSessions;
  /** Forgets what an ended session left behind (as a session's end does; for what drives the core directly). */
  endSessionState(sessionId: string): Promise<void>;
  /** Ends every session; pending requests are answered fail-closed and audited before it returns. */
  close(): Promise<void>;
}

/** The composition root: everything that decides, with no Electron and no transport. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const { home } = options;
  const now = options.now ?? Date.now;
  // Read once, at start: the administrator's rules and limits come before anything the user set.
  const managed =
    options.managed !== undefined
      ? options.managed
      : readManagedPolicy(options.managedSettingsPath);
  // What the managed policy forbids is replaced by its values, never a reason not to start.
  const { settings, overrides } = resolveManaged(
    options.settings ?? options.fileSettings ?? loadSettings(home),
    managed,
  );
  const policy = validatePolicyConfig(settings.policy);
  checkRules(home, settings.rules);
  const bypassAllowed = () => managed?.settings.allowBypass !== false;
  const agents = () => managedAgents(settings.agents, managed);
  const bus = new EventBus();
  // Under the data folder's lock (the caller's): a database of an older layout moves first.
  const dbPath = placeDatabase(home);
  const auditKey = options.auditKey ?? resolveAuditKey({ home, dbPath });
  // Whatever the source, the agents spawned later must not inherit a key from the environment.
  delete process.env[KEY_ENV];
  // Shell commands are judged part by part; the parser must be ready before the first request.
  const [store] = await Promise.all([
    openStore({
      path: dbPath,
      now,
      retention: settings.retention,
      durability: settings.history.durability,
      checkpointKey: auditKey.key,
      // What it had not committed is gone, and the decisions waiting on it were denied.
      onThreadDied: (info) => store.recordEvent({ type: 'store_thread_stopped', payload: info }),
    }),
    initShellParser(),
  ]);
  auditOverrides(store, managed, overrides, 'start');
  if (auditKey.movedFrom) {
    store.recordEvent({
      type: 'audit_key_moved',
      payload: { from: auditKey.movedFrom, to: auditKey.location },
    });
  }
  // A previous core on this home that died without ending its agents: they end now, audited.
  for (const { agentId, ...leftover } of endLeftoverAgents(home)) {
    store.recordEvent({ type: 'agent_orphan_ended', agentId, payload: leftover });
  }
  // And the folders their sandboxes and previews made (a session's /tmp, with what its agent left
  // there), in the background: the start does not wait for a large one.
  const leftoverFolders = Promise.all([
    removeLeftoverLaunchFolders(join(home, 'run')),
    removeLeftoverScratchFolders(),
  ]).then(
    ([launches, scratches]) =>
      launches + scratches > 0 &&
      log.info(`removed ${launches + scratches} folders a stopped core's sandboxes left`),
    (error: unknown) => log.warn('the folders a stopped core left could not be removed:', error),
  );
  const clients = new ClientRegistry({
    now,
    store,
    paired: await store.pairedClients(),
    audit: (type, payload) => store.recordEvent({ type, at: now(), payload }),
  });
  const grants = new GrantBook(
    store,
    now,
    () => bus.publish({ type: 'grants_changed' }),
    await store.listGrants(),
  );
  const rulesGate = createRulesGate({
    rules: () => settings.rules,
    managedRules: () => managed?.settings.rules ?? [],
    bypassAllowed,
    protectedEntries: () => protectedEntries(settings.protectedPaths, managed),
    grants,
    now,
  });
  const coverage = createCoverage(rulesGate, now);
  // What allowed requests really changed, kept for undo; sessions are looked up when one is allowed.
  const effects = createEffects({
    home,
    store,
    bus,
    now,
    protectedEntries: () => protectedEntries(settings.protectedPaths, managed),
    session: (sessionId) => {
      let session;
      try {
        session = sessions.get(sessionId);
      } catch {
        return null;
      }
      return {
        cwd: session.cwd,
        own: !session.via,
        observable: !session.via && session.sandbox.profile === 'workspace-write',
      };
    },
  });
  /** What an ended session leaves behind: the actions approved in it and its session grants. */
  const endSessionState = (sessionId: string): Promise<void> => {
    coverage.endSession(sessionId);
    return grants.endSession(sessionId);
  };
  const previewer = createPreviewer({
    gatehouseHome: home,
    // Editor and terminal sessions run outside Gatehouse's sandbox: their folder is the one root.
    sandboxOf: (sessionId) => {
      const session = sessions.find(sessionId);
      return session ? { folder: session.cwd, profile: session.sandboxProfile } : null;
    },
    protectedEntries: () => protectedEntries(settings.protectedPaths, managed),
    // The agents' launcher starts each layer too: its exec never holds the core's thread.
    spawnLayer: launchAgent,
  });
  // The runs still going when Gatehouse closes: their requests end first, which stops them, and
  // the store stays open until they have ended and their end is audited.
  const previewRuns = new Set<Promise<unknown>>();
  const pipeline = new ApprovalPipeline({
    policy,
    votersForSession: () => clients.voterIds(),
    store,
    bus,
    now,
    timeoutMs: () => settings.approvals.timeoutSeconds * 1000,
    decideBefore: rulesGate,
    disk: gatherDiskFacts,
    allowed: (approval, led) => {
      coverage.allowed(approval, led);
      return effects.allowed(approval);
    },
    preview: {
      run: (input) => {
        const run = previewer(input);
        previewRuns.add(run);
        const done = () => previewRuns.delete(run);
        run.then(done, done);
        return run;
      },
      // Read at each request: a settings change applies to the next command.
      settingsFor: (agentId) => ({
        enabled: settings.preview.enabled && agents()[agentId]?.preview !== false,
        timeoutMs: settings.preview.timeoutSeconds * 1000,
      }),
    },
    stages: options.requestStages,
    remember: async (approval, session, choice) => {
      const result = await grants.remember(factsOf(approval, session.cwd), choice);
      return result.ok ? `remembered as grant ${result.grant.id} (${choice.scope})` : result.error;
    },
  });
  const links = new ApprovalLinks(
    now,
    (requestId) => pipeline.pending.get(requestId)?.expiresAt ?? null,
  );
  bus.subscribe((event) => {
    if (event.type === 'permission_resolved') links.forget(event.requestId);
  });
  // What every kind of session is given: the agents, the policy, the pipeline, the store, the bus.
  const sessionDeps = { agents, defaultPolicy: () => policy.policy, pipeline, store, bus, now };
  const sessions = new SessionManager({
    ...sessionDeps,
    home,
    cancelGraceMs: () => settings.approvals.cancelGraceSeconds * 1000,
    judgeRead: createReadJudge({
      rules: () => effectiveRules(managed, settings.rules),
      grants: (agentId) => grants.activeFor(agentId),
      now,
      homeDir: homedir(),
    }),
    coverage,
    protectedEntries: () => protectedEntries(settings.protectedPaths, managed),
    onEnd: (sessionId) => void endSessionState(sessionId),
  });

  const editorSessions = new EditorSessions({
    ...sessionDeps,
    sessions,
    coverage,
    askEditor: () => settings.proxy.askEditor,
  });

  const terminalSessions = new TerminalSessions({ ...sessionDeps, sessions });

  // Reads the committed audit on its own timers: nothing above waits for it, nor for its loading.
  let telemetryLoading = managedTelemetry(settings.telemetry, managed).otlp !== undefined;
  const telemetry = startTelemetry({
    settings: managedTelemetry(settings.telemetry, managed),
    store,
    pending: () => pipeline.pending.size,
  }).catch((error: unknown) => {
    log.error('the telemetry export could not start:', error);
    store.recordEvent({ type: 'telemetry_unavailable', payload: { error: String(error) } });
    return null;
  });
  void telemetry.finally(() => (telemetryLoading = false));

  // The hooks `gatehouse hook install` wrote: checked now (a removal while Gatehouse was down is
  // audited here), then watched.
  const hooks = await HookWatcher.start({
    home,
    userHome: options.userHome ?? (process.env['HOME'] || homedir()),
    store,
    bus,
    now,
    entry: () => installedGatehouse(),
  });

  const services: CommandServices = {
    ...settingsService({
      home,
      settings,
      overrides,
      managed,
      policy,
      store,
      fromFile: !options.settings,
    }),
    bus,
    store,
    pipeline,
    sessions,
    clients,
    grants,
    links,
    hooks,
    effects,
    confirmLocally: options.confirmLocally ?? null,
    now,
    starting: () => (telemetryLoading ? ['telemetry'] : []),
  };
  // settings.json edited while Gatehouse runs is read again; given settings have no file to watch.
  const settingsWatch = options.settings
    ? null
    : watchSettingsFile({ home, onRead: settingsReload(services) });
  return {
    ...services,
    editorSessions,
    terminalSessions,
    endSessionState,
    handlers: createHandlers(services),
    async close() {
      settingsWatch?.close();
      hooks.close();
      await sessions.closeAll('shutdown');
      await Promise.allSettled(previewRuns);
      await leftoverFolders;
      // The comparisons the sessions' ends started are audited before the store closes.
      await effects.settled();
      effects.close();
      // The last decisions are committed before the export sends what is left.
      await store.flush();
      await (await telemetry)?.close();
      await store.close();
    },
  };
}

/** The rules as checked, or a SettingsError naming every problem. */
function checkRules(home: string, rules: Settings['rules']): Settings['rules'] {
  const checked = validateRules(rules);
  if (!checked.ok) {
    throw new SettingsError(
      settingsPath(home),
      checked.errors.map((e) => `rules: ${e.message}`),
    );
  }
  return checked.rules;
}

/**
 * The settings in force and as saved. `fromFile`: changes are written to settings.json; settings
 * given in code (tests, embedding) change in memory only.
 */
function settingsService(options: {
  home: string;
  settings: Settings;
  overrides: ManagedOverride[];
  managed: ManagedPolicy | null;
  policy: SettingsService['policy'];
  store: Pick<Store, 'setRetention' | 'recordEvent'>;
  fromFile: boolean;
}): SettingsService {
  const { home, settings, managed, policy, store, fromFile } = options;
  let overrides = options.overrides;
  /**
   * Validates what replaceSettings would apply; returns the rules as checked. What the managed
   * policy forbids is refused when a command sends it and replaced when settings.json says it.
   */
  const checkedRules = (next: Settings, fromFile = false): Settings['rules'] => {
    if (!fromFile) checkAgainstManaged(next, managed, settingsPath(home));
    const resolved = resolveManaged(next, managed).settings;
    validatePolicyConfig(resolved.policy, () => {});
    return checkRules(home, resolved.rules);
  };
  let fileProblem: SettingsFileProblem | null = null;
  const saveSettings = (change: (json: Record<string, unknown>) => void): void => {
    // Saving over a file the person is still fixing would throw their edit away.
    if (fromFile && fileProblem) {
      throw new SettingsError(fileProblem.file, [
        'it does not read as valid settings; fix it first (the last good settings stay in force):',
        ...fileProblem.problems,
      ]);
    }
    if (fromFile) updateSettingsFile(home, change);
  };
  // The mediator policy, the server address, the telemetry export and the history's durability
  // apply at the next start: kept as saved until then.
  const AT_START = ['policy', 'server', 'telemetry', 'history'] as const;
  const atStart = (from: Settings): Pick<Settings, (typeof AT_START)[number]> => ({
    policy: from.policy,
    server: from.server,
    telemetry: from.telemetry,
    history: from.history,
  });
  let savedForRestart = atStart(settings);
  const restartNeeded = (): string[] =>
    AT_START.filter(
      (key) => JSON.stringify(savedForRestart[key]) !== JSON.stringify(settings[key]),
    );
  return {
    home,
    settings,
    managed,
    policy,
    saveSettings,
    checkSettings: (next, { fromFile = false } = {}) => void checkedRules(next, fromFile),
    replaceSettings(sent, { write = true } = {}) {
      const rules = checkedRules(sent, !write);
      const resolved = resolveManaged(sent, managed);
      const next = resolved.settings;
      if (write) {
        saveSettings((json) => {
          for (const key of Object.keys(json)) delete json[key];
          Object.assign(json, next);
        });
      }
      savedForRestart = atStart(next);
      // Everything but what waits for a restart is in force at once (proxy, hooks, registry too).
      const {
        policy: _policy,
        server: _server,
        telemetry: _telemetry,
        history: _history,
        ...live
      } = next;
      Object.assign(settings, { ...live, rules });
      store.setRetention(next.retention);
      overrides = resolved.overrides;
      auditOverrides(store, managed, overrides, 'reload');
      return restartNeeded();
    },
    overridden: () => overrides,
    restartNeeded,
    savedSettings: () => ({ ...settings, ...savedForRestart }),
    fileProblem: () => fileProblem,
    setFileProblem: (problem) => {
      fileProblem = problem;
    },
  };
}
