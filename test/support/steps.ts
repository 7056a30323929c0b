// What the tests that drive a core process share: temporary folders removed after each test, and
// the one request a test waits on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { HttpApi } from '../../src/renderer/src/api/http-client';

/** Steps run after a test, last first. */
export type Cleanup = (() => Promise<void> | void)[];

/** A list of such steps, run last-first after each test of the file or block that calls this. */
export function cleanupAfterEach(): Cleanup {
  const cleanup: Cleanup = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  return cleanup;
}

export function freshDir(cleanup: Cleanup, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The one pending request, once it is the only one. */
export async function pendingOne(api: HttpApi, timeout = 30_000) {
  await expect
    .poll(async () => (await api.call('listApprovals', {})).items.length, { timeout })
    .toBe(1);
  return (await api.call('listApprovals', {})).items[0]!;
}
