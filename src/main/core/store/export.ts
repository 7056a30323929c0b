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

/** Yields the export in chunks (a header, then one chunk per page of up to 500 rows). */
export function* exportPages(
  page: (query: HistoryQuery) => HistoryPage,
  filter: HistoryFilter,
  format: ExportFormat,
): Generator<string, void, undefined> {
  if (format === 'csv') yield CSV_COLUMNS.join(',') + '\r\n';
  let cursor: string | undefined;
  do {
    const result = page({ ...filter, limit: PAGE, ...(cursor !== undefined ? { cursor } : {}) });
    if (result.items.length > 0) {
      yield result.items
        .map((item) => (format === 'csv' ? csvRow(item) : JSON.stringify(item) + '\n'))
        .join('');
    }
    cursor = result.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
