// The commands over the audit: decided requests page by page and one in detail, the chain's check,
// and the support bundle made from them; and the history's export, which is no command of the table:
// its answer is a file (a streamed download over HTTP, a file the person chose on the desktop).
import { z } from 'zod';
import { command, Empty, RequestRef } from './contract-command';
import { UndoOutcome } from './effects';
import { AuditVerdict, HistoryDetail, HistoryFilter, HistoryPage, HistoryQuery } from './history';

export const historyCommands = {
  history: command({
    input: HistoryQuery,
    output: HistoryPage,
    http: { method: 'GET', path: '/api/history' },
    summary: 'Decided requests, newest first, filtered, cursor-paginated.',
  }),
  verifyAudit: command({
    input: Empty,
    output: AuditVerdict,
    http: { method: 'POST', path: '/api/audit/verify' },
    summary: 'Check the hash chain of the audit; names the first broken row.',
  }),
  supportBundle: command({
    input: Empty,
    output: z.object({
      filename: z.string(),
      mimeType: z.literal('application/zip'),
      contentBase64: z.string(),
    }),
    http: { method: 'POST', path: '/api/support-bundle' },
    summary:
      'A zip for a bug report: logs, settings with secrets redacted, versions, audit metadata, the chain verdict.',
  }),
  historyDetail: command({
    input: RequestRef,
    output: HistoryDetail,
    http: { method: 'GET', path: '/api/history/:requestId' },
    summary: 'One request with its votes, decision and diff.',
  }),
  undoChanges: command({
    input: RequestRef,
    output: UndoOutcome,
    http: { method: 'POST', path: '/api/history/:requestId/undo' },
    summary:
      'Put back the files an allowed edit or command changed (paired clients only); refused, with the reason, when any of them changed since.',
  }),
} as const;

/** What an export is asked for: the history's filter and a format. */
export const HistoryExportInput = HistoryFilter.extend({
  format: z.enum(['jsonl', 'csv']),
}).strict();
export type HistoryExportInput = z.infer<typeof HistoryExportInput>;

/**
 * `GET /api/history/export?<filter>&format=`: the file itself (text/csv or application/x-ndjson,
 * `Content-Disposition: attachment`), its rows and truncation in the headers below. Errors are JSON
 * as on every route.
 */
export const HISTORY_EXPORT_PATH = '/api/history/export';
export const EXPORT_ROWS_HEADER = 'x-gatehouse-export-rows';
/** `true` when the filter matched more than an export holds (EXPORT_MAX_ROWS); narrow it. */
export const EXPORT_TRUNCATED_HEADER = 'x-gatehouse-export-truncated';

/** An export saved: the file's name, its rows, and whether the filter matched more. */
export const HistoryExportOutcome = z.object({
  filename: z.string().min(1).max(255),
  rows: z.number().int().min(0),
  truncated: z.boolean(),
});
export type HistoryExportOutcome = z.infer<typeof HistoryExportOutcome>;

export const exportMimeType = (format: HistoryExportInput['format']) =>
  format === 'csv' ? 'text/csv' : 'application/x-ndjson';
