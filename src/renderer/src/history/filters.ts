// The history view's filter, as it lives in the address (`#/history?decision=deny&q=npm`), so a
// view can be linked, reloaded and walked back to; and as the core's HistoryFilter.
import { DeciderType, ToolKind } from '../../../shared/domain';
import type { HistoryFilter } from '../../../shared/history';

export type DecisionFilter = '' | 'allow' | 'deny' | 'cancelled';

export interface FilterState {
  agentId: string;
  sessionId: string;
  toolKind: ToolKind | '';
  decision: DecisionFilter;
  decider: DeciderType | '';
  /** Local dates, YYYY-MM-DD, both ends included. */
  from: string;
  to: string;
  hasWarnings: boolean;
  q: string;
}

export const EMPTY_FILTER: FilterState = {
  agentId: '',
  sessionId: '',
  toolKind: '',
  decision: '',
  decider: '',
  from: '',
  to: '',
  hasWarnings: false,
  q: '',
};

export interface HistoryLocation {
  filter: FilterState;
  /** The request whose detail is open. */
  selected: string | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECISIONS = ['allow', 'deny', 'cancelled'] as const;

/** Reads `#/history?…`; values that are not valid are dropped, never sent. */
export function parseHistoryHash(hash: string): HistoryLocation {
  const at = hash.indexOf('?');
  const params = new URLSearchParams(at >= 0 ? hash.slice(at + 1) : '');
  const get = (key: string) => params.get(key) ?? '';
  const kind = ToolKind.safeParse(get('kind'));
  const decider = DeciderType.safeParse(get('decider'));
  const decision = get('decision');
  return {
    filter: {
      agentId: get('agent').slice(0, 200),
      sessionId: get('session').slice(0, 200),
      toolKind: kind.success ? kind.data : '',
      decision: (DECISIONS as readonly string[]).includes(decision)
        ? (decision as DecisionFilter)
        : '',
      decider: decider.success ? decider.data : '',
      from: DATE.test(get('from')) ? get('from') : '',
      to: DATE.test(get('to')) ? get('to') : '',
      hasWarnings: get('warnings') === '1',
      q: get('q').slice(0, 500),
    },
    selected: get('id') || null,
  };
}

/** The address of a history view; empty values are left out. */
export function historyHash({ filter, selected }: HistoryLocation): string {
  const params = new URLSearchParams();
  const put = (key: string, value: string) => {
    if (value) params.set(key, value);
  };
  put('agent', filter.agentId);
  put('session', filter.sessionId);
  put('kind', filter.toolKind);
  put('decision', filter.decision);
  put('decider', filter.decider);
  put('from', filter.from);
  put('to', filter.to);
  if (filter.hasWarnings) params.set('warnings', '1');
  put('q', filter.q);
  put('id', selected ?? '');
  const query = params.toString();
  return query ? `#/history?${query}` : '#/history';
}

/** Local midnight of a YYYY-MM-DD date, plus `days`. */
function localDay(date: string, days = 0): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + days).getTime();
}

/** What the core is asked: dates become the local day's bounds (`to` includes its whole day). */
export function toHistoryFilter(filter: FilterState): HistoryFilter {
  const out: HistoryFilter = {};
  if (filter.agentId) out.agentId = filter.agentId;
  if (filter.sessionId) out.sessionId = filter.sessionId;
  if (filter.toolKind) out.toolKind = filter.toolKind;
  if (filter.decision) out.decision = filter.decision;
  if (filter.decider) out.decider = filter.decider;
  if (filter.from) out.from = localDay(filter.from);
  if (filter.to) out.to = localDay(filter.to, 1) - 1;
  if (filter.hasWarnings) out.hasWarnings = true;
  const q = filter.q.trim();
  if (q) out.q = q;
  return out;
}

export const isFiltered = (filter: FilterState) =>
  JSON.stringify({ ...filter, q: filter.q.trim() }) !== JSON.stringify(EMPTY_FILTER);
