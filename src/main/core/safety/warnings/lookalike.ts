// lookalike: letters that look like ASCII but are not (`npm tеst` with a Cyrillic е runs another
// script than `npm test`). Two findings, both per word (a run of letters, marks, digits, `_`):
// - a word that mixes ASCII letters with a letter whose skeleton is ASCII (Cyrillic е, Greek ο,
//   fullwidth ｅ, the ligature ﬁ), or a word of Cyrillic/Greek/Armenian with an ASCII letter in it;
// - a word made only of such letters (`ехе`), unless the text uses that script for real elsewhere
//   (a Russian commit message has words with и, л, ш, so its `с` and `о` are Russian, not a trick).
// Accented Latin letters (é, ç, ß) are not look-alikes: their skeleton keeps the accent.
import type { Warning } from '../../../../shared/domain';
import { codePointLabel } from '../../../../shared/invisible';
import type { WarningSink } from './sink';

/** Cross-script homoglyphs NFKC leaves alone (Unicode confusables.txt, the common part). */
const HOMOGLYPHS: Record<string, string> = {
  // Cyrillic
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  ү: 'y',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  Ԛ: 'Q',
  Ԝ: 'W',
  Ү: 'Y',
  Ӏ: 'I',
  // Greek
  α: 'a',
  ο: 'o',
  ν: 'v',
  ρ: 'p',
  ι: 'i',
  κ: 'k',
  υ: 'u',
  χ: 'x',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  // Armenian
  օ: 'o',
  ո: 'n',
  ս: 'u',
  հ: 'h',
  ց: 'g',
  // Latin letters outside ASCII that read as ASCII ones
  ı: 'i',
  ɑ: 'a',
  ɡ: 'g',
  ǀ: 'l',
};

const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
];
/** Scripts whose words may hide an ASCII letter among their own look-alikes. */
const CONFUSABLE_SCRIPTS = new Set(['Cyrillic', 'Greek', 'Armenian']);

const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
const MAX_WORDS = 20_000;
const MAX_LISTED = 4;

function scriptOf(char: string): string {
  for (const [name, re] of SCRIPTS) if (re.test(char)) return name;
  return /\p{L}/u.test(char) ? 'other' : 'none';
}

/** The ASCII a character is read as, or null when it reads as itself (or is ASCII). */
function asciiSkeleton(char: string): string | null {
  if (char.charCodeAt(0) < 0x80) return null;
  const mapped = HOMOGLYPHS[char] ?? char.normalize('NFKC');
  return /^[\x21-\x7e]+$/.test(mapped) ? mapped : null;
}

interface Finding {
  word: string;
  chars: string[];
}

/** The look-alike words of `text`, in order. */
export function findLookalikes(text: string): Finding[] {
  // Nearly every command is ASCII: one test and done.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return [];
  const words = (text.match(WORD) ?? []).slice(0, MAX_WORDS);
  // Scripts the text writes real words in: a letter of theirs that reads as nothing in ASCII.
  const genuine = new Set<string>();
  for (const word of words)
    for (const char of word)
      if (char.charCodeAt(0) >= 0x80 && /\p{L}/u.test(char) && asciiSkeleton(char) === null)
        genuine.add(scriptOf(char));
  // Fullwidth and other compatibility forms of ASCII are never a language's own letters.
  genuine.delete('Latin');
  const found: Finding[] = [];
  for (const word of words) {
    // eslint-disable-next-line no-control-regex
    if (/^[\x00-\x7f]*$/.test(word)) continue;
    const chars = [...word];
    const ascii = chars.filter((c) => /[A-Za-z]/.test(c));
    const latin = chars.filter((c) => scriptOf(c) === 'Latin');
    const foreign = chars.filter((c) => CONFUSABLE_SCRIPTS.has(scriptOf(c)));
    const alike = chars.filter((c) => asciiSkeleton(c) !== null);
    if (ascii.length > 0 && foreign.length > 0) {
      // Mixed: the letters of the smaller part are the odd ones out.
      found.push({ word, chars: latin.length >= foreign.length ? foreign : ascii });
    } else if (ascii.length > 0 && alike.length > 0) {
      found.push({ word, chars: alike });
    } else if (
      alike.length > 0 &&
      chars.every((c) => asciiSkeleton(c) !== null || !/\p{L}/u.test(c)) &&
      !alike.some((c) => genuine.has(scriptOf(c)))
    ) {
      found.push({ word, chars: alike });
    }
  }
  return found;
}

function describe(char: string): string {
  const cp = char.codePointAt(0) ?? 0;
  const script = scriptOf(char);
  const skeleton = asciiSkeleton(char);
  const from = script === 'none' || script === 'other' ? '' : ` ${script}`;
  return skeleton === null
    ? `${codePointLabel(cp)}${from} "${char}"`
    : `${codePointLabel(cp)}${from}, looks like "${skeleton}"`;
}

export interface LookalikeTarget {
  text: string;
  where: string;
  label: string;
  severity: Warning['severity'];
}

export function scanLookalikes(sink: WarningSink, target: LookalikeTarget): void {
  const found = findLookalikes(target.text);
  if (found.length === 0) return;
  const words = found.slice(0, MAX_LISTED).map(({ word, chars }) => {
    const listed = [...new Set(chars)].slice(0, MAX_LISTED).map(describe).join(', ');
    return `"${word}" (${listed})`;
  });
  const more = found.length > MAX_LISTED ? `, and ${found.length - MAX_LISTED} more` : '';
  sink.add({
    code: 'lookalike',
    severity: target.severity,
    message: `${target.label} has letters that look like ASCII but are not: ${words.join('; ')}${more}. What runs is not what it seems to say.`,
    where: target.where,
  });
}
