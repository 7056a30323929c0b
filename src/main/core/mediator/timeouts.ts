import {
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  MAX_APPROVAL_TIMEOUT_SECONDS,
} from '../../../shared/settings';

/** What a timeout that is no duration at all falls back to: the settings' default. */
export const DEFAULT_PERMISSION_TIMEOUT_MS = DEFAULT_APPROVAL_TIMEOUT_SECONDS * 1000;
/** Shorter than this and no human can answer; it is certainly a unit mistake. */
export const MIN_PERMISSION_TIMEOUT_MS = 100;
/** The longest a request may wait, whatever asked for more: the settings' maximum. */
export const MAX_PERMISSION_TIMEOUT_MS = MAX_APPROVAL_TIMEOUT_SECONDS * 1000;

export function clampPermissionTimeoutMs(ms: number): number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) {
    return DEFAULT_PERMISSION_TIMEOUT_MS;
  }
  return Math.min(MAX_PERMISSION_TIMEOUT_MS, Math.max(MIN_PERMISSION_TIMEOUT_MS, ms));
}
