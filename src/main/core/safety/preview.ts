// A bounded, readable copy of rawInput for the dialog. The audit stores rawInput itself; this copy
// only exists so a hostile 100 MB input cannot freeze a renderer.
import { RAW_INPUT_PREVIEW_MAX_CHARS } from './limits';
import { truncateWithMarker } from './text';

const MAX_DEPTH = 32;

/**
 * Pretty JSON of `value`, at most `maxChars` long (cut with a marker). Strings are JSON-escaped,
 * so control characters show as `\u001b` escapes; bidi and zero-width characters are kept (pass
 * the result through revealInvisibles to show them). Never throws: cycles, depth, BigInt and
 * non-JSON values are rendered as placeholders.
 */
export function previewRawInput(value: unknown, maxChars = RAW_INPUT_PREVIEW_MAX_CHARS): string {
  const parts: string[] = [];
  let size = 0;
  const seen = new Set<object>();
  // Stops walking once the budget is spent; the marker then says the copy is partial.
  const push = (s: string): boolean => {
    parts.push(s);
    size += s.length;
    return size <= maxChars;
  };
  const walk = (v: unknown, indent: string, depth: number): boolean => {
    if (v === null) return push('null');
    switch (typeof v) {
      case 'string':
        return push(JSON.stringify(v.length > maxChars ? v.slice(0, maxChars) : v));
      case 'number':
        return push(Number.isFinite(v) ? String(v) : 'null');
      case 'boolean':
        return push(String(v));
      case 'bigint':
        return push(`${v.toString()}n`);
      case 'undefined':
        return push('undefined');
      case 'object':
        break;
      default:
        return push(`[${typeof v}]`);
    }
    const obj = v as object;
    if (seen.has(obj)) return push('[Circular]');
    if (depth >= MAX_DEPTH) return push('[…]');
    seen.add(obj);
    const inner = `${indent}  `;
    try {
      if (Array.isArray(obj)) {
        if (obj.length === 0) return push('[]');
        if (!push('[\n')) return false;
        for (let i = 0; i < obj.length; i++) {
          if (!push(inner) || !walk(obj[i], inner, depth + 1)) return false;
          if (!push(i < obj.length - 1 ? ',\n' : '\n')) return false;
        }
        return push(`${indent}]`);
      }
      const keys = Object.keys(obj);
      if (keys.length === 0) return push('{}');
      if (!push('{\n')) return false;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] ?? '';
        if (!push(`${inner}${JSON.stringify(k)}: `)) return false;
        if (!walk((obj as Record<string, unknown>)[k], inner, depth + 1)) return false;
        if (!push(i < keys.length - 1 ? ',\n' : '\n')) return false;
      }
      return push(`${indent}}`);
    } finally {
      seen.delete(obj);
    }
  };
  try {
    walk(value, '', 0);
  } catch {
    push('[unreadable]');
  }
  return truncateWithMarker(parts.join(''), maxChars);
}
