// CSV and JSONL export of a history filter, page by page (keyset), so memory stays flat on any size.
import type {
  HistoryFilter,
  HistoryItem,
  HistoryPage,
  HistoryQuery,
} from '../../../shared/history';
import { deciderRef, verdictOf } from './records';

export type ExportFormat = 'jsonl' | 'csv';

const PAGE = 500;

export const CSV_COLUMNS = [
  'request_id',
  'decided_at',
  'issued_at',
  'agent_id',
  'session_id',
  'tool_kind',
  'title',
  'command',
  'paths',
  'warnings',
  'decision',
  'option_id',
  'option_kind',
  'option_name',
  'decider',
  'decider_detail',
  'reason',
] as const;

/** Spreadsheets run cells that start with these as formulas (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: formula-guarded text, quoted when it holds a comma, quote or line break (RFC 4180). */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

/** Who decided, for a person reading the export: the indexed reference, spelled out where it is terse. */
function deciderDetail(item: HistoryItem): string | null {
  const d = item.decider;
  switch (d.type) {
    case 'person':
      return d.clientId === null ? d.surface : `${d.clientId} (${d.surface})`;
    case 'consensus':
      return d.clientIds.join(' ');
    case 'sandbox':
      return `${d.kind} ${d.target}`;
    default:
      return deciderRef(d);
  }
}

export function csvRow(item: HistoryItem): string {
  const cells: (string | number | null)[] = [
    item.requestId,
    isoTime(item.decidedAt),
    isoTime(item.issuedAt),
    item.agentId,
    item.sessionId,
    item.toolKind,
    item.title,
    item.commandText,
    item.paths.join('\n'),
    item.warningCodes.join(' '),
    verdictOf(item.reply),
    item.reply.outcome === 'selected' ? item.reply.optionId : null,
    item.reply.outcome === 'selected' ? item.reply.optionKind : null,
    item.optionName,
    item.decider.type,
    deciderDetail(item),
    item.reason,
  ];
  return cells.map(csvCell).join(',') + '\r\n';
}

/** One chunk of an export: a header (no rows) or a page of rows. */
export interface ExportChunk {
  text: string;
  rows: number;
}

/**
 * Yields the export in chunks (CSV's header, then one chunk per page of up to 500 rows), at most
 * `maxRows` rows; returns whether the filter matched more than that.
 */
export function* exportChunks(
  page: (query: HistoryQuery) => HistoryPage,
  filter: HistoryFilter,
  format: ExportFormat,
  maxRows = Infinity,
): Generator<ExportChunk, boolean, undefined> {
  if (format === 'csv') yield { text: CSV_COLUMNS.join(',') + '\r\n', rows: 0 };
  let cursor: string | undefined;
  let rows = 0;
  do {
    const limit = Math.min(PAGE, maxRows - rows);
    // The limit reached: one more row says whether the filter matched more.
    const result = page({
      ...filter,
      limit: Math.max(limit, 1),
      ...(cursor !== undefined ? { cursor } : {}),
    });
    if (limit <= 0) return result.items.length > 0;
    if (result.items.length > 0) {
      rows += result.items.length;
      yield {
        text: result.items
          .map((item) => (format === 'csv' ? csvRow(item) : JSON.stringify(item) + '\n'))
          .join(''),
        rows: result.items.length,
      };
    }
    cursor = result.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return false;
}

/** The whole export in chunks of text (see exportChunks). */
export function* exportPages(
  page: (query: HistoryQuery) => HistoryPage,
  filter: HistoryFilter,
  format: ExportFormat,
): Generator<string, void, undefined> {
  for (const chunk of exportChunks(page, filter, format)) yield chunk.text;
}
