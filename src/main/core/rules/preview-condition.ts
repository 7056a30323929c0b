import nodePath from 'node:path';
import { isInside } from '../fs/containment';
import type { RequestFacts, Rule } from './types';

/**
 * Does an allow rule's preview condition hold? A rule without one always does. One with
 * `whenPreviewChangesOnly` holds only for a finished preview whose every change is listed, lies in
 * a writable root (not outside, not a protected file) and under one of the rule's folders: a
 * preview still running, cut short, not run or listing only part of its changes never allows.
 */
export function previewConditionHolds(rule: Rule, facts: RequestFacts): boolean {
  const only = rule.whenPreviewChangesOnly;
  if (only === undefined) return true;
  const seen = facts.preview;
  if (!seen || !seen.complete || seen.beyondRoots) return false;
  const folders = only.map((entry) => nodePath.resolve(facts.sessionCwd, entry));
  return seen.changed.every((path) => folders.some((folder) => isInside(path, folder)));
}
