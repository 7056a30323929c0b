// The desktop keeps the audit key sealed by the OS keychain (Electron safeStorage: Keychain on
// macOS, DPAPI on Windows, the Secret Service or KWallet on Linux). The sealed file may sit in the
// data folder: only the keychain of this user session opens it. Where the keychain cannot protect
// it (Linux without a keyring: safeStorage falls back to a fixed password), null is returned and the
// headless sources apply (store/audit-key.ts).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import {
  findAuditKey,
  legacyKeyPath,
  parseKey,
  readLegacyKey,
  type ResolvedAuditKey,
} from '../core';

export const SEALED_KEY_FILE = 'audit-key.sealed';

function keychainProtects(): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (process.platform !== 'linux') return true;
  const backend = safeStorage.getSelectedStorageBackend();
  return backend !== 'basic_text' && backend !== 'unknown';
}

/**
 * The sealed key, created on first use from the key already in use (beside the database, moved
 * from there; or the headless key file), else a new one. Call after the app is ready.
 */
export function keychainAuditKey(home: string, dbPath: string): ResolvedAuditKey | null {
  if (!keychainProtects()) return null;
  const file = join(home, SEALED_KEY_FILE);
  const location = `the OS keychain (${file})`;
  if (existsSync(file)) {
    const key = parseKey(safeStorage.decryptString(readFileSync(file)), location);
    return { key, location, movedFrom: null };
  }
  const legacy = readLegacyKey(dbPath);
  const key = legacy ?? findAuditKey({ home, dbPath })?.key ?? randomBytes(32);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, safeStorage.encryptString(key.toString('hex')), { mode: 0o600 });
  renameSync(tmp, file);
  if (!legacy) return { key, location, movedFrom: null };
  unlinkSync(legacyKeyPath(dbPath));
  return { key, location, movedFrom: legacyKeyPath(dbPath) };
}
