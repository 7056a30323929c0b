// The history window: every decided request, newest first, filtered and searched (the filter lives
// in the address), with the detail of one, rules made from it, export and the audit check.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AgentInfo } from '../../../shared/domain';
import type { HistoryDetail as Detail } from '../../../shared/history';
import type { Rule } from '../../../shared/rules';
import { useApi } from '../api/context';
import { formatCount } from '../components/format';
import { useNow } from '../components/use-now';
import { RuleEditor } from '../rules/RuleEditor';
import { draftOfHistory, draftOfRule, type RuleDraft } from '../rules/rule-draft';
import { AuditCheck } from './AuditCheck';
import { ExportButtons } from './ExportButtons';
import { FilterBar } from './FilterBar';
import {
  EMPTY_FILTER,
  historyHash,
  isFiltered,
  parseHistoryHash,
  toHistoryFilter,
  type FilterState,
  type HistoryLocation,
} from './filters';
import { HistoryDetail } from './HistoryDetail';
import { HistoryList, type HistoryListHandle } from './HistoryList';
import { Suggestions, suggestionKey, type Suggestion } from './Suggestions';
import { useDecisions, useHistoryList } from './use-history';
import { Button } from '../ui/Button';
import './HistoryView.css';

const SEARCH_DELAY_MS = 250;
const SUGGESTIONS_DELAY_MS = 3_000;

interface EditorState {
  title: string;
  initial: RuleDraft;
  origin: string;
}

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function HistoryView() {
  const api = useApi();
  const now = useNow(30_000);
  const [location, setLocation] = useState<HistoryLocation>(() =>
    parseHistoryHash(window.location.hash),
  );
  const [search, setSearch] = useState(location.filter.q);
  const [selectedId, setSelectedId] = useState<string | null>(location.selected);
  const [agents, setAgents] = useState<AgentInfo[]>([]);
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const [editor, setEditor] = useState<EditorState | null>(null);
  const [notice, setNotice] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HistoryListHandle>(null);

  const filter = useMemo(() => toHistoryFilter(location.filter), [location.filter]);
  const list = useHistoryList(api, filter);

  // The address follows the view (replaced, not pushed: a filter is not a page).
  useEffect(() => {
    const next = historyHash(location);
    if (window.location.hash !== next) window.history.replaceState(null, '', next);
  }, [location]);

  // ...and the view follows an address typed, pasted or walked back to.
  useEffect(() => {
    const onHash = () => {
      if (!window.location.hash.startsWith('#/history')) return;
      const next = parseHistoryHash(window.location.hash);
      setLocation(next);
      setSearch(next.filter.q);
      setSelectedId(next.selected);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // Typing searches once it pauses.
  useEffect(() => {
    const timer = setTimeout(
      () =>
        setLocation((l) =>
          l.filter.q === search ? l : { ...l, filter: { ...l.filter, q: search } },
        ),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    api.call('listAgents', {}).then(setAgents, () => undefined);
  }, [api]);

  const loadSuggestions = useCallback(() => {
    api.call('suggestRules', {}).then(setSuggestions, () => undefined);
  }, [api]);
  useEffect(loadSuggestions, [loadSuggestions]);

  // New decisions: the head of the list at once; the suggestions (costly for the core: they read
  // the last 2,000 decisions) at most every few seconds.
  useDecisions(api, list.refreshHead);
  useDecisions(api, loadSuggestions, SUGGESTIONS_DELAY_MS);

  // "/" reaches the search from anywhere in the view.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || editor) return;
      e.preventDefault();
      searchRef.current?.focus();
      searchRef.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editor]);

  const setFilter = (next: FilterState) => setLocation((l) => ({ ...l, filter: next }));
  const open = (requestId: string) => setLocation((l) => ({ ...l, selected: requestId }));

  const makeRule = (detail: Detail) =>
    setEditor({
      title: 'Make this a rule',
      initial: draftOfHistory(detail, Date.now()),
      origin: `From ${detail.agentId}'s request “${detail.title}”. Edit it, check what it would have matched, then save.`,
    });
  const fromSuggestion = (rule: Rule, message: string) =>
    setEditor({
      title: 'Make it a rule',
      initial: { ...draftOfRule(rule), id: '' },
      origin: message,
    });

  const onSaved = (_rules: Rule[], saved: Rule) => {
    setEditor(null);
    setNotice(`Rule ${saved.id} saved: it applies to the next request.`);
    loadSuggestions();
  };

  const shownSuggestions = suggestions.filter((s) => !dismissed.has(suggestionKey(s)));
  const filtered = isFiltered(location.filter);
  const count = list.items.length;
  const summary =
    list.loading && count === 0
      ? 'Loading…'
      : `${formatCount(count)}${list.hasMore ? '+' : ''} decision${count === 1 && !list.hasMore ? '' : 's'}${filtered ? ' match this filter' : ''}`;

  return (
    <div className="hv">
      <header className="hv-head">
        <div className="hv-heading">
          <h2>History</h2>
          <p className="hv-sub" aria-live="polite">
            {summary}
          </p>
        </div>
        <div className="hv-tools">
          <ExportButtons filter={filter} />
          <AuditCheck />
        </div>
      </header>

      {notice && (
        <p className="hv-notice" role="status">
          {notice}
          <Button variant="ghost" onClick={() => setNotice('')}>
            Dismiss
          </Button>
        </p>
      )}

      <Suggestions
        suggestions={shownSuggestions}
        onCreate={fromSuggestion}
        onDismiss={(key) => setDismissed((d) => new Set([...d, key]))}
      />

      <FilterBar
        searchRef={searchRef}
        filter={location.filter}
        search={search}
        agents={agents}
        onSearch={setSearch}
        onChange={setFilter}
        onLeaveSearch={() => listRef.current?.focus()}
      />

      <div className="hv-split">
        <div className="hv-list-pane">
          {list.error && (
            <p className="hv-error" role="alert">
              The history could not be loaded: {list.error}
            </p>
          )}
          {!list.loading && count === 0 && !list.error ? (
            <div className="hv-empty">
              {filtered ? (
                <>
                  <p>No decision matches this filter.</p>
                  <button
                    type="button"
                    onClick={() => {
                      setSearch('');
                      setFilter(EMPTY_FILTER);
                    }}
                  >
                    Clear filters
                  </button>
                </>
              ) : (
                <p>
                  No decisions yet. When an agent asks for permission, what was decided — and by
                  whom — shows up here.
                </p>
              )}
            </div>
          ) : (
            <HistoryList
              ref={listRef}
              items={list.items}
              selectedId={selectedId}
              openId={location.selected}
              hasMore={list.hasMore}
              busy={list.loading || list.loadingMore}
              now={now}
              onSelect={setSelectedId}
              onOpen={open}
              onLoadMore={list.loadMore}
            />
          )}
          <p className="hv-list-foot" aria-live="polite">
            {list.loadingMore
              ? 'Loading more…'
              : list.hasMore
                ? 'Scroll for older decisions'
                : count > 0
                  ? 'That is everything.'
                  : ''}
            {list.arrived > 0 && (
              <span className="hv-arrived"> {list.arrived} new since you opened this view</span>
            )}
          </p>
        </div>
        <section className="hv-detail" aria-label="Decision detail">
          {location.selected ? (
            <HistoryDetail
              key={location.selected}
              requestId={location.selected}
              onMakeRule={makeRule}
              onFilterSession={(sessionId) => setFilter({ ...location.filter, sessionId })}
            />
          ) : (
            <div className="hv-detail-empty">
              <p>
                Select a decision to see the whole request, its diff, every vote and who decided.
              </p>
              <p className="hv-keys">
                <kbd>↑</kbd> <kbd>↓</kbd> select · <kbd>Enter</kbd> open · <kbd>/</kbd> search
              </p>
            </div>
          )}
        </section>
      </div>

      {editor && (
        <RuleEditor
          title={editor.title}
          initial={editor.initial}
          origin={editor.origin}
          onSaved={onSaved}
          onClose={() => setEditor(null)}
        />
      )}
    </div>
  );
}
