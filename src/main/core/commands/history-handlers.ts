import { EXPORT_MAX_ROWS, exportMimeType, type HistoryExportInput } from '../../../shared/contract';
import { NotFoundError } from '../errors';
import type { Handlers } from './dispatch';
import type { CommandServices } from './services';

type HistoryCommands = 'history' | 'historyDetail' | 'verifyAudit';

/** Decided requests as the audit keeps them: pages, one in detail, the chain's check. */
export function historyHandlers({
  store,
}: Pick<CommandServices, 'store'>): Pick<Handlers, HistoryCommands> {
  return {
    history: (input) => store.history(input),

    historyDetail: async (input) => {
      const detail = await store.historyDetail(input.requestId);
      if (!detail) throw new NotFoundError(`no decided request ${input.requestId}`);
      return detail;
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
