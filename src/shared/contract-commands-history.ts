// The commands over the audit: decided requests page by page and one in detail, an export, the
// chain's check, and the support bundle made from them.
import { z } from 'zod';
import { command, Empty, RequestRef } from './contract-command';
import { AuditVerdict, HistoryDetail, HistoryFilter, HistoryPage, HistoryQuery } from './history';

export const historyCommands = {
  history: command({
    input: HistoryQuery,
    output: HistoryPage,
    http: { method: 'GET', path: '/api/history' },
    summary: 'Decided requests, newest first, filtered, cursor-paginated.',
  }),
  exportHistory: command({
    input: HistoryFilter.extend({ format: z.enum(['jsonl', 'csv']) }).strict(),
    output: z.object({
      filename: z.string(),
      mimeType: z.string(),
      content: z.string(),
      /** True when the filter matched more than an export holds (EXPORT_MAX_ROWS); narrow it. */
      truncated: z.boolean(),
    }),
    http: { method: 'GET', path: '/api/history/export' },
    summary: 'The current filter of the history as JSONL or CSV.',
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
} as const;
