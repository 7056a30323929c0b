/**
 * The walk over a parsed line: statements, lists and pipelines, and everything opaque whose
 * commands are still collected as visible. Code nested in strings is parsed and walked the same
 * way, within the same budget.
 */
import type { Node } from 'web-tree-sitter';
import {
  MAX_CODE_NESTING,
  MAX_COMMAND_LENGTH,
  MAX_PARSE_MS,
  MAX_TREE_DEPTH,
  opaque,
  substitutionFrame,
  type Ctx,
  type Frame,
  type Tail,
  type Walker,
} from './context';
import { parseShell } from './parse';
import {
  handleAssignment,
  handleCommand,
  handleDeclaration,
  handleRedirected,
  handleUnset,
} from './statements';
import { SUBSTITUTION_TYPES, treeMisreads, withinBudget } from './tree';

const SEPARATORS = new Set([';', '&', '&&', '||', '|', '|&', '(', ')', '{', '}', '\n']);
const STATEMENT_TYPES = new Set([
  'command',
  'redirected_statement',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'negated_command',
  'variable_assignment',
  'variable_assignments',
  'declaration_command',
  'unset_command',
  'test_command',
  'function_definition',
  'if_statement',
  'for_statement',
  'c_style_for_statement',
  'while_statement',
  'case_statement',
]);
/** Statements that are opaque whatever they contain; their commands are still visible. */
const OPAQUE_STATEMENTS: Record<string, string> = {
  // `[[ a -eq b ]]` evaluates arithmetic, which can run code through array subscripts.
  test_command: '`[[ … ]]` conditional expression',
  function_definition: 'function definition',
  ERROR: 'syntax error: the parser did not fully understand this command',
  if_statement: 'control flow (`if`)',
  for_statement: 'control flow (`for/select`)',
  c_style_for_statement: 'control flow (`for ((…))`)',
  while_statement: 'control flow (`while/until`)',
  case_statement: 'control flow (`case`)',
};

export const WALKER: Walker = { statement: walkStatement, visit, code: walkNestedCode };

/** Parse `code` and walk it, unless the budget is (or becomes) used up. */
export function walkCode(code: string, ctx: Ctx, frame: Frame): void {
  if (ctx.run.exceeded !== null) return;
  const tree = parseShell(code, ctx.run.deadline);
  if (!tree) {
    ctx.run.exceeded = `the command is too complex to analyse (parsing took over ${MAX_PARSE_MS} ms)`;
    return;
  }
  try {
    const sub: Ctx = { ...ctx, source: code };
    const root = tree.rootNode;
    if (!withinBudget(root, ctx.run)) return;
    if (root.hasError) {
      opaque(sub, 'syntax error: the parser did not fully understand this command');
    }
    const misread = treeMisreads(root, code);
    if (misread) opaque(sub, misread);
    walkChildren(root, sub, frame);
  } finally {
    tree.delete();
  }
}

function walkNestedCode(code: string, ctx: Ctx, frame: Frame): void {
  if (ctx.codeDepth >= MAX_CODE_NESTING || code.length > MAX_COMMAND_LENGTH) {
    ctx.run.partial ??=
      ctx.codeDepth >= MAX_CODE_NESTING
        ? `the command nests code in strings more than ${MAX_CODE_NESTING} levels deep`
        : 'the command nests code too long to analyse';
    return;
  }
  const sub: Ctx = { ...ctx, codeDepth: ctx.codeDepth + 1 };
  walkCode(code, sub, {
    nested: true,
    stdinFed: frame.stdinFed,
    redirects: [],
    ...(frame.within ? { within: frame.within } : {}),
  });
}

function walkChildren(node: Node, ctx: Ctx, frame: Frame): void {
  for (const child of node.children) {
    if (child.isNamed) walkStatement(child, ctx, frame);
    else if (!SEPARATORS.has(child.type))
      opaque(ctx, `unexpected \`${child.type}\` in the command`);
  }
}

function tooDeep(ctx: Ctx): boolean {
  if (ctx.treeDepth < MAX_TREE_DEPTH) return false;
  ctx.run.partial ??= 'the command is nested too deeply to analyse';
  return true;
}

function walkStatement(node: Node, ctx: Ctx, frame: Frame, tail?: Tail): void {
  if (tooDeep(ctx)) {
    opaque(ctx, 'the command is nested too deeply to analyse');
    return;
  }
  ctx.treeDepth++;
  try {
    if (tail && node.type !== 'command' && node.type !== 'list' && node.type !== 'pipeline') {
      if (tail.extraArgs.length > 0) opaque(ctx, 'words after a redirection of a compound command');
      walkStatementInner(node, ctx, {
        ...frame,
        redirects: [...frame.redirects, ...tail.redirects],
      });
    } else {
      walkStatementInner(node, ctx, frame, tail);
    }
  } finally {
    ctx.treeDepth--;
  }
}

function walkStatementInner(node: Node, ctx: Ctx, frame: Frame, tail?: Tail): void {
  switch (node.type) {
    case 'comment':
      return;
    case 'command':
      handleCommand(
        node,
        ctx,
        tail ? { ...frame, redirects: [...frame.redirects, ...tail.redirects] } : frame,
        tail?.extraArgs ?? [],
      );
      return;
    case 'redirected_statement':
      handleRedirected(node, ctx, frame);
      return;
    case 'subshell':
    case 'compound_statement':
      walkChildren(node, ctx, frame);
      return;
    case 'list':
    case 'pipeline':
      walkSequence(node, ctx, frame, tail);
      return;
    case 'negated_command':
    case 'variable_assignments':
      // `! cmd` only inverts the exit status; `A=1 B=2` is its assignments.
      for (const child of node.namedChildren) walkStatement(child, ctx, frame);
      return;
    case 'variable_assignment':
      handleAssignment(node, ctx, frame);
      return;
    case 'declaration_command':
      handleDeclaration(node, ctx, frame);
      return;
    case 'unset_command':
      handleUnset(node, ctx, frame);
      return;
    default:
      opaque(ctx, OPAQUE_STATEMENTS[node.type] ?? `unsupported shell syntax (${node.type})`);
      visit(node, ctx, frame);
  }
}

/** A list (`a && b; c`) or a pipeline (`a | b`): the tail's redirections go to the last part. */
function walkSequence(node: Node, ctx: Ctx, frame: Frame, tail?: Tail): void {
  const last = node.namedChildren.filter((c) => c.type !== 'comment').at(-1);
  const pipeline = node.type === 'pipeline' ? ctx.run.pipelines++ : null;
  let stage = 0;
  for (const child of node.children) {
    if (!child.isNamed) {
      if (!SEPARATORS.has(child.type)) opaque(ctx, `unexpected \`${child.type}\` in the command`);
      continue;
    }
    // In a pipeline every stage after the first reads the previous one's output. (tree-sitter
    // sometimes nests `a && b | c` as `(a && b) | c`; treating all of a stage as fed only
    // makes more things opaque, never fewer.)
    const stageFrame: Frame =
      pipeline === null
        ? frame
        : { ...frame, stdinFed: frame.stdinFed || stage > 0, pipe: { id: pipeline, stage } };
    walkStatement(
      child,
      ctx,
      stageFrame,
      last !== undefined && child.equals(last) ? tail : undefined,
    );
    stage++;
  }
}

function visit(node: Node, ctx: Ctx, frame: Frame): void {
  const nested: Frame = { ...frame, nested: true, text: undefined };
  for (const child of node.namedChildren) {
    if (STATEMENT_TYPES.has(child.type)) {
      walkStatement(child, ctx, { ...nested, pending: undefined, word: undefined });
    } else if (!tooDeep(ctx)) {
      ctx.treeDepth++;
      try {
        const inner = SUBSTITUTION_TYPES.has(child.type)
          ? substitutionFrame(nested, child.type)
          : nested;
        visit(child, ctx, inner);
      } finally {
        ctx.treeDepth--;
      }
    }
  }
}
