import { EXPORT_MAX_ROWS } from '../../../shared/contract';
import { NotFoundError } from '../errors';
import type { Handlers } from './dispatch';
import type { CommandServices } from './services';

type HistoryCommands = 'history' | 'historyDetail' | 'exportHistory' | 'verifyAudit';

/** Decided requests as the audit keeps them: pages, one in detail, an export, the chain's check. */
export function historyHandlers({
  store,
  now,
}: Pick<CommandServices, 'store' | 'now'>): Pick<Handlers, HistoryCommands> {
  return {
    history: (input) => store.history(input),

    historyDetail: async (input) => {
      const detail = await store.historyDetail(input.requestId);
      if (!detail) throw new NotFoundError(`no decided request ${input.requestId}`);
      return detail;
    },

    exportHistory: async (input) => {
      const { format, ...filter } = input;
      // One chunk per page of 500 rows (CSV adds a header chunk first).
      const maxChunks = EXPORT_MAX_ROWS / 500 + (format === 'csv' ? 1 : 0);
      const { content, truncated } = await store.exportHistory(filter, format, maxChunks);
      const stamp = new Date(now()).toISOString().slice(0, 19).replace(/[:T]/g, '-');
      return {
        filename: `gatehouse-history-${stamp}.${format}`,
        mimeType: format === 'csv' ? 'text/csv' : 'application/x-ndjson',
        content,
        truncated,
      };
    },

    verifyAudit: async () => {
      await store.flush();
      return store.verifyChain();
    },
  };
}
