import { describe, expect, it } from 'vitest';
import {
  EMPTY_FILTER,
  historyHash,
  isFiltered,
  parseHistoryHash,
  toHistoryFilter,
  type FilterState,
} from './filters';

const FULL: FilterState = {
  agentId: 'claude',
  sessionId: 'session-1',
  toolKind: 'execute',
  decision: 'deny',
  decider: 'rule',
  from: '2025-03-01',
  to: '2025-03-31',
  hasWarnings: true,
  q: 'npm test & more',
};

describe('history address', () => {
  it('round-trips every filter field and the open request', () => {
    const location = { filter: FULL, selected: 'request-7' };
    expect(parseHistoryHash(historyHash(location))).toEqual(location);
  });

  it('is the bare view when nothing is set', () => {
    expect(historyHash({ filter: EMPTY_FILTER, selected: null })).toBe('#/history');
    expect(parseHistoryHash('#/history')).toEqual({ filter: EMPTY_FILTER, selected: null });
  });

  it('leaves empty values out of the address', () => {
    const hash = historyHash({ filter: { ...EMPTY_FILTER, decision: 'allow' }, selected: null });
    expect(hash).toBe('#/history?decision=allow');
  });

  it('drops values that are not valid instead of sending them', () => {
    const { filter } = parseHistoryHash(
      '#/history?kind=nuke&decision=maybe&decider=someone&from=yesterday&to=2025-13&warnings=yes',
    );
    expect(filter).toEqual(EMPTY_FILTER);
  });

  it('keeps known values of each closed set', () => {
    const { filter } = parseHistoryHash('#/history?kind=edit&decision=cancelled&decider=timeout');
    expect(filter).toMatchObject({ toolKind: 'edit', decision: 'cancelled', decider: 'timeout' });
  });

  it('bounds free text: ids to 200 characters, the search to 500', () => {
    const long = 'x'.repeat(1000);
    const { filter } = parseHistoryHash(`#/history?agent=${long}&session=${long}&q=${long}`);
    expect(filter.agentId).toHaveLength(200);
    expect(filter.sessionId).toHaveLength(200);
    expect(filter.q).toHaveLength(500);
  });
});

describe('toHistoryFilter', () => {
  it('asks for nothing when nothing is set', () => {
    expect(toHistoryFilter(EMPTY_FILTER)).toEqual({});
  });

  it('turns dates into the bounds of local days, the end day included whole', () => {
    const out = toHistoryFilter({ ...EMPTY_FILTER, from: '2025-03-01', to: '2025-03-31' });
    expect(out.from).toBe(new Date(2025, 2, 1).getTime());
    expect(out.to).toBe(new Date(2025, 3, 1).getTime() - 1);
  });

  it('passes the other fields on, the search trimmed', () => {
    expect(toHistoryFilter({ ...FULL, from: '', to: '', q: '  npm  ' })).toEqual({
      agentId: 'claude',
      sessionId: 'session-1',
      toolKind: 'execute',
      decision: 'deny',
      decider: 'rule',
      hasWarnings: true,
      q: 'npm',
    });
  });

  it('sends no search made only of spaces', () => {
    expect(toHistoryFilter({ ...EMPTY_FILTER, q: '   ' })).toEqual({});
  });
});

describe('isFiltered', () => {
  it('is false for the empty filter, also with a search of spaces', () => {
    expect(isFiltered(EMPTY_FILTER)).toBe(false);
    expect(isFiltered({ ...EMPTY_FILTER, q: '  ' })).toBe(false);
  });

  it('is true as soon as one field is set', () => {
    expect(isFiltered({ ...EMPTY_FILTER, hasWarnings: true })).toBe(true);
    expect(isFiltered({ ...EMPTY_FILTER, to: '2025-01-01' })).toBe(true);
    expect(isFiltered({ ...EMPTY_FILTER, q: 'rm' })).toBe(true);
  });
});
