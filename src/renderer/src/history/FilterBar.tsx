// Search and filters of the history view. Each control has a visible label; the search field is
// reached with "/".
import type { Ref } from 'react';
import { DeciderType, type AgentInfo } from '../../../shared/domain';
import { TOOL_KINDS } from '../../../shared/rules';
import { EMPTY_FILTER, isFiltered, type DecisionFilter, type FilterState } from './filters';
import { DECIDER_LABEL } from './words';
import './FilterBar.css';

interface Props {
  filter: FilterState;
  search: string;
  agents: AgentInfo[];
  onSearch(text: string): void;
  onChange(filter: FilterState): void;
  /** Escape in the search field: back to the list. */
  onLeaveSearch(): void;
  searchRef?: Ref<HTMLInputElement>;
}

export function FilterBar({
  filter,
  search,
  agents,
  onSearch,
  onChange,
  onLeaveSearch,
  searchRef,
}: Props) {
  const set = <K extends keyof FilterState>(key: K, value: FilterState[K]) =>
    onChange({ ...filter, [key]: value });
  const agentIds = agents.map((a) => a.id);
  if (filter.agentId && !agentIds.includes(filter.agentId)) agentIds.push(filter.agentId);
  const filtered = isFiltered({ ...filter, q: search });

  return (
    <div className="hv-filters" role="search" aria-label="Filter the history">
      <label className="hv-search">
        <span className="visually-hidden">Search titles, commands and paths</span>
        <svg
          className="hv-search-icon"
          width="16"
          height="16"
          viewBox="0 0 16 16"
          aria-hidden="true"
          focusable="false"
        >
          <circle cx="7" cy="7" r="4.75" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path
            d="m10.5 10.5 3.5 3.5"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinecap="round"
          />
        </svg>
        <input
          ref={searchRef}
          type="search"
          value={search}
          placeholder="Search titles, commands, paths"
          aria-keyshortcuts="/"
          spellCheck={false}
          onChange={(e) => onSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !search) onLeaveSearch();
            if (e.key === 'Enter' || e.key === 'ArrowDown') {
              e.preventDefault();
              onLeaveSearch();
            }
          }}
        />
        <kbd aria-hidden="true">/</kbd>
      </label>

      <label className="hv-filter">
        <span>Agent</span>
        <select value={filter.agentId} onChange={(e) => set('agentId', e.target.value)}>
          <option value="">All agents</option>
          {agentIds.map((id) => (
            <option key={id} value={id}>
              {agents.find((a) => a.id === id)?.name ?? id}
            </option>
          ))}
        </select>
      </label>
      <label className="hv-filter">
        <span>Kind</span>
        <select
          value={filter.toolKind}
          onChange={(e) => set('toolKind', e.target.value as FilterState['toolKind'])}
        >
          <option value="">All kinds</option>
          {TOOL_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label className="hv-filter">
        <span>Decision</span>
        <select
          value={filter.decision}
          onChange={(e) => set('decision', e.target.value as DecisionFilter)}
        >
          <option value="">Any decision</option>
          <option value="allow">Allowed</option>
          <option value="deny">Denied</option>
          <option value="cancelled">Cancelled</option>
        </select>
      </label>
      <label className="hv-filter">
        <span>Decided by</span>
        <select
          value={filter.decider}
          onChange={(e) => set('decider', e.target.value as FilterState['decider'])}
        >
          <option value="">Anyone or anything</option>
          {DeciderType.options.map((d) => (
            <option key={d} value={d}>
              {DECIDER_LABEL[d]}
            </option>
          ))}
        </select>
      </label>
      <label className="hv-filter">
        <span>Session</span>
        <input
          className="hv-session"
          value={filter.sessionId}
          onChange={(e) => set('sessionId', e.target.value.trim())}
          placeholder="any"
          spellCheck={false}
          autoComplete="off"
        />
      </label>
      <label className="hv-filter">
        <span>From</span>
        <input
          type="date"
          value={filter.from}
          max={filter.to || undefined}
          onChange={(e) => set('from', e.target.value)}
        />
      </label>
      <label className="hv-filter">
        <span>To</span>
        <input
          type="date"
          value={filter.to}
          min={filter.from || undefined}
          onChange={(e) => set('to', e.target.value)}
        />
      </label>
      <label className="hv-check">
        <input
          type="checkbox"
          checked={filter.hasWarnings}
          onChange={(e) => set('hasWarnings', e.target.checked)}
        />
        <span>With warnings</span>
      </label>
      {filtered && (
        <button
          type="button"
          className="hv-clear"
          onClick={() => {
            onSearch('');
            onChange(EMPTY_FILTER);
          }}
        >
          Clear filters
        </button>
      )}
    </div>
  );
}
