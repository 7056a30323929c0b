// The key that signs the chain head and the retention checkpoint. Kept next to the database unless the
// caller supplies one (e.g. from the OS keychain). Whoever can read the key can re-sign a forged chain:
// the signature defends against edits by tools and people that do not have it, not against root.
import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { canonicalJson } from './canonical';

export function keyPathFor(dbPath: string): string {
  return join(dirname(dbPath), `${basename(dbPath)}.audit-key`);
}

function readKey(file: string): Buffer | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, 'hex') : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Reads the key file, creating it (0600, fsynced) when missing. `create: false` only reads. */
export function loadKey(dbPath: string, explicit?: string, create = true): Buffer | null {
  if (explicit !== undefined) return Buffer.from(explicit, 'utf8');
  if (dbPath === ':memory:') return create ? randomBytes(32) : null;
  const file = keyPathFor(dbPath);
  const existing = readKey(file);
  if (existing || !create) return existing;
  const key = randomBytes(32);
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, key.toString('hex') + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return key;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      const theirs = readKey(file);
      if (theirs) return theirs;
    }
    throw err;
  }
}

export function sign(key: Buffer, payload: unknown): string {
  return createHmac('sha256', key).update(canonicalJson(payload)).digest('hex');
}
