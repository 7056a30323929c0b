// The headless token's file: kept across starts, 0600, and a file another account could have read
// or a link planted in its place is replaced rather than trusted.
import { chmodSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  forgetServerToken,
  loadServerToken,
  readServerToken,
  ServerTokenError,
  serverTokenPath,
} from './server-token';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'gatehouse-token-unit-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('the server token file', () => {
  it('is made once, 0600, and the same token is served at the next start', () => {
    const first = loadServerToken(home, undefined);
    expect(first.origin).toBe('created');
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(serverTokenPath(home)).mode & 0o777).toBe(0o600);
    expect(loadServerToken(home, undefined)).toEqual({ token: first.token, origin: 'kept' });
  });

  it('a token given in GATEHOUSE_TOKEN is kept for the next start', () => {
    expect(loadServerToken(home, 'a-token-from-the-environment').origin).toBe('environment');
    expect(loadServerToken(home, undefined).token).toBe('a-token-from-the-environment');
    expect(() => loadServerToken(home, 'short')).toThrow(ServerTokenError);
  });

  it('a file others may read is replaced by a new token, and says why', () => {
    const { token } = loadServerToken(home, undefined);
    chmodSync(serverTokenPath(home), 0o644);
    const next = loadServerToken(home, undefined);
    expect(next.origin).toBe('replaced');
    expect(next.reason).toBe('the token file had mode 644');
    expect(next.token).not.toBe(token);
    expect(statSync(serverTokenPath(home)).mode & 0o777).toBe(0o600);
  });

  it('a link in place of the file is not followed', () => {
    const elsewhere = join(home, 'elsewhere');
    writeFileSync(elsewhere, 'a-token-someone-else-knows\n', { mode: 0o600 });
    symlinkSync(elsewhere, serverTokenPath(home));
    expect(readServerToken(home)).toEqual({ untrusted: 'the token file is a symbolic link' });
    const next = loadServerToken(home, undefined);
    expect(next.origin).toBe('replaced');
    expect(next.token).not.toBe('a-token-someone-else-knows');
  });

  it('rotated while stopped: forgotten, and the next start makes a new one', () => {
    const { token } = loadServerToken(home, undefined);
    expect(forgetServerToken(home)).toBe(true);
    const next = loadServerToken(home, undefined);
    expect(next.origin).toBe('created');
    expect(next.token).not.toBe(token);
  });
});
