/**
 * Word evaluation: the value bash gives a parsed word after quote removal, whether that value is
 * only known when the shell runs (`dynamic`), and the commands hidden in its substitutions.
 */
import type { Node } from 'web-tree-sitter';
import { opaque, substitutionFrame, type Ctx, type Frame, type Word } from './context';
import {
  ansiCEnd,
  decodeAnsiC,
  findInvisible,
  hasBraceExpansion,
  hasGlob,
  isSafeBracedExpansion,
  QUOTED,
  unescapeDoubleQuoted,
  unquoteBare,
} from './lexical';

export function literal(value: string): Word {
  return { value, dynamic: false, skeleton: QUOTED.repeat(value.length) };
}

export function unknown(node: Node): Word {
  return { value: node.text, dynamic: true, skeleton: QUOTED };
}

export function evalWord(node: Node, ctx: Ctx, frame: Frame): Word {
  if (node.isMissing) {
    opaque(ctx, 'the command is incomplete');
    return unknown(node);
  }
  switch (node.type) {
    case 'word': {
      const { value, skeleton } = unquoteBare(node.text);
      return { value, skeleton, dynamic: false };
    }
    case 'number':
      if (node.namedChildCount === 0)
        return { value: node.text, skeleton: node.text, dynamic: false };
      return evalConcatenation(node, ctx, frame);
    case 'raw_string':
      if (node.text.indexOf("'", 1) !== node.text.length - 1) {
        opaque(ctx, 'the parser misread single quoting');
        return unknown(node);
      }
      return literal(node.text.slice(1, -1));
    case 'string':
      return evalString(node, ctx, frame);
    case 'ansi_c_string': {
      // tree-sitter-bash ends `$'\\'…` at the wrong quote; check where bash would end it.
      if (ansiCEnd(node.text) !== node.text.length - 1) {
        opaque(ctx, `the parser misread ANSI-C quoting (${node.text.slice(0, 40)})`);
        return unknown(node);
      }
      const decoded = decodeAnsiC(node.text.slice(2, -1));
      if (decoded === null || findInvisible(decoded.replace(/[\t\n]/g, ''))) {
        opaque(ctx, `ANSI-C quoting that cannot be resolved exactly (${node.text})`);
        return unknown(node);
      }
      return literal(decoded);
    }
    case 'concatenation':
      return evalConcatenation(node, ctx, frame);
    case 'simple_expansion':
      return unknown(node);
    case 'expansion':
      if (!isSafeBracedExpansion(node.text)) {
        opaque(ctx, `complex parameter expansion (${node.text})`);
        ctx.walker.visit(node, ctx, frame);
      }
      return unknown(node);
    case 'brace_expression':
      return { value: node.text, dynamic: true, skeleton: node.text, pattern: true };
    case 'command_substitution':
      opaque(
        ctx,
        node.text.startsWith('`')
          ? 'command substitution (backticks)'
          : 'command substitution `$(…)`',
      );
      ctx.walker.visit(node, ctx, substitutionFrame(frame, node.type));
      return unknown(node);
    case 'process_substitution':
      opaque(ctx, 'process substitution `<(…)` / `>(…)`');
      ctx.walker.visit(node, ctx, substitutionFrame(frame, node.type));
      return unknown(node);
    case 'arithmetic_expansion':
      opaque(ctx, 'arithmetic expansion `$((…))`');
      ctx.walker.visit(node, ctx, frame);
      return unknown(node);
    case 'translated_string':
      opaque(ctx, 'locale-translated string `$"…"`');
      return unknown(node);
    default:
      opaque(
        ctx,
        `unsupported word syntax (${node.type === node.text ? `\`${node.type}\`` : node.type})`,
      );
      ctx.walker.visit(node, ctx, frame);
      return unknown(node);
  }
}

/** A command-line argument: a word plus the glob/brace expansion bash applies to unquoted text. */
export function evalArg(node: Node, ctx: Ctx, frame: Frame): Word {
  const w = evalWord(node, ctx, frame);
  if (!w.dynamic && (hasGlob(w.skeleton) || hasBraceExpansion(w.skeleton))) {
    return { ...w, dynamic: true, pattern: true };
  }
  if (w.dynamic && hasBraceExpansion(w.skeleton)) return { ...w, pattern: true };
  return w;
}

function evalConcatenation(node: Node, ctx: Ctx, frame: Frame): Word {
  let value = '';
  let skeleton = '';
  let dynamic = false;
  let pattern = false;
  let pos = node.startIndex;
  for (const child of node.children) {
    if (child.startIndex !== pos) {
      opaque(ctx, 'unexpected gap inside a word');
      dynamic = true;
    }
    const w = evalWord(child, ctx, frame);
    value += w.value;
    skeleton += w.skeleton;
    dynamic ||= w.dynamic;
    pattern ||= w.pattern === true;
    pos = child.endIndex;
  }
  return { value, skeleton, dynamic, pattern };
}

function evalString(node: Node, ctx: Ctx, frame: Frame): Word {
  let value = '';
  let dynamic = false;
  let pos = node.startIndex + 1;
  const end = node.endIndex - 1;
  for (const child of node.children) {
    if (child.type === '"') continue;
    if (child.startIndex > pos)
      value += unescapeDoubleQuoted(ctx.source.slice(pos, child.startIndex));
    switch (child.type) {
      case 'string_content':
        value += unescapeDoubleQuoted(child.text);
        break;
      case 'simple_expansion':
      case 'expansion':
      case 'command_substitution':
      case 'arithmetic_expansion': {
        const w = evalWord(child, ctx, frame);
        value += w.value;
        dynamic = true;
        break;
      }
      default:
        opaque(ctx, `unsupported syntax inside double quotes (${child.type})`);
        ctx.walker.visit(child, ctx, frame);
        value += child.text;
        dynamic = true;
    }
    pos = child.endIndex;
  }
  if (end > pos) value += unescapeDoubleQuoted(ctx.source.slice(pos, end));
  return { value, dynamic, skeleton: QUOTED };
}
