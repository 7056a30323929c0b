/**
 * Simple commands and the statements that behave like them (assignments, `declare`, `unset`,
 * a redirected statement): their words, environment and redirections, checked against the ways
 * tree-sitter's reading can differ from bash's, then classified.
 */
import type { Node } from 'web-tree-sitter';
import { classify } from './classify';
import { isDangerousEnv, MISPARSE_GUARD_WORDS, SAFE_DECLARE_FLAGS } from './commands';
import {
  opaque,
  record,
  settle,
  type Ctx,
  type Frame,
  type PendingSubstitution,
  type Word,
} from './context';
import { handleRedirect, type FollowUp } from './redirects';
import { childrenWithFields, splitsLines, touches } from './tree';
import type { Redirect, SimpleCommand } from './types';
import { evalArg, evalWord, literal, unknown } from './words';

export const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
const INPUT_OPS = new Set(['<', '<<', '<<-', '<<<', '<&']);

export function handleAssignment(
  node: Node,
  ctx: Ctx,
  frame: Frame,
): { name: string; value: string } | null {
  const nameNode = node.childForFieldName('name');
  if (!nameNode || nameNode.type !== 'variable_name') {
    // `a[i+1]=x`: the subscript is arithmetic.
    opaque(ctx, `assignment to an array element (${nameNode?.text ?? node.text})`);
    ctx.walker.visit(node, ctx, frame);
    return null;
  }
  const name = nameNode.text;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    // `1=x` is a command named `1=x` to bash, not an assignment.
    opaque(ctx, `not a valid assignment (${name})`);
    return null;
  }
  const op = node.children.find((c) => !c.isNamed)?.type ?? '=';
  if (op !== '=') {
    opaque(ctx, `\`${op}\` assignment to ${name}`);
    return null;
  }
  const valueNode = node.childForFieldName('value');
  let value = '';
  if (valueNode) {
    if (valueNode.type === 'array') {
      opaque(ctx, `array assignment to ${name}`);
      ctx.walker.visit(valueNode, ctx, frame);
      return null;
    }
    value = evalWord(valueNode, ctx, frame).value;
  }
  if (isDangerousEnv(name)) {
    opaque(ctx, `assignment to ${name} can change which program runs or what it loads`);
  }
  return { name, value };
}

export function handleCommand(node: Node, ctx: Ctx, outer: Frame, extraArgs: Word[]): void {
  const frame: Frame = { ...outer, pending: undefined, word: undefined };
  const pending: PendingSubstitution[] = [];
  // Substitutions are tied to the word they are read in (-1: not a word of argv).
  const at = (word: number): Frame => ({ ...frame, pending, word });
  const env: Record<string, string> = {};
  const words: Word[] = [];
  const redirects = [...frame.redirects];
  const followUps: FollowUp[] = [];
  let reservedName: string | null = null;
  let sawName = false;
  let prevWordEnd = -1;
  let prevEnd = -1;

  for (const { node: child, field } of childrenWithFields(node)) {
    if (prevEnd >= 0 && splitsLines(ctx.source, prevEnd, child.startIndex)) {
      opaque(ctx, 'the parser joined two lines into one command');
    }
    prevEnd = child.endIndex;
    const isWord =
      child.type === 'variable_assignment' || child.type === 'command_name' || field === 'argument';
    // Two words with nothing between them are ONE word to bash: tree-sitter splits `'r'\m` into
    // `r` and `m`, which would hide `rm`. Opaque, and glued back so deny rules still see `rm`.
    const glued = isWord && prevWordEnd >= 0 && touches(ctx.source, prevWordEnd, child.startIndex);
    if (glued) opaque(ctx, `the parser split one word in two (${node.text.slice(0, 60)})`);
    prevWordEnd = isWord ? child.endIndex : -1;
    if (glued && child.type !== 'variable_assignment' && words.length > 0) {
      const prev = words.pop() as Word;
      const part = child.type === 'command_name' ? child.namedChild(0) : null;
      const w = evalArg(part ?? child, ctx, at(words.length));
      words.push({
        value: prev.value + w.value,
        skeleton: prev.skeleton + w.skeleton,
        dynamic: prev.dynamic || w.dynamic,
        pattern: prev.pattern === true || w.pattern === true,
      });
      if (child.type === 'command_name') sawName = true;
      continue;
    }
    if (child.type === 'variable_assignment' && !sawName) {
      const a = handleAssignment(child, ctx, at(-1));
      if (a) env[a.name] = a.value;
    } else if (child.type === 'command_name') {
      sawName = true;
      const inner = child.namedChildCount === 1 ? child.namedChild(0) : null;
      if (!inner) {
        opaque(ctx, 'unsupported command name');
        ctx.walker.visit(child, ctx, at(words.length));
        words.push(unknown(child));
        continue;
      }
      const w = evalArg(inner, ctx, at(words.length));
      if (!w.dynamic && w.skeleton === w.value && MISPARSE_GUARD_WORDS.has(w.value))
        reservedName = w.value;
      words.push(w);
    } else if (REDIRECT_TYPES.has(child.type)) {
      const r = handleRedirect(child, ctx, at(-1));
      redirects.push(...r.redirects);
      words.push(...r.extraArgs);
      followUps.push(...r.followUps);
    } else if (child.type === 'comment') {
      continue;
    } else if (field === 'argument') {
      words.push(evalArg(child, ctx, at(words.length)));
    } else {
      opaque(ctx, `unsupported syntax in a command (${child.type})`);
      ctx.walker.visit(child, ctx, at(-1));
    }
  }
  words.push(...extraArgs);

  const cmd = commandOf(words, env, redirects, frame.text ?? node.text);
  if (reservedName !== null) {
    opaque(
      ctx,
      `reserved word \`${reservedName}\` in command position (the parse may not match bash)`,
    );
  }
  checkName(words[0], ctx);
  const stdinFed =
    frame.stdinFed ||
    redirects.some((r) => INPUT_OPS.has(r.op) && (r.fd === undefined || r.fd === 0));
  const piped = pipedTo(ctx, frame, followUps);
  const final = classify(cmd, ctx, { ...piped, stdinFed });
  settle(pending, final.index, final.nameWord);
  walkFollowUps(followUps, ctx, piped);
}

function commandOf(
  words: Word[],
  env: Record<string, string>,
  redirects: Redirect[],
  text: string,
): SimpleCommand {
  return {
    argv: words.map((w) => w.value),
    env,
    redirects,
    text,
    dynamic: words.flatMap((w, i) => (w.dynamic ? [i] : [])),
  };
}

/** A command name that is not the program bash will run. */
function checkName(first: Word | undefined, ctx: Ctx): void {
  if (first && !first.dynamic && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(first.value)) {
    const eq = first.value.indexOf('=');
    // Unquoted `_=x` is an assignment to bash; tree-sitter sometimes calls it a command name.
    if (first.skeleton.slice(0, eq + 1) === first.value.slice(0, eq + 1)) {
      opaque(
        ctx,
        `the parser read an assignment as a command name (${first.value.slice(0, eq + 1)})`,
      );
    }
  }
  if (first?.dynamic && first.value !== '') {
    opaque(
      ctx,
      first.pattern
        ? `the command name is a glob or brace pattern (${first.value})`
        : `the command name is only known when the shell runs (${first.value})`,
    );
  }
}

/** `cat <<EOF | sh`: tree-sitter nests the rest of the pipeline in the here-document. */
function pipedTo(ctx: Ctx, frame: Frame, followUps: FollowUp[]): Frame {
  if (frame.pipe || !followUps.some((f) => f.stdinFed)) return frame;
  return { ...frame, pipe: { id: ctx.run.pipelines++, stage: 0 } };
}

function walkFollowUps(followUps: FollowUp[], ctx: Ctx, frame: Frame): void {
  let stage = frame.pipe?.stage ?? 0;
  for (const f of followUps) {
    const pipe = f.stdinFed && frame.pipe ? { id: frame.pipe.id, stage: ++stage } : undefined;
    const next: Frame = { ...frame, stdinFed: f.stdinFed, redirects: [], text: undefined, pipe };
    ctx.walker.statement(f.node, ctx, next);
  }
}

export function handleRedirected(node: Node, ctx: Ctx, outer: Frame): void {
  const redirects: Redirect[] = [];
  const extraArgs: Word[] = [];
  const followUps: FollowUp[] = [];
  let body: Node | null = null;
  for (const { node: c, field } of childrenWithFields(node)) {
    if (field === 'body') body = c;
    else if (REDIRECT_TYPES.has(c.type)) {
      const r = handleRedirect(c, ctx, outer);
      redirects.push(...r.redirects);
      extraArgs.push(...r.extraArgs);
      followUps.push(...r.followUps);
    } else if (c.type !== 'comment') {
      opaque(ctx, `unsupported syntax around a redirection (${c.type})`);
      ctx.walker.visit(c, ctx, outer);
    }
  }
  const frame = pipedTo(ctx, outer, followUps);
  if (!body) {
    // `> file` alone truncates a file; there is no command a rule could match.
    opaque(ctx, 'a redirection without a command');
    record(ctx, { ...frame, nested: true }, commandOf([], {}, redirects, node.text));
  } else if (body.type === 'command') {
    handleCommand(
      body,
      ctx,
      { ...frame, redirects: [...frame.redirects, ...redirects], text: node.text },
      extraArgs,
    );
  } else {
    ctx.walker.statement(body, ctx, frame, { redirects, extraArgs });
  }
  walkFollowUps(followUps, ctx, frame);
}

export function handleDeclaration(node: Node, ctx: Ctx, frame: Frame): void {
  const keyword = node.children.find((c) => !c.isNamed)?.type ?? 'declare';
  checkAdjacent(node.children, ctx);
  const pending: PendingSubstitution[] = [];
  const words: Word[] = [literal(keyword)];
  for (const child of node.namedChildren) {
    const at: Frame = { ...frame, pending, word: words.length };
    if (child.type === 'variable_assignment') {
      const a = handleAssignment(child, ctx, at);
      words.push(a ? literal(`${a.name}=${a.value}`) : unknown(child));
      continue;
    }
    if (child.type === 'comment') continue;
    const w = child.type === 'variable_name' ? literal(child.text) : evalArg(child, ctx, at);
    if (/^[-+]/.test(w.value)) {
      if (!SAFE_DECLARE_FLAGS.test(w.value))
        opaque(ctx, `\`${keyword} ${w.value}\` changes how values are evaluated`);
    } else {
      const name = w.value.split('=')[0] ?? '';
      if (name.includes('['))
        opaque(ctx, `\`${keyword}\` of an array element (arithmetic subscript)`);
      if (isDangerousEnv(name))
        opaque(ctx, `\`${keyword} ${name}\` can change which program runs or what it loads`);
    }
    words.push(w);
  }
  pushCommand(ctx, frame, node, words, pending);
}

export function handleUnset(node: Node, ctx: Ctx, frame: Frame): void {
  checkAdjacent(node.children, ctx);
  const pending: PendingSubstitution[] = [];
  const words: Word[] = [literal('unset')];
  for (const child of node.namedChildren) {
    const at: Frame = { ...frame, pending, word: words.length };
    const w = child.type === 'variable_name' ? literal(child.text) : evalArg(child, ctx, at);
    // `unset 'a[$(id)]'` evaluates the subscript.
    if (w.value.includes('[')) opaque(ctx, '`unset` of an array element (arithmetic subscript)');
    words.push(w);
  }
  pushCommand(ctx, frame, node, words, pending);
}

/** Adjacent children with no blank between them would be one word to bash. */
function checkAdjacent(children: Node[], ctx: Ctx): void {
  for (let k = 1; k < children.length; k++) {
    const a = children[k - 1] as Node;
    const b = children[k] as Node;
    if (splitsLines(ctx.source, a.endIndex, b.startIndex))
      opaque(ctx, 'the parser joined two lines into one command');
    if (b.type !== 'comment' && touches(ctx.source, a.endIndex, b.startIndex))
      opaque(ctx, 'the parser split one word in two');
  }
}

function pushCommand(
  ctx: Ctx,
  frame: Frame,
  node: Node,
  words: Word[],
  pending: PendingSubstitution[],
): void {
  const cmd = commandOf(words, {}, [...frame.redirects], frame.text ?? node.text);
  settle(pending, record(ctx, frame, cmd), 0);
}
