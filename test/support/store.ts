// Builders and temp folders shared by the store tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterEach } from 'vitest';
import type {
  Decision,
  Decider,
  PendingApproval,
  PreparedDiff,
  ToolKind,
} from '../../src/shared/domain';
import { openStoreEngine, type StoreEngine, type StoreOptions } from '../../src/main/core/store';
import { resolveAuditKey } from '../../src/main/core/store/audit-key';

export const OPTIONS = [
  { optionId: 'allow', name: 'Allow once', kind: 'allow_once' as const },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' as const },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once' as const },
];

export interface TempDir {
  dir: string;
  dbPath: string;
  cleanup(): void;
}

export function tempDir(): TempDir {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-store-'));
  return {
    dir,
    dbPath: join(dir, 'gatehouse.db'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * For a test file whose tests open their own store: the temp folders and stores made through it
 * are closed and removed after each test.
 */
export function closedAfterEach(): {
  tempDir(): TempDir;
  store<S extends { close(): Promise<void> }>(store: S): S;
} {
  const dirs: TempDir[] = [];
  const stores: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) dir.cleanup();
  });
  return {
    tempDir: () => {
      const dir = tempDir();
      dirs.push(dir);
      return dir;
    },
    store: (store) => {
      stores.push(store);
      return store;
    },
  };
}

/** The key a store opened on `dbPath` without an explicit key signs with. */
export function storeKey(dbPath: string): Buffer {
  return resolveAuditKey({ home: dirname(dbPath), dbPath }).key;
}

/** A store on a fresh temp folder, closed and removed by the returned cleanup. */
export function tempStore(options: Partial<StoreOptions> = {}): {
  store: StoreEngine;
  tmp: TempDir;
  cleanup(): Promise<void>;
} {
  const tmp = tempDir();
  const store = openStoreEngine({ path: tmp.dbPath, onError: () => undefined, ...options });
  return {
    store,
    tmp,
    async cleanup() {
      await store.close();
      tmp.cleanup();
    },
  };
}

export function diff(path: string, oldText: string | null, newText: string | null): PreparedDiff {
  return {
    path,
    oldPath: null,
    change: oldText === null ? 'create' : newText === null ? 'delete' : 'modify',
    binary: false,
    oldText,
    newText,
    truncated: false,
    oldBytes: Buffer.byteLength(oldText ?? ''),
    newBytes: Buffer.byteLength(newText ?? ''),
    oldLines: (oldText ?? '').split('\n').length,
    newLines: (newText ?? '').split('\n').length,
    hash: 'h-' + path,
  };
}

export interface RequestSpec {
  requestId?: string;
  agentId?: string;
  sessionId?: string;
  kind?: ToolKind;
  title?: string;
  command?: string | null;
  paths?: string[];
  issuedAt?: number;
  warnings?: PendingApproval['warnings'];
  diffs?: PreparedDiff[];
  rawInput?: unknown;
}

export function request(spec: RequestSpec = {}): PendingApproval {
  const issuedAt = spec.issuedAt ?? 1_700_000_000_000;
  const command = spec.command === undefined ? null : spec.command;
  return {
    requestId: spec.requestId ?? uuidv7(),
    sessionId: spec.sessionId ?? 's1',
    agentId: spec.agentId ?? 'gemini',
    agentName: 'Gemini CLI',
    cwd: '/home/dev/project',
    toolCall: {
      toolCallId: 'tc-1',
      kind: spec.kind ?? (command !== null ? 'execute' : 'edit'),
      title: spec.title ?? (command !== null ? `Run ${command}` : 'Edit file'),
      locations: (spec.paths ?? []).map((path) => ({ path, line: null })),
      rawInput:
        spec.rawInput ?? (command !== null ? { command } : { file_path: spec.paths?.[0] ?? null }),
      content: [],
    },
    options: OPTIONS,
    policy: 'first-responder',
    issuedAt,
    expiresAt: issuedAt + 300_000,
    warnings: spec.warnings ?? [],
    diffs: spec.diffs ?? [],
    command:
      command === null
        ? null
        : { command, args: null, cwd: '/home/dev/project', source: 'rawInput' },
    tally: null,
  };
}

export function decision(
  req: PendingApproval,
  verdict: 'allow' | 'always' | 'deny' | 'cancelled' = 'allow',
  spec: { decidedAt?: number; decider?: Decider; reason?: string } = {},
): Decision {
  const option = OPTIONS.find((o) => o.optionId === verdict);
  return {
    requestId: req.requestId,
    sessionId: req.sessionId,
    agentId: req.agentId,
    reply: option
      ? { outcome: 'selected', optionId: option.optionId, optionKind: option.kind }
      : { outcome: 'cancelled' },
    decider: spec.decider ?? { type: 'person', clientId: 'desktop', surface: 'dialog' },
    decidedAt: spec.decidedAt ?? req.issuedAt + 1000,
    reason: spec.reason ?? 'first-responder',
  };
}

/** Records a request and its decision; resolves once committed. */
export async function decide(
  store: StoreEngine,
  spec: RequestSpec = {},
  verdict: 'allow' | 'always' | 'deny' | 'cancelled' = 'allow',
  extra: { decidedAt?: number; decider?: Decider; reason?: string } = {},
): Promise<PendingApproval> {
  const req = request(spec);
  store.recordRequest(req);
  await store.recordDecision(decision(req, verdict, extra), { latencyMs: 1000 });
  return req;
}
