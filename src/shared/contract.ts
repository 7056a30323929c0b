// The one contract. Every command (request → response) and every event is declared once, as zod
// schemas: the command table (contract-commands.ts), votes (contract-votes.ts) and events
// (contract-events.ts). The HTTP routes, the ipcMain handlers, the preload bridge and the renderer's
// clients are all derived from it and validate against it at run time.
import { z } from 'zod';
import type { CommandInput, CommandName, CommandOutput } from './contract-commands';
import type { HistoryExportInput, HistoryExportOutcome } from './contract-commands-history';
import type { GatehouseEvent } from './contract-events';
import type { Surface } from './domain';

export * from './contract-commands';
export * from './contract-commands-history';
export * from './contract-events';
export * from './contract-votes';

/** Errors cross every boundary as data so their name survives the hop (IPC, HTTP). */
export const ErrorBody = z.object({
  error: z.object({ name: z.string(), message: z.string(), details: z.unknown().optional() }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export type Result<T> = { ok: true; result: T } | { ok: false; error: ErrorBody['error'] };

/** The API the renderer talks to; implemented by the preload bridge and by the HTTP + SSE client. */
export interface GatehouseApi {
  call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>>;
  /** Subscribe to every event; returns an unsubscribe function. */
  subscribe(listener: (event: GatehouseEvent) => void): () => void;
  /** Tells whether events are flowing (the browser's stream can drop and come back). */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /** Which surface this client votes from. */
  readonly surface: z.infer<typeof Surface>;
  /** Whether this client's votes are a person's (the desktop, or a browser a person paired). */
  readonly paired: boolean;
  /** The desktop's folder picker: the chosen folder, or null when cancelled. Absent in a browser. */
  chooseFolder?: () => Promise<string | null>;
  /**
   * The address another device opens to pair with a code, on `base` (the server's network address)
   * when given; null where there is none to give.
   */
  pairingUrl(secret: string, base?: string): string | null;
  /**
   * Saves the history's export as a file: a download in a browser, the file the person chose in the
   * desktop's save dialog (null when cancelled).
   */
  exportHistory(input: HistoryExportInput): Promise<HistoryExportOutcome | null>;
  /**
   * Opens a waiting question's link in the system browser, on the person's click (the desktop);
   * absent in a browser, where the page shows a plain link instead.
   */
  openQuestionLink?: (requestId: string) => Promise<void>;
}

/** What the preload exposes on `window.gatehouse`: one named method per command, and events. */
export type GatehouseBridge = {
  [N in CommandName]: (input: CommandInput<N>) => Promise<Result<CommandOutput<N>>>;
} & DesktopExtras & {
    onEvent(listener: (event: GatehouseEvent) => void): () => void;
  };

/**
 * What only the desktop offers, beside the contract: its native folder picker (the chosen folder,
 * or null when cancelled) and the history's export saved where the person chooses (null when
 * cancelled). Absent in a browser.
 */
export interface DesktopExtras {
  chooseFolder?: () => Promise<Result<string | null>>;
  saveHistoryExport?: (input: HistoryExportInput) => Promise<Result<HistoryExportOutcome | null>>;
  /** Opens the link of a waiting question in the system browser (the core holds the address). */
  openQuestionLink?: (requestId: string) => Promise<Result<{ ok: true }>>;
}

/** IPC channel names, derived from the command table. */
export const ipcChannel = (name: CommandName) => `gatehouse:${name}` as const;
export const IPC_EVENT_CHANNEL = 'gatehouse:event';
export const DESKTOP_CHOOSE_FOLDER_CHANNEL = 'gatehouse:desktop:chooseFolder';
export const DESKTOP_SAVE_EXPORT_CHANNEL = 'gatehouse:desktop:saveHistoryExport';
export const DESKTOP_OPEN_QUESTION_LINK_CHANNEL = 'gatehouse:desktop:openQuestionLink';

/** Headers a client sends to identify itself and prove it. */
export const CLIENT_ID_HEADER = 'x-gatehouse-client-id';
export const CLIENT_TOKEN_HEADER = 'x-gatehouse-client-token';
/** `Authorization: Link <token>`: a single-use approval link in place of the bearer token. */
export const LINK_AUTH_SCHEME = 'Link';
