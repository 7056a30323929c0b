/**
 * An allow rule that nothing narrows to particular commands or paths allows every request it is
 * scoped to: as much as Bypass, or more (every agent, every folder). Saving one takes the same
 * explicit confirmation as Bypass, asked by the editor and required here, so that no client (an
 * agent that found the token among them) can make one in a single quiet call.
 */
import { ruleKinds } from './match';
import { parseCommandPattern } from './pattern';
import type { Rule } from './types';

/** Only `*`: a word that matches any word. */
const anyWord = (text: string) => /^\*+$/.test(text);

/** A command pattern whose program is any program. */
function anyCommand(command: string): boolean {
  const parsed = parseCommandPattern(command);
  if (!parsed.ok) return false;
  const first = parsed.pattern.tokens[0];
  return first?.kind === 'wildcard' && anyWord(first.source);
}

/**
 * A glob from the root or the home folder made of wildcards only (`/**`, `~/**`, `$HOME/*\/**`). A
 * relative glob stays inside the session folder, as the rules match it.
 */
function anyPath(glob: string): boolean {
  const rest = /^(?:\/|~\/|\$HOME\/|\$\{HOME\}\/)(.*)$/.exec(glob.trim())?.[1];
  if (rest === undefined) return false;
  const segments = rest.split('/').filter(Boolean);
  return segments.length > 0 && segments.every(anyWord);
}

/**
 * What an allow rule reaches when nothing narrows it ("every request from any agent in any
 * folder"), or null when it names particular commands or paths (or does not allow).
 */
export function allowAnyReach(rule: Rule): string | null {
  if (rule.action !== 'allow') return null;
  const kinds = ruleKinds(rule);
  let what: string;
  if (rule.command !== undefined) {
    if (!anyCommand(rule.command)) return null;
    what = 'every command';
  } else if (rule.path !== undefined) {
    if (!anyPath(rule.path)) return null;
    what = `every ${kinds ? kinds.join(', ') : 'file'} request on any path`;
  } else {
    what = kinds ? `every ${kinds.join(', ')} request` : 'every request';
  }
  const who = rule.agent !== undefined ? ` from ${rule.agent}` : ' from any agent';
  const where = rule.project !== undefined ? ` in ${rule.project}` : ' in any folder';
  return `${what}${who}${where}`;
}

/** Field by field, whatever order the settings file wrote them in. */
const same = (a: Rule, b: Rule) =>
  JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());

/** The rules of `after` that allow any request and were not already saved exactly so in `before`. */
export function newAllowAny(
  before: readonly Rule[],
  after: readonly Rule[],
): { ruleId: string; reach: string }[] {
  return after.flatMap((rule) => {
    const reach = allowAnyReach(rule);
    if (reach === null) return [];
    if (before.some((old) => old.id === rule.id && same(old, rule))) return [];
    return [{ ruleId: rule.id, reach }];
  });
}
