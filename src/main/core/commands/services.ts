import type { StartingPart } from '../../../shared/contract';
import type { ManagedOverride } from '../../../shared/managed-settings';
import type { Settings } from '../../../shared/settings';
import type { ManagedPolicy } from '../config/managed-settings';
import type { SessionManager } from '../agents/sessions';
import type { ClientRegistry } from '../approvals/clients';
import type { GrantBook } from '../approvals/grant-book';
import type { HookWatcher } from '../agents/hook-watch';
import type { ApprovalLinks } from '../approvals/links';
import type { ApprovalPipeline } from '../approvals/pipeline';
import type { EffectsService } from '../effects/service';
import type { EventBus } from '../events/bus';
import type { PolicyConfig } from '../mediator';
import type { Store } from '../store';
import type { ConfirmLocally } from './settings-confirmation';

/** Why settings.json as it is on disk is not in force: the last good settings are. */
export interface SettingsFileProblem {
  file: string;
  problems: string[];
  since: number;
}

/** The settings as a whole: read, checked, replaced and saved. */
export interface SettingsService {
  readonly home: string;
  /** The settings in force; rules and Bypass are changed in place. */
  readonly settings: Settings;
  /** The administrator's managed policy, read at start; null when there is none. */
  readonly managed: ManagedPolicy | null;
  /** The mediator policy, fixed for the life of the process. */
  readonly policy: PolicyConfig;
  /**
   * Persists a change to settings.json when the settings came from it; settings given in code
   * (tests, embedding) change in memory only.
   */
  saveSettings(change: (json: Record<string, unknown>) => void): void;
  /**
   * Throws SettingsError or InvalidPolicyConfigError when `next` cannot replace the settings.
   * `fromFile`: read from settings.json, where what the managed policy forbids is replaced by its
   * values instead of refused.
   */
  checkSettings(next: Settings, options?: { fromFile?: boolean }): void;
  /**
   * Replaces the settings (validated whole, saved). Agents, rules, approvals and desktop apply at
   * once; the mediator policy and the server address are fixed for the life of the process.
   * Returns the keys that wait for a restart. `write: false`: they came from settings.json itself,
   * which is left as the person wrote it, and what the managed policy forbids in them is replaced by
   * its values (each replacement audited).
   */
  replaceSettings(next: Settings, options?: { write?: boolean }): string[];
  /** The user settings the managed policy replaced in the settings in force. */
  overridden(): ManagedOverride[];
  /** Set while settings.json on disk cannot be used (the last good settings stay in force). */
  fileProblem(): SettingsFileProblem | null;
  setFileProblem(problem: SettingsFileProblem | null): void;
  /** Saved changes that wait for a restart. */
  restartNeeded(): string[];
  /** The settings as saved: those in force, with policy and server as they will be after a restart. */
  savedSettings(): Settings;
}

/** What the command handlers work with: the parts of the core, never the core itself. */
export interface CommandServices extends SettingsService {
  /** What is still starting once the core decides (the telemetry export loads after it). */
  starting(): StartingPart[];
  readonly bus: EventBus;
  readonly store: Store;
  readonly pipeline: ApprovalPipeline;
  readonly sessions: SessionManager;
  readonly clients: ClientRegistry;
  readonly grants: GrantBook;
  readonly links: ApprovalLinks;
  /** The hooks `gatehouse hook install` wrote, as watched (and the user's files beside them). */
  readonly hooks: Pick<HookWatcher, 'rows'>;
  /** What allowed requests changed, and undo. */
  readonly effects: Pick<EffectsService, 'undoStatus' | 'undo'>;
  /**
   * How the shell asks the person where Gatehouse runs to confirm an agent's new command sent over
   * HTTP. Without it such a change is refused.
   */
  readonly confirmLocally: ConfirmLocally | null;
  now(): number;
}
