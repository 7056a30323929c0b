import { EXPORT_MAX_ROWS, exportMimeType, type HistoryExportInput } from '../../../shared/contract';
import type { HistoryDetail } from '../../../shared/history';
import { BadRequestError, DomainError, NotFoundError } from '../errors';
import { StoreInputError } from '../store';
import { actorOf } from './admin-audit';
import type { Handlers } from './dispatch';
import { requirePaired } from './require-paired';
import type { CommandServices } from './services';

type HistoryCommands = 'history' | 'historyDetail' | 'verifyAudit' | 'undoChanges';

/** The writes Gatehouse performed on the strength of the request: what an edit's undo checks. */
const writtenBy = (detail: HistoryDetail) =>
  detail.writes
    .filter((w) => w.outcome === 'written')
    .map(({ path, sha256 }) => ({ path, sha256 }));

/** Decided requests as the audit keeps them: pages, one in detail, the chain's check, undo. */
export function historyHandlers({
  store,
  effects,
}: Pick<CommandServices, 'store' | 'effects'>): Pick<Handlers, HistoryCommands> {
  const decided = async (requestId: string): Promise<HistoryDetail> => {
    const detail = await store.historyDetail(requestId);
    if (!detail) throw new NotFoundError(`no decided request ${requestId}`);
    return detail;
  };
  return {
    // Encoded on the store's reader thread: over HTTP its bytes are the response's body. A cursor
    // the store cannot read is the caller's mistake, not a failure of Gatehouse's.
    history: (input) =>
      store.historyJson(input).catch((error: unknown) => {
        throw error instanceof StoreInputError ? new BadRequestError(error.message) : error;
      }),

    historyDetail: async (input) => {
      const detail = await decided(input.requestId);
      const undo = await effects.undoStatus(input.requestId, writtenBy(detail));
      return undo ? { ...detail, undo } : detail;
    },

    // Audited like a decision, applied or refused, with who asked.
    undoChanges: async ({ requestId }, caller) => {
      const by = actorOf(caller);
      let detail: HistoryDetail | null = null;
      try {
        requirePaired(caller, 'undo file changes');
        detail = await decided(requestId);
        const { paths, ...outcome } = await effects.undo(requestId, writtenBy(detail));
        store.recordEvent({
          type: 'undo_applied',
          requestId,
          sessionId: detail.sessionId,
          agentId: detail.agentId,
          payload: { ...outcome, paths: paths.slice(0, 200), by },
        });
        await store.flush();
        return outcome;
      } catch (error) {
        if (error instanceof DomainError) {
          store.recordEvent({
            type: 'undo_refused',
            ...(detail ? { requestId, sessionId: detail.sessionId, agentId: detail.agentId } : {}),
            payload: { requestId, reason: error.message, by },
          });
          await store.flush();
        }
        throw error;
      }
    },

    verifyAudit: async () => {
      await store.flush();
      return store.verifyChain();
    },
  };
}

export interface HistoryExportFile {
  /** The name a person sees: `gatehouse-history-<UTC time>.<format>`. */
  filename: string;
  mimeType: string;
  rows: number;
  truncated: boolean;
}

/** The name an export is offered under, stamped with the core's clock. */
export function exportFilename(format: HistoryExportInput['format'], at: number): string {
  const stamp = new Date(at).toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return `gatehouse-history-${stamp}.${format}`;
}

/**
 * The history's export, written by the store's reader thread to a new file at `path` (a fresh,
 * unguessable name the caller removes once done with it). The transports call this, not the command
 * table: the answer is a file. `input` is validated by the caller against HistoryExportInput.
 */
export async function exportHistoryTo(
  { store, now }: Pick<CommandServices, 'store' | 'now'>,
  input: HistoryExportInput,
  path: string,
): Promise<HistoryExportFile> {
  const { format, ...filter } = input;
  const filename = exportFilename(format, now());
  const { rows, truncated } = await store.exportHistoryToFile(
    filter,
    format,
    path,
    EXPORT_MAX_ROWS,
  );
  return { filename, mimeType: exportMimeType(format), rows, truncated };
}
