// bidi_control, zero_width and ansi_escape: characters that change what a person sees.
import type { Warning } from '../../../../shared/domain';
import {
  describeCodePoint,
  findHidden,
  hasHidden,
  type HiddenChar,
} from '../../../../shared/invisible';
import { lineOf } from '../text';
import type { WarningSink } from './sink';

export interface ScanTarget {
  text: string;
  /** 'title', 'command', 'path', 'diff:<path>', 'rawInput.<key>', 'content'. */
  where: string;
  /** Noun for the message: "The title", "The command", "The new text of /x/a.ts". */
  label: string;
  /** Danger for bidi controls (commands: Trojan Source); everything else is caution. */
  bidiDanger?: boolean;
  /** Add " line N" to `where` (diff texts). */
  lines?: boolean;
  /** Free text in a human language: ZWJ/ZWNJ between letters or emoji are normal there. */
  prose?: boolean;
}

const MAX_LISTED = 4;

export function scanHidden(sink: WarningSink, target: ScanTarget): void {
  if (!hasHidden(target.text)) return;
  const limit = 10_000;
  let found = findHidden(target.text, limit);
  // Beyond the limit the positions are not kept; the count says so.
  const more = found.length >= limit;
  // A byte-order mark at the very start of a file is an encoding marker, not a trick.
  if (target.lines && found[0]?.codePoint === 0xfeff && found[0].index === 0)
    found = found.slice(1);
  if (target.prose) found = found.filter((h) => !isJoinerInWord(target.text, h));
  const bidi = found.filter((h) => h.cls === 'bidi');
  const zero = found.filter((h) => h.cls === 'zero_width');
  const control = found.filter((h) => h.cls === 'control');
  if (bidi.length > 0) {
    sink.add(
      warning(
        target,
        'bidi_control',
        target.bidiDanger ? 'danger' : 'caution',
        bidi,
        (list, n) =>
          `${target.label} contains ${count(n, 'bidirectional control character', more)} (${list}) that can make it display in a different order than it runs.`,
      ),
    );
  }
  if (zero.length > 0) {
    sink.add(
      warning(
        target,
        'zero_width',
        'caution',
        zero,
        (list, n) =>
          `${target.label} contains ${count(n, 'invisible character', more)} (${list}) that the screen does not show but the computer reads.`,
      ),
    );
  }
  if (control.length > 0) {
    sink.add(
      warning(target, 'ansi_escape', 'caution', control, (list, n) => {
        const seq = escapeKind(target.text, control);
        return `${target.label} contains ${count(n, 'control character', more)} (${list})${seq} that a terminal or log viewer can use to rewrite what is shown.`;
      }),
    );
  }
}

function warning(
  target: ScanTarget,
  code: Warning['code'],
  severity: Warning['severity'],
  chars: HiddenChar[],
  message: (list: string, n: number) => string,
): Warning {
  const distinct = [...new Set(chars.map((c) => c.codePoint))];
  const shown = distinct.slice(0, MAX_LISTED).map(describeCodePoint).join(', ');
  const list = distinct.length > MAX_LISTED ? `${shown}, …` : shown;
  const first = chars[0];
  const where =
    target.lines && first
      ? `${target.where} line ${lineOf(target.text, first.index)}`
      : target.where;
  return { code, severity, message: message(list, chars.length), where };
}

function count(n: number, noun: string, more = false): string {
  if (more) return `at least ${n} ${noun}s`;
  return n === 1 ? `a ${noun}` : `${n} ${noun}s`;
}

/** Names the escape sequences found after ESC / 8-bit CSI, if any. */
function escapeKind(text: string, controls: HiddenChar[]): string {
  const kinds = new Set<string>();
  for (const c of controls) {
    if (c.codePoint === 0x9b) kinds.add('CSI');
    if (c.codePoint !== 0x1b) continue;
    const next = text[c.index + 1];
    kinds.add(next === '[' ? 'CSI' : next === ']' ? 'OSC' : next === 'P' ? 'DCS' : 'ESC');
    if (kinds.size >= 3) break;
  }
  if (kinds.size === 0) return '';
  const names = [...kinds].map((k) =>
    k === 'CSI'
      ? 'ANSI CSI sequence (ESC [)'
      : k === 'OSC'
        ? 'OSC sequence (ESC ], sets titles and links)'
        : k === 'DCS'
          ? 'DCS sequence (ESC P)'
          : 'escape sequence',
  );
  return `, including ${names.join(' and ')}`;
}

// Emoji modifiers and the variation selector are listed on purpose, one code point each.
// eslint-disable-next-line no-misleading-character-class
const LETTER_OR_EMOJI = /[\p{L}\p{M}\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F]/u;

/** ZWJ/ZWNJ between two letters or emoji (Persian, Indic scripts, 👩‍💻) is ordinary text. */
function isJoinerInWord(text: string, h: HiddenChar): boolean {
  if (h.codePoint !== 0x200c && h.codePoint !== 0x200d) return false;
  const before = lastCodePointBefore(text, h.index);
  const after = text.codePointAt(h.index + 1);
  return (
    before !== undefined &&
    after !== undefined &&
    LETTER_OR_EMOJI.test(String.fromCodePoint(before)) &&
    LETTER_OR_EMOJI.test(String.fromCodePoint(after)) &&
    // ASCII letters around a joiner are how identifiers are spoofed; only other scripts pass.
    (before > 0x7f || after > 0x7f)
  );
}

function lastCodePointBefore(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2);
  }
  return low;
}
