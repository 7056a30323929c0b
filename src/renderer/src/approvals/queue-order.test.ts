import { describe, expect, it } from 'vitest';
import type { PendingSummary, PermissionOption } from '../../../shared/domain';
import {
  approveOption,
  defaultOption,
  denyOption,
  EXPIRING_MS,
  hasDanger,
  isExpiring,
  likeKey,
  likeThis,
  orderQueue,
  orderedOptions,
  prefixOf,
} from './queue-order';

const NOW = 1_000_000;

const ONCE: PermissionOption = { optionId: 'once', name: 'Yes', kind: 'allow_once' };
const ALWAYS: PermissionOption = { optionId: 'always', name: 'Always', kind: 'allow_always' };
const REJECT: PermissionOption = { optionId: 'no', name: 'No', kind: 'reject_once' };
const NEVER: PermissionOption = { optionId: 'never', name: 'Never', kind: 'reject_always' };

let counter = 0;
function request(over: Partial<PendingSummary> = {}): PendingSummary {
  counter++;
  return {
    requestId: `0190a000-0000-7000-8000-${String(counter).padStart(12, '0')}`,
    sessionId: 's1',
    agentId: 'claude',
    agentName: 'Claude Code',
    cwd: '/work/project',
    kind: 'execute',
    title: `request ${counter}`,
    command: 'npm test',
    paths: [],
    pathCount: 0,
    warnings: [],
    policy: 'first-responder',
    issuedAt: NOW,
    expiresAt: NOW + 300_000,
    tally: null,
    options: [ONCE, ALWAYS, REJECT],
    truncated: false,
    ...over,
  };
}

const danger = [{ code: 'download_exec', severity: 'danger' }] as const;
const caution = [{ code: 'outside_session', severity: 'caution' }] as const;

describe('orderQueue', () => {
  it('keeps arrival order while nothing is about to expire', () => {
    const items = [request(), request(), request()];
    expect(orderQueue(items, NOW)).toEqual(items);
  });

  it('brings requests about to expire to the front, soonest first, the rest in arrival order', () => {
    const first = request();
    const late = request({ expiresAt: NOW + 20_000 });
    const middle = request();
    const soonest = request({ expiresAt: NOW + 5_000 });
    expect(orderQueue([first, late, middle, soonest], NOW)).toEqual([soonest, late, first, middle]);
  });

  it('returns a new array and leaves the given one as it was', () => {
    const items = [request(), request({ expiresAt: NOW + 1_000 })];
    const copy = [...items];
    const ordered = orderQueue(items, NOW);
    expect(items).toEqual(copy);
    expect(ordered).not.toBe(items);
  });
});

describe('isExpiring', () => {
  it('is true only below the threshold of time left', () => {
    expect(isExpiring({ expiresAt: NOW + EXPIRING_MS - 1 }, NOW)).toBe(true);
    expect(isExpiring({ expiresAt: NOW + EXPIRING_MS }, NOW)).toBe(false);
    expect(isExpiring({ expiresAt: NOW - 1 }, NOW)).toBe(true);
  });
});

describe('hasDanger', () => {
  it('needs one danger warning; cautions alone do not count', () => {
    expect(hasDanger({ warnings: [...danger] })).toBe(true);
    expect(hasDanger({ warnings: [...caution] })).toBe(false);
    expect(hasDanger({ warnings: [] })).toBe(false);
  });
});

describe('prefixOf', () => {
  it('is the program a command runs, past assignments and sudo/env/command/exec', () => {
    expect(prefixOf(request({ command: 'npm run build' }))).toBe('npm');
    expect(prefixOf(request({ command: '  NODE_ENV=test  sudo env exec npx vitest' }))).toBe('npx');
    expect(prefixOf(request({ command: 'A=1 B=2' }))).toBe('A=1');
  });

  it('is the folder of the first path when there is no command', () => {
    expect(prefixOf(request({ command: null, paths: ['/work/src/a.ts', '/other/b.ts'] }))).toBe(
      '/work/src/',
    );
    expect(prefixOf(request({ command: null, paths: ['C:\\work\\a.ts'] }))).toBe('C:\\work\\');
    expect(prefixOf(request({ command: null, paths: ['file.txt'] }))).toBe('file.txt');
  });

  it('is the title when there is neither', () => {
    expect(prefixOf(request({ command: null, paths: [], title: 'Think hard' }))).toBe('Think hard');
  });
});

describe('likeThis', () => {
  it('matches the same agent, kind and program, and the request itself', () => {
    const a = request({ command: 'npm test' });
    const sameProgram = request({ command: 'npm run lint' });
    const otherProgram = request({ command: 'git push' });
    const otherAgent = request({ command: 'npm test', agentId: 'gemini' });
    const otherKind = request({ command: 'npm test', kind: 'fetch' });
    expect(likeThis([a, sameProgram, otherProgram, otherAgent, otherKind], a)).toEqual([
      a,
      sameProgram,
    ]);
  });

  it('matches edits in the same folder, not in a sub-folder', () => {
    const a = request({ kind: 'edit', command: null, paths: ['/p/src/a.ts'] });
    const sibling = request({ kind: 'edit', command: null, paths: ['/p/src/b.ts'] });
    const nested = request({ kind: 'edit', command: null, paths: ['/p/src/deep/c.ts'] });
    expect(likeThis([a, sibling, nested], a)).toEqual([a, sibling]);
  });

  it('is keyed by agent, kind and program only, not by title or arguments', () => {
    expect(likeKey(request({ title: 'one', command: 'npm test' }))).toBe(
      likeKey(request({ title: 'two', command: 'npm ci' })),
    );
    expect(likeKey(request({ command: 'npm test' }))).not.toBe(
      likeKey(request({ command: 'npm test', agentId: 'gemini' })),
    );
  });
});

describe('options', () => {
  it('a batch approve takes allow_once and never an always', () => {
    expect(approveOption({ options: [ALWAYS, ONCE], warnings: [] })).toBe(ONCE);
    expect(approveOption({ options: [ALWAYS, REJECT], warnings: [] })).toBeUndefined();
  });

  it('a batch deny takes reject_once, else reject_always', () => {
    expect(denyOption({ options: [NEVER, REJECT], warnings: [] })).toBe(REJECT);
    expect(denyOption({ options: [ONCE, NEVER], warnings: [] })).toBe(NEVER);
    expect(denyOption({ options: [ONCE, ALWAYS], warnings: [] })).toBeUndefined();
  });

  it('the default is allow_once, or the reject when a danger is flagged', () => {
    expect(defaultOption({ options: [REJECT, ALWAYS, ONCE], warnings: [] })).toBe(ONCE);
    expect(defaultOption({ options: [ONCE, REJECT], warnings: [...danger] })).toBe(REJECT);
    expect(defaultOption({ options: [ONCE, NEVER], warnings: [...danger] })).toBe(NEVER);
    expect(defaultOption({ options: [ONCE, REJECT], warnings: [...caution] })).toBe(ONCE);
  });

  it('the default never falls back to an always', () => {
    expect(defaultOption({ options: [ALWAYS, REJECT], warnings: [] })).toBe(REJECT);
    expect(defaultOption({ options: [ALWAYS], warnings: [] })).toBeUndefined();
    expect(defaultOption({ options: [ALWAYS, ONCE], warnings: [...danger] })).toBe(ONCE);
  });

  it('orders allow before reject and once before always, keeping the agent order within a kind', () => {
    const second: PermissionOption = { optionId: 'once-2', name: 'Yes, here', kind: 'allow_once' };
    expect(
      orderedOptions({ options: [NEVER, REJECT, ALWAYS, ONCE, second], warnings: [] }).map(
        (o) => o.optionId,
      ),
    ).toEqual(['once', 'once-2', 'always', 'no', 'never']);
  });
});
