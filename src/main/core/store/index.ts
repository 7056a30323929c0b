// The history store: SQLite audit of every request, vote and decision, with a tamper-evident chain.
export { openStore, type OpenStoreOptions, type Store } from './store';
export { openStoreEngine, type StoreEngine, type StoreOptions } from './engine';
export type { VerifyResult, CheckpointInfo } from './audit-log';
export type { FeedDecision, FeedEntry, FeedPage, FeedRequest, FeedVote } from './audit-feed';
export type { Durability } from './database';
export {
  DatabaseTooNewError,
  RecordRejectedError,
  StoreClosedError,
  StoreInputError,
  StoreWriteError,
} from './errors';
export { EncodedJson } from './encoded-json';
export { csvCell, type ExportFormat } from './export';
export type { GrantQuery, GrantRecord } from './grant-records';
export { MIGRATIONS, SCHEMA_VERSION } from './migrations';
export { databasePath, defaultHome, placeDatabase, resolveHome } from './data-folder';
export { AuditEventInput, DecisionMeta, GrantInput, RequestMeta } from './records';
export type { RecordOptions } from './records';
export type { AgentEntry, EventQuery, EventRecord, SessionEntry } from './reader';
export type { PruneResult, RetentionPolicy } from './retention';
export type { SessionAbilities, SessionRecord, SessionRecordState } from './session-records';
export type { WriterStats } from './write-ops';
