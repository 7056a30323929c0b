/**
 * Analyses kept by exact command text: agents run the same commands again and again, and parsing
 * plus walking the tree is most of what a rule check costs (measured: ~80 of ~145 µs). Entries are
 * frozen (deeply), so one analysis may be shared by every caller.
 */
import { MAX_COMMAND_LENGTH } from './context';
import type { ShellAnalysis } from './types';

const CACHE_ENTRIES = 512;
/** Longer commands are rare and would make the cache large: only the last one is kept. */
const CACHE_MAX_CHARS = 4096;
const cache = new Map<string, ShellAnalysis>();
/**
 * The last longer one (within the length the analysis reads at all): the warnings and the rules
 * read a request's command one after the other.
 */
let lastLong: { text: string; analysis: ShellAnalysis } | null = null;

export function cachedAnalysis(
  text: string,
  analyze: (text: string) => ShellAnalysis,
): ShellAnalysis {
  if (text.length > MAX_COMMAND_LENGTH) return deepFreeze(analyze(text));
  if (text.length > CACHE_MAX_CHARS) {
    if (lastLong?.text !== text) lastLong = { text, analysis: deepFreeze(analyze(text)) };
    return lastLong.analysis;
  }
  const cached = cache.get(text);
  if (cached) {
    // Most recently used last, so the oldest entry is the first to go.
    cache.delete(text);
    cache.set(text, cached);
    return cached;
  }
  const analysis = deepFreeze(analyze(text));
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(text, analysis);
  return analysis;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
