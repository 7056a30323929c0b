// The core as the layers above it see it (server, control socket, presence, desktop, the
// `gatehouse` command and the entries): they import from here and nowhere else in the core, which
// lint holds. What is not named here is the core's own business.
export { type EditorSessions } from './agents/editor-sessions';
export { hookFingerprint } from './agents/hook-facts';
export { checkHookInstalls, forgetHookInstall, recordHookInstall } from './agents/hook-installs';
export {
  ALL_TOOLS,
  HOOK_EVENT,
  hookCommand,
  isGatehouseHook,
  settingsFileFor,
} from './agents/hook-settings';
export { inspectHookFile } from './agents/hooked-clis';
export { checkJsonShape, describeJsonProblem, type JsonLimits } from './safety/json-guard';
export { behindLifeline } from './agents/lifeline';
export { stopGroup } from './agents/process-group';
export { launchableAgent } from './agents/registry-launch';
export {
  loadRegistrySnapshot,
  readBounded,
  registrySnapshotPath,
  RegistryFileError,
  saveRegistrySnapshot,
} from './agents/registry-snapshot';
export { launchFamily, unguardedByDoor } from './agents/side-doors';
export { type TerminalSessions } from './agents/terminal-sessions';
export { ClientRegistry, PRINTED_PAIRING_TTL_MS, type Caller } from './approvals/clients';
export { type PendingQueue } from './approvals/pending';
export { dispatch, type Handlers, type Dispatched } from './commands/dispatch';
export { exportHistoryTo, exportFilename } from './commands/history-handlers';
export { type CommandServices } from './commands/services';
export {
  confirmOnTerminal,
  describeLaunch,
  type ConfirmLocally,
} from './commands/settings-confirmation';
export { makeSupportBundle } from './commands/support-handlers';
export {
  managedAgent,
  managedSettingsPath,
  protectedEntries,
  readManagedPolicy,
} from './config/managed-settings';
export { SettingsError, loadSettings, settingsPath } from './config/settings-file';
export { createCore, type Core } from './core';
export { startCore, type CoreStarting } from './core-start';
export { ForbiddenError, DomainError, NotFoundError } from './errors';
export { type EventBus } from './events/bus';
export { isInside } from './fs/containment';
export { newId } from './ids';
export { ensurePrivateHome, acquireHomeLock, HomeLockedError, type HomeLock } from './home-lock';
export {
  logFilePath,
  LOG_KEEP,
  LOG_MAX_BYTES,
  logLine,
  logText,
  rotateLogFiles,
} from './log/log-file';
export { logger, installLogSink, type LogSink } from './log/logger';
export { nodeLogSink } from './log/node-sink';
export { InvalidPolicyConfigError } from './mediator';
export { CORE_NODE_FLAGS } from './node-flags';
export { revealInvisibles } from './safety';
export { prepareAgentLaunch, type AgentLaunch } from './sandbox/launch';
export { checkAudit } from './store/audit-check';
export {
  findAuditKey,
  legacyKeyPath,
  parseKey,
  readLegacyKey,
  AuditKeyError,
  type ResolvedAuditKey,
} from './store/audit-key';
export {
  databasePath,
  dataFolderOf,
  formerDatabasePath,
  placeDatabase,
  resolveHome,
} from './store/data-folder';
export { EncodedJson } from './store/encoded-json';
export {
  forgetServerToken,
  loadServerToken,
  newServerToken,
  readServerToken,
  ServerTokenError,
  serverTokenPath,
  writeServerToken,
  type ServerToken,
} from './store/server-token';
export { BUNDLE_AUDIT_ENTRIES, bundleName, bundleZip } from './support/bundle';
