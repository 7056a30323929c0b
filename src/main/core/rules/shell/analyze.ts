/**
 * Shell analysis: split a command line into the simple commands bash will run, with exact argv,
 * or declare it opaque (must always ask) when the tree does not let us know what will run.
 *
 * The rule of thumb: anything whose meaning depends on run-time state in a way that can change
 * WHICH program runs or WHAT code runs is opaque. Values that are merely unknown (`$HOME` as an
 * argument, `*.ts`) stay simple but are marked dynamic, so allow matching cannot rely on them.
 *
 * Even when opaque, every simple command we can see (inside `$(…)`, `bash -c '…'`, `sudo …`,
 * loops, …) is collected as `visible`, so a deny rule still fires on `echo $(curl x)`.
 */
import type { Node } from 'web-tree-sitter';
import type { Redirect, ShellAnalysis, SimpleCommand } from '../types';
import {
  CODE_ARG_BUILTINS,
  interpreterSpec,
  isDangerousEnv,
  MISPARSE_GUARD_WORDS,
  OPAQUE_BUILTINS,
  SAFE_DECLARE_FLAGS,
  SAFE_SET_FLAGS,
  SAFE_SET_O,
  SHELL_ARG_OPTIONS,
  SHELLS,
  WRAPPERS,
  type InterpreterSpec,
  type WrapperSpec,
} from './commands';
import { parseShell } from './parse';
import {
  commandBasename,
  ansiCEnd,
  decodeAnsiC,
  findInvisible,
  hasBraceExpansion,
  hasGlob,
  isAssignmentWord,
  isSafeBracedExpansion,
  QUOTED,
  unescapeDoubleQuoted,
  unquoteBare,
} from './words';

/** Longer input is not parsed at all (opaque): nobody reviews 64 KiB of shell anyway. */
export const MAX_COMMAND_LENGTH = 64 * 1024;
/**
 * Syntax-tree nodes (named or not, across the line and all code nested in strings) and command or
 * process substitutions analysed per command. Far beyond real commands; past either bound the line
 * is opaque without being walked, so one request cannot hold the main thread.
 */
export const MAX_TREE_NODES = 50_000;
export const MAX_SUBSTITUTIONS = 256;
/** Levels of code-in-a-string (`bash -c "sh -c '…'"`) we look into for deny rules. */
const MAX_CODE_NESTING = 4;
/** Syntax-tree depth we walk; deeper input is opaque rather than a stack overflow. */
const MAX_TREE_DEPTH = 200;

/** Shared by a line and all code nested in it; `exceeded` says why analysis stopped. */
interface Budget {
  nodes: number;
  substitutions: number;
  exceeded: string | null;
}

interface Ctx {
  budget: Budget;
  source: string;
  reasons: string[];
  top: SimpleCommand[];
  visible: SimpleCommand[];
  codeDepth: number;
  treeDepth: number;
}

interface Frame {
  /** Inside something opaque: commands found here are only "visible". */
  nested: boolean;
  /** Standard input is fed by a pipe or redirect (matters for `sh`, `python`, …). */
  stdinFed: boolean;
  /** Redirects of enclosing statements (`(ls; rm x) > out`). */
  redirects: Redirect[];
  /** Source slice to report for the command (the whole redirected statement). */
  text?: string;
}

interface Word {
  value: string;
  dynamic: boolean;
  skeleton: string;
  /** Why the word is dynamic, for the command-name message. */
  pattern?: boolean;
}

const SEPARATORS = new Set([';', '&', '&&', '||', '|', '|&', '(', ')', '{', '}', '\n']);
const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
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
const CONTROL_FLOW: Record<string, string> = {
  if_statement: 'if',
  for_statement: 'for/select',
  c_style_for_statement: 'for ((…))',
  while_statement: 'while/until',
  case_statement: 'case',
};
const INPUT_OPS = new Set(['<', '<<', '<<-', '<<<', '<&']);

/** Analyses kept, by exact command text: agents run the same commands again and again. */
const CACHE_ENTRIES = 512;
/** Longer commands are analysed every time (they are rare, and would make the cache large). */
const CACHE_MAX_CHARS = 4096;
const cache = new Map<string, ShellAnalysis>();

/**
 * Analyse one shell command line. Synchronous; requires `await initShellParser()` first.
 * The result is frozen (deeply) and may be shared: the same text gives the same analysis, and
 * parsing plus walking the tree is most of what a rule check costs (measured: ~80 of ~145 µs).
 */
export function analyzeCommand(text: string): ShellAnalysis {
  if (typeof text !== 'string') throw new TypeError('analyzeCommand expects a string');
  const cached = cache.get(text);
  if (cached) {
    // Most recently used last, so the oldest entry is the first to go.
    cache.delete(text);
    cache.set(text, cached);
    return cached;
  }
  const analysis = deepFreeze(analyzeUncached(text));
  if (text.length <= CACHE_MAX_CHARS) {
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(text, analysis);
  }
  return analysis;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

function analyzeUncached(text: string): ShellAnalysis {
  if (text.length > MAX_COMMAND_LENGTH) {
    // Still make sure the parser was initialised, so misuse is reported consistently.
    parseShell('').delete();
    return {
      kind: 'opaque',
      reasons: [`the command is too long to analyse (${text.length} characters)`],
      visible: [],
      tooComplex: true,
    };
  }
  const budget: Budget = { nodes: 0, substitutions: 0, exceeded: null };
  const ctx: Ctx = {
    budget,
    source: text,
    reasons: [],
    top: [],
    visible: [],
    codeDepth: 0,
    treeDepth: 0,
  };
  const invisible = findInvisible(text);
  if (invisible) {
    ctx.reasons.push(`the command contains an invisible or control character (${invisible})`);
  }
  walkCode(text, ctx, { nested: false, stdinFed: false, redirects: [] });
  if (budget.exceeded !== null) {
    // What was seen before the budget ran out is incomplete, so no part of it may decide.
    return { kind: 'opaque', reasons: [budget.exceeded], visible: [], tooComplex: true };
  }
  if (ctx.reasons.length > 0) {
    return { kind: 'opaque', reasons: [...new Set(ctx.reasons)], visible: ctx.visible };
  }
  return { kind: 'simple', commands: ctx.top };
}

function walkCode(code: string, ctx: Ctx, frame: Frame): void {
  const tree = parseShell(code);
  try {
    const sub: Ctx = { ...ctx, source: code };
    const root = tree.rootNode;
    if (!withinBudget(root, ctx.budget)) return;
    if (root.hasError) {
      sub.reasons.push('syntax error: the parser did not fully understand this command');
    }
    const misread = treeMisreads(root, code);
    if (misread) sub.reasons.push(misread);
    walkChildren(root, sub, frame);
  } finally {
    tree.delete();
  }
}

const SUBSTITUTION_TYPES = new Set(['command_substitution', 'process_substitution']);

/**
 * Count the tree against the budget before walking it (one cursor pass, no recursion), and
 * record why when it does not fit. Also stops nested code once an earlier part used the budget up.
 */
function withinBudget(root: Node, budget: Budget): boolean {
  if (budget.exceeded !== null) return false;
  const cursor = root.walk();
  try {
    for (;;) {
      budget.nodes++;
      if (SUBSTITUTION_TYPES.has(cursor.nodeType)) budget.substitutions++;
      if (budget.nodes > MAX_TREE_NODES) {
        budget.exceeded = `the command is too complex to analyse (more than ${MAX_TREE_NODES} syntax nodes)`;
        return false;
      }
      if (budget.substitutions > MAX_SUBSTITUTIONS) {
        budget.exceeded = `the command is too complex to analyse (more than ${MAX_SUBSTITUTIONS} command substitutions)`;
        return false;
      }
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return true;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Children with their field names in one pass: `child(i)` and `fieldNameForChild(i)` each start over from the first child. */
function childrenWithFields(node: Node): Array<{ node: Node; field: string | null }> {
  const out: Array<{ node: Node; field: string | null }> = [];
  const cursor = node.walk();
  try {
    if (cursor.gotoFirstChild()) {
      do out.push({ node: cursor.currentNode, field: cursor.currentFieldName });
      while (cursor.gotoNextSibling());
    }
  } finally {
    cursor.delete();
  }
  return out;
}

/** Nodes whose text we read from the source as a whole (their children may leave gaps). */
const WHOLE_TEXT_NODES = new Set([
  'string',
  'heredoc_body',
  'expansion',
  'raw_string',
  'ansi_c_string',
]);

/**
 * Where tree-sitter's reading of the source provably differs from bash's, or null.
 *
 * - Non-blank text no token covers: tree-sitter-bash drops an escaped blank at the start of a word
 *   (`\ r` becomes `r`, `a \  b` loses its middle argument).
 * - A line continuation glued to the text before it: bash removes backslash-newline BEFORE it
 *   splits words, so `r\<newline>#x; rm -rf /` is the word `r#x` followed by `rm -rf /`, while
 *   tree-sitter reads a comment. Only `…<blank>\<newline>` continuations are accepted.
 */
function treeMisreads(root: Node, source: string): string | null {
  const cursor = root.walk();
  let pos = 0;
  let problem: string | null = null;
  const gap = (end: number): void => {
    if (end <= pos || problem) return;
    const text = source.slice(pos, end);
    if (!/^(?:[ \t\n]|\\\n)*$/.test(text)) {
      problem = 'the parser skipped part of the command';
      return;
    }
    for (let k = text.indexOf('\\\n'); k !== -1; k = text.indexOf('\\\n', k + 2)) {
      const before = source[pos + k - 1];
      if (before !== ' ' && before !== '\t') {
        problem = 'a line continuation (backslash-newline) inside a word or operator';
        return;
      }
    }
  };
  try {
    for (;;) {
      const type = cursor.nodeType;
      if (!WHOLE_TEXT_NODES.has(type) && cursor.gotoFirstChild()) continue;
      gap(cursor.startIndex);
      // A bare word never contains an unescaped blank or newline in bash; tree-sitter glues the
      // next line onto a word after a comment (`r #c⏎\\x`) and reads `] ]` as one word.
      if (type === 'word' && !problem && hasUnescapedBlank(cursor.nodeText)) {
        problem = 'the parser read several words as one';
      }
      // `#` starts a comment only at the start of a word (`r#r` is a word).
      if (type === 'comment' && !problem) {
        const before = source[cursor.startIndex - 1];
        if (before !== undefined && !' \t\n;&|()<>'.includes(before))
          problem = 'the parser read part of a word as a comment';
      }
      pos = Math.max(pos, cursor.endIndex);
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          gap(source.length);
          return problem;
        }
      }
    }
  } finally {
    cursor.delete();
  }
}

function hasUnescapedBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === ' ' || c === '\t' || c === '\n') return true;
  }
  return false;
}

/** Look into shell code carried as a string (`bash -c`, `eval`, `ssh host …`) for deny rules. */
function walkNestedCode(code: string, ctx: Ctx, frame: Frame): void {
  if (ctx.codeDepth >= MAX_CODE_NESTING || code.length > MAX_COMMAND_LENGTH) return;
  const sub: Ctx = { ...ctx, codeDepth: ctx.codeDepth + 1 };
  walkCode(code, sub, { nested: true, stdinFed: frame.stdinFed, redirects: [] });
}

function opaque(ctx: Ctx, reason: string): void {
  ctx.reasons.push(reason);
}

function walkChildren(node: Node, ctx: Ctx, frame: Frame): void {
  for (const child of node.children) {
    if (child.isNamed) walkStatement(child, ctx, frame);
    else if (!SEPARATORS.has(child.type))
      opaque(ctx, `unexpected \`${child.type}\` in the command`);
  }
}

/**
 * Redirections (and stray words) written after a list or pipeline. tree-sitter-bash attaches
 * `a && b > f` to the whole list, but in bash redirections belong to one command: the last one.
 */
interface Tail {
  redirects: Redirect[];
  extraArgs: Word[];
}

function walkStatement(node: Node, ctx: Ctx, frame: Frame, tail?: Tail): void {
  if (ctx.treeDepth >= MAX_TREE_DEPTH) {
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
    case 'pipeline': {
      const last = node.namedChildren.filter((c) => c.type !== 'comment').at(-1);
      let stage = 0;
      for (const child of node.children) {
        if (!child.isNamed) {
          if (!SEPARATORS.has(child.type))
            opaque(ctx, `unexpected \`${child.type}\` in the command`);
          continue;
        }
        // In a pipeline every stage after the first reads the previous one's output. (tree-sitter
        // sometimes nests `a && b | c` as `(a && b) | c`; treating all of a stage as fed only
        // makes more things opaque, never fewer.)
        const stageFrame =
          node.type === 'pipeline' ? { ...frame, stdinFed: frame.stdinFed || stage > 0 } : frame;
        walkStatement(
          child,
          ctx,
          stageFrame,
          last !== undefined && child.equals(last) ? tail : undefined,
        );
        stage++;
      }
      return;
    }
    case 'negated_command':
      // `! cmd` only inverts the exit status.
      for (const child of node.namedChildren) walkStatement(child, ctx, frame);
      return;
    case 'variable_assignment':
      handleAssignment(node, ctx, frame);
      return;
    case 'variable_assignments':
      for (const child of node.namedChildren) walkStatement(child, ctx, frame);
      return;
    case 'declaration_command':
      handleDeclaration(node, ctx, frame);
      return;
    case 'unset_command':
      handleUnset(node, ctx, frame);
      return;
    case 'test_command':
      // `[[ a -eq b ]]` evaluates arithmetic, which can run code through array subscripts.
      opaque(ctx, '`[[ … ]]` conditional expression');
      visit(node, ctx, frame);
      return;
    case 'function_definition':
      opaque(ctx, 'function definition');
      visit(node, ctx, frame);
      return;
    case 'ERROR':
      opaque(ctx, 'syntax error: the parser did not fully understand this command');
      visit(node, ctx, frame);
      return;
    default: {
      const flow = CONTROL_FLOW[node.type];
      opaque(ctx, flow ? `control flow (\`${flow}\`)` : `unsupported shell syntax (${node.type})`);
      visit(node, ctx, frame);
    }
  }
}

/** Collect commands inside something already opaque, for deny rules only. */
function visit(node: Node, ctx: Ctx, frame: Frame): void {
  const nested: Frame = { ...frame, nested: true, text: undefined };
  for (const child of node.namedChildren) {
    if (STATEMENT_TYPES.has(child.type)) walkStatement(child, ctx, nested);
    else if (ctx.treeDepth < MAX_TREE_DEPTH) {
      ctx.treeDepth++;
      try {
        visit(child, ctx, nested);
      } finally {
        ctx.treeDepth--;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Words

function literal(value: string): Word {
  return { value, dynamic: false, skeleton: QUOTED.repeat(value.length) };
}

function unknown(node: Node): Word {
  return { value: node.text, dynamic: true, skeleton: QUOTED };
}

function evalWord(node: Node, ctx: Ctx, frame: Frame): Word {
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
        visit(node, ctx, frame);
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
      visit(node, ctx, frame);
      return unknown(node);
    case 'process_substitution':
      opaque(ctx, 'process substitution `<(…)` / `>(…)`');
      visit(node, ctx, frame);
      return unknown(node);
    case 'arithmetic_expansion':
      opaque(ctx, 'arithmetic expansion `$((…))`');
      visit(node, ctx, frame);
      return unknown(node);
    case 'translated_string':
      opaque(ctx, 'locale-translated string `$"…"`');
      return unknown(node);
    default:
      opaque(
        ctx,
        `unsupported word syntax (${node.type === node.text ? `\`${node.type}\`` : node.type})`,
      );
      visit(node, ctx, frame);
      return unknown(node);
  }
}

/** A command-line argument: a word plus the glob/brace expansion bash applies to unquoted text. */
function evalArg(node: Node, ctx: Ctx, frame: Frame): Word {
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
        visit(child, ctx, frame);
        value += child.text;
        dynamic = true;
    }
    pos = child.endIndex;
  }
  if (end > pos) value += unescapeDoubleQuoted(ctx.source.slice(pos, end));
  return { value, dynamic, skeleton: QUOTED };
}

// ---------------------------------------------------------------------------------------------
// Statements

function handleAssignment(
  node: Node,
  ctx: Ctx,
  frame: Frame,
): { name: string; value: string } | null {
  const nameNode = node.childForFieldName('name');
  if (!nameNode || nameNode.type !== 'variable_name') {
    // `a[i+1]=x`: the subscript is arithmetic.
    opaque(ctx, `assignment to an array element (${nameNode?.text ?? node.text})`);
    visit(node, ctx, frame);
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
      visit(valueNode, ctx, frame);
      return null;
    }
    value = evalWord(valueNode, ctx, frame).value;
  }
  if (isDangerousEnv(name)) {
    opaque(ctx, `assignment to ${name} can change which program runs or what it loads`);
  }
  return { name, value };
}

function handleCommand(node: Node, ctx: Ctx, frame: Frame, extraArgs: Word[]): void {
  const env: Record<string, string> = {};
  const words: Word[] = [];
  const redirects = [...frame.redirects];
  const followUps: FollowUp[] = [];
  let reservedName: string | null = null;
  let sawName = false;
  let prevWordEnd = -1;
  let prevEnd = -1;

  for (const { node: child, field } of childrenWithFields(node)) {
    if (prevEnd >= 0 && splitsLines(ctx, prevEnd, child.startIndex)) {
      opaque(ctx, 'the parser joined two lines into one command');
    }
    prevEnd = child.endIndex;
    const isWord =
      child.type === 'variable_assignment' || child.type === 'command_name' || field === 'argument';
    // Two words with nothing between them are ONE word to bash: tree-sitter splits `'r'\m` into
    // `r` and `m`, which would hide `rm`. Opaque, and glued back so deny rules still see `rm`.
    const glued = isWord && prevWordEnd >= 0 && touches(ctx, prevWordEnd, child.startIndex);
    if (glued) opaque(ctx, `the parser split one word in two (${node.text.slice(0, 60)})`);
    prevWordEnd = isWord ? child.endIndex : -1;
    if (glued && child.type !== 'variable_assignment' && words.length > 0) {
      const prev = words.pop() as Word;
      const w =
        child.type === 'command_name' && child.namedChild(0)
          ? evalArg(child.namedChild(0) as Node, ctx, frame)
          : evalArg(child, ctx, frame);
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
      const a = handleAssignment(child, ctx, frame);
      if (a) env[a.name] = a.value;
    } else if (child.type === 'command_name') {
      sawName = true;
      const inner = child.namedChildCount === 1 ? child.namedChild(0) : null;
      if (!inner) {
        opaque(ctx, 'unsupported command name');
        visit(child, ctx, frame);
        words.push(unknown(child));
        continue;
      }
      const w = evalArg(inner, ctx, frame);
      if (!w.dynamic && w.skeleton === w.value && MISPARSE_GUARD_WORDS.has(w.value))
        reservedName = w.value;
      words.push(w);
    } else if (REDIRECT_TYPES.has(child.type)) {
      const r = handleRedirect(child, ctx, frame);
      redirects.push(...r.redirects);
      words.push(...r.extraArgs);
      followUps.push(...r.followUps);
    } else if (child.type === 'comment') {
      continue;
    } else if (field === 'argument') {
      words.push(evalArg(child, ctx, frame));
    } else {
      opaque(ctx, `unsupported syntax in a command (${child.type})`);
      visit(child, ctx, frame);
    }
  }
  words.push(...extraArgs);

  const cmd: SimpleCommand = {
    argv: words.map((w) => w.value),
    env,
    redirects,
    text: frame.text ?? node.text,
    dynamic: words.flatMap((w, i) => (w.dynamic ? [i] : [])),
  };
  if (reservedName !== null) {
    opaque(
      ctx,
      `reserved word \`${reservedName}\` in command position (the parse may not match bash)`,
    );
  }
  const first = words[0];
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
  const stdinFed =
    frame.stdinFed ||
    redirects.some((r) => INPUT_OPS.has(r.op) && (r.fd === undefined || r.fd === 0));
  classify(cmd, ctx, { ...frame, stdinFed });
  for (const f of followUps)
    walkStatement(f.node, ctx, { ...frame, stdinFed: f.stdinFed, redirects: [], text: undefined });
}

interface FollowUp {
  node: Node;
  stdinFed: boolean;
}

interface RedirectResult {
  redirects: Redirect[];
  extraArgs: Word[];
  followUps: FollowUp[];
}

function handleRedirect(node: Node, ctx: Ctx, frame: Frame): RedirectResult {
  const out: RedirectResult = { redirects: [], extraArgs: [], followUps: [] };
  let op = '';
  let fd: number | undefined;
  const setFd = (n: Node): void => {
    fd = Number.parseInt(n.text, 10);
  };

  if (node.type === 'file_redirect') {
    const dests: Node[] = [];
    for (const { node: c, field } of childrenWithFields(node)) {
      if (field === 'descriptor') setFd(c);
      else if (field === 'destination') dests.push(c);
      else if (!c.isNamed && op === '') op = c.type;
      else {
        opaque(ctx, `unsupported redirection syntax (${c.type})`);
        visit(c, ctx, frame);
      }
    }
    if (op === '>&-' || op === '<&-') {
      out.redirects.push({ op, target: '-', ...(fd !== undefined ? { fd } : {}) });
      return out;
    }
    for (let k = 1; k < dests.length; k++) {
      if (touches(ctx, (dests[k - 1] as Node).endIndex, (dests[k] as Node).startIndex))
        opaque(ctx, 'the parser split one word in two');
    }
    const [targetNode, ...rest] = dests;
    if (!targetNode) {
      opaque(ctx, 'a redirection without a target');
      return out;
    }
    const t = evalArg(targetNode, ctx, frame);
    out.redirects.push({
      op,
      target: t.value,
      ...(fd !== undefined ? { fd } : {}),
      ...(t.dynamic ? { dynamic: true } : {}),
    });
    // tree-sitter attaches words after a redirect target to the redirect; bash gives them to the command.
    for (const r of rest) out.extraArgs.push(evalArg(r, ctx, frame));
    return out;
  }

  if (node.type === 'herestring_redirect') {
    let value: Word | null = null;
    for (const { node: c, field } of childrenWithFields(node)) {
      if (field === 'descriptor') setFd(c);
      else if (!c.isNamed) op = op || c.type;
      else value = evalWord(c, ctx, frame);
    }
    out.redirects.push({
      op: op || '<<<',
      target: value?.value ?? '',
      ...(fd !== undefined ? { fd } : {}),
      ...(value?.dynamic ? { dynamic: true } : {}),
    });
    return out;
  }

  // heredoc_redirect
  let quoted = false;
  let body = '';
  let dynamic = false;
  for (const { node: c, field } of childrenWithFields(node)) {
    if (field === 'descriptor') setFd(c);
    else if (field === 'argument') out.extraArgs.push(evalArg(c, ctx, frame));
    else if (field === 'redirect') {
      const r = handleRedirect(c, ctx, frame);
      out.redirects.push(...r.redirects);
      out.extraArgs.push(...r.extraArgs);
      out.followUps.push(...r.followUps);
    } else if (field === 'right') out.followUps.push({ node: c, stdinFed: false });
    else if (field === 'operator') continue;
    else if (c.type === 'heredoc_start') quoted = /['"\\]/.test(c.text);
    else if (c.type === 'heredoc_body') {
      const b = quoted ? { value: c.text, dynamic: false } : evalHeredocBody(c, ctx, frame);
      body = b.value;
      dynamic = b.dynamic;
    } else if (c.type === 'heredoc_end') continue;
    else if (c.type === 'pipeline') {
      // `cat <<EOF | sh`: tree-sitter nests the rest of the pipeline inside the redirect.
      for (const s of c.namedChildren) out.followUps.push({ node: s, stdinFed: true });
    } else if (!c.isNamed) {
      if (op === '') op = c.type;
    } else {
      opaque(ctx, `unsupported here-document syntax (${c.type})`);
      visit(c, ctx, frame);
    }
  }
  out.redirects.unshift({
    op: op || '<<',
    target: body,
    ...(fd !== undefined ? { fd } : {}),
    ...(dynamic ? { dynamic: true } : {}),
  });
  return out;
}

function evalHeredocBody(node: Node, ctx: Ctx, frame: Frame): { value: string; dynamic: boolean } {
  let value = '';
  let dynamic = false;
  let pos = node.startIndex;
  const unescape = (s: string): string => s.replace(/\\([$`\\])/g, '$1').replace(/\\\n/g, '');
  for (const child of node.children) {
    if (child.startIndex > pos) value += unescape(ctx.source.slice(pos, child.startIndex));
    if (child.type === 'heredoc_content') value += unescape(child.text);
    else {
      const w = evalWord(child, ctx, frame);
      value += w.value;
      dynamic ||= w.dynamic;
    }
    pos = child.endIndex;
  }
  if (node.endIndex > pos) value += unescape(ctx.source.slice(pos, node.endIndex));
  return { value, dynamic };
}

function handleRedirected(node: Node, ctx: Ctx, frame: Frame): void {
  const redirects: Redirect[] = [];
  const extraArgs: Word[] = [];
  const followUps: FollowUp[] = [];
  let body: Node | null = null;
  for (const { node: c, field } of childrenWithFields(node)) {
    if (field === 'body') body = c;
    else if (REDIRECT_TYPES.has(c.type)) {
      const r = handleRedirect(c, ctx, frame);
      redirects.push(...r.redirects);
      extraArgs.push(...r.extraArgs);
      followUps.push(...r.followUps);
    } else if (c.type !== 'comment') {
      opaque(ctx, `unsupported syntax around a redirection (${c.type})`);
      visit(c, ctx, frame);
    }
  }
  if (!body) {
    // `> file` alone truncates a file; there is no command a rule could match.
    opaque(ctx, 'a redirection without a command');
    ctx.visible.push({ argv: [], env: {}, redirects, text: node.text, dynamic: [] });
  } else if (body.type === 'command') {
    handleCommand(
      body,
      ctx,
      { ...frame, redirects: [...frame.redirects, ...redirects], text: node.text },
      extraArgs,
    );
  } else {
    walkStatement(body, ctx, frame, { redirects, extraArgs });
  }
  for (const f of followUps)
    walkStatement(f.node, ctx, { ...frame, stdinFed: f.stdinFed, redirects: [], text: undefined });
}

function handleDeclaration(node: Node, ctx: Ctx, frame: Frame): void {
  const keyword = node.children.find((c) => !c.isNamed)?.type ?? 'declare';
  checkAdjacent(node.children, ctx);
  const words: Word[] = [literal(keyword)];
  for (const child of node.namedChildren) {
    if (child.type === 'variable_assignment') {
      const a = handleAssignment(child, ctx, frame);
      words.push(a ? literal(`${a.name}=${a.value}`) : unknown(child));
      continue;
    }
    if (child.type === 'comment') continue;
    const w = child.type === 'variable_name' ? literal(child.text) : evalArg(child, ctx, frame);
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
  pushCommand(ctx, frame, node, words);
}

function handleUnset(node: Node, ctx: Ctx, frame: Frame): void {
  checkAdjacent(node.children, ctx);
  const words: Word[] = [literal('unset')];
  for (const child of node.namedChildren) {
    const w = child.type === 'variable_name' ? literal(child.text) : evalArg(child, ctx, frame);
    // `unset 'a[$(id)]'` evaluates the subscript.
    if (w.value.includes('[')) opaque(ctx, '`unset` of an array element (arithmetic subscript)');
    words.push(w);
  }
  pushCommand(ctx, frame, node, words);
}

/**
 * Nothing but backslash-newline between two tokens: bash removes line continuations before it
 * splits words, so they are one word (`a\<newline>b` is `ab`).
 */
function touches(ctx: Ctx, end: number, start: number): boolean {
  return start === end || (start > end && /^(?:\\\n)+$/.test(ctx.source.slice(end, start)));
}

/** A raw newline between two parts of one command: bash would have ended the command there. */
function splitsLines(ctx: Ctx, end: number, start: number): boolean {
  return start > end && ctx.source.slice(end, start).replace(/\\\n/g, '').includes('\n');
}

/** Adjacent children with no blank between them would be one word to bash. */
function checkAdjacent(children: Node[], ctx: Ctx): void {
  for (let k = 1; k < children.length; k++) {
    const a = children[k - 1] as Node;
    const b = children[k] as Node;
    if (splitsLines(ctx, a.endIndex, b.startIndex))
      opaque(ctx, 'the parser joined two lines into one command');
    if (b.type !== 'comment' && touches(ctx, a.endIndex, b.startIndex))
      opaque(ctx, 'the parser split one word in two');
  }
}

function pushCommand(ctx: Ctx, frame: Frame, node: Node, words: Word[]): void {
  const cmd: SimpleCommand = {
    argv: words.map((w) => w.value),
    env: {},
    redirects: [...frame.redirects],
    text: frame.text ?? node.text,
    dynamic: words.flatMap((w, i) => (w.dynamic ? [i] : [])),
  };
  ctx.visible.push(cmd);
  if (!frame.nested) ctx.top.push(cmd);
}

// ---------------------------------------------------------------------------------------------
// Programs with special meaning

function classify(cmd: SimpleCommand, ctx: Ctx, frame: Frame): void {
  const { argv } = cmd;
  const name = argv[0];
  if (name === undefined) {
    ctx.visible.push(cmd);
    return;
  }
  const base = commandBasename(name);
  const staticName = !cmd.dynamic.includes(0);
  if (name.startsWith('%')) {
    // `%1` / `%name` as a command resumes a background job.
    ctx.visible.push(cmd);
    opaque(ctx, `job control (${name})`);
    return;
  }

  if (staticName && (base === 'env' || base === 'time' || base === 'nice')) {
    const inner = unwrapExactly(cmd, base);
    if (inner) {
      classify(inner, ctx, frame);
      return;
    }
  }

  ctx.visible.push(cmd);
  if (!frame.nested) ctx.top.push(cmd);
  if (!staticName) return;

  for (const key of Object.keys(cmd.env)) {
    if (isDangerousEnv(key))
      opaque(ctx, `assignment to ${key} can change which program runs or what it loads`);
  }

  const builtinReason = OPAQUE_BUILTINS[base];
  if (builtinReason !== undefined) {
    opaque(ctx, builtinReason);
    if (CODE_ARG_BUILTINS.has(base)) {
      const codeWords = base === 'trap' ? argv.slice(1, 2) : argv.slice(1);
      if (!cmd.dynamic.some((i) => i >= 1)) walkNestedCode(codeWords.join(' '), ctx, frame);
    } else if (base === 'exec' || base === 'command' || base === 'builtin') {
      const spec: WrapperSpec = { argOptions: ['-a'], operands: 0, reason: builtinReason };
      classifyInner(cmd, extractInner(argv, spec, 1), ctx, frame);
    }
    return;
  }

  if (base === 'set') {
    for (let i = 1; i < argv.length; i++) {
      const t = argv[i] ?? '';
      // `-o name` may end a flag cluster: `set -euo pipefail`.
      if (
        /^[-+][euxvEh]*o$/.test(t) &&
        SAFE_SET_O.has(argv[i + 1] ?? '') &&
        !cmd.dynamic.includes(i + 1)
      ) {
        i++;
        continue;
      }
      if (!SAFE_SET_FLAGS.test(t) || cmd.dynamic.includes(i)) {
        opaque(ctx, `\`set ${t}\` changes how later words are interpreted`);
        return;
      }
    }
    return;
  }
  if (base === 'read' && argv.some((t) => t.includes('['))) {
    opaque(ctx, '`read` into an array element (arithmetic subscript)');
    return;
  }
  if (base === 'printf' && argv.slice(1).some((t) => t === '-v' || t.startsWith('-v'))) {
    opaque(ctx, '`printf -v` assigns to a variable (possibly an array element)');
    return;
  }

  if (SHELLS.has(base)) {
    classifyShell(cmd, base, ctx, frame);
    return;
  }
  const interp = interpreterSpec(base);
  if (interp) {
    classifyInterpreter(cmd, base, interp, ctx, frame);
    return;
  }
  if (base === 'find') {
    classifyFind(cmd, ctx, frame);
    return;
  }
  if (
    (base === 'npx' || (base === 'npm' && (argv[1] === 'exec' || argv[1] === 'x'))) &&
    argv.some((t) => t === '-c' || t === '--call' || t.startsWith('--call='))
  ) {
    opaque(ctx, `\`${base} … -c\` runs its argument as shell code`);
    const i = argv.findIndex((t) => t === '-c' || t === '--call');
    const code =
      i >= 0 ? argv[i + 1] : argv.find((t) => t.startsWith('--call='))?.slice('--call='.length);
    if (code !== undefined) walkNestedCode(code, ctx, frame);
    return;
  }
  const wrapper = WRAPPERS[base];
  if (wrapper) {
    opaque(ctx, wrapper.reason);
    classifyWrapper(cmd, wrapper, ctx, frame);
  }
}

/**
 * `env X=1 cmd`, `time [-p] cmd`, `nice [-n N] cmd`: these run `cmd` with nothing else changed
 * that a rule cares about, so the inner command stands in their place. Returns null when the
 * options are anything else (then the wrapper is opaque).
 */
function unwrapExactly(cmd: SimpleCommand, base: string): SimpleCommand | null {
  const { argv } = cmd;
  const env = { ...cmd.env };
  let i = 1;
  const isStatic = (k: number): boolean => !cmd.dynamic.includes(k);
  if (base === 'env') {
    if (argv[i] === '--') i++;
    while (i < argv.length && isStatic(i) && isAssignmentWord(argv[i] ?? '')) {
      const word = argv[i] ?? '';
      const eq = word.indexOf('=');
      env[word.slice(0, eq)] = word.slice(eq + 1);
      i++;
    }
    if (i < argv.length && (!isStatic(i) || (argv[i] ?? '').startsWith('-'))) return null;
  } else if (base === 'time') {
    if (argv[i] === '-p') i++;
    if (i < argv.length && (!isStatic(i) || (argv[i] ?? '').startsWith('-'))) return null;
  } else {
    const a = argv[i];
    if (a === '-n' && /^-?\d+$/.test(argv[i + 1] ?? '') && isStatic(i + 1)) i += 2;
    else if (a !== undefined && /^(-\d+|-n-?\d+|--adjustment=-?\d+)$/.test(a) && isStatic(i)) i++;
    if (i < argv.length && (!isStatic(i) || (argv[i] ?? '').startsWith('-'))) return null;
  }
  if (i >= argv.length) return null; // `env`, `time`, `nice` alone: an ordinary command
  return {
    argv: argv.slice(i),
    env,
    redirects: cmd.redirects,
    text: cmd.text,
    dynamic: cmd.dynamic.filter((k) => k >= i).map((k) => k - i),
    unwrappedFrom: cmd.unwrappedFrom ?? argv,
  };
}

/** Index where the wrapped command starts, skipping the wrapper's options and operands. */
function extractInner(argv: string[], spec: WrapperSpec, start: number): number | null {
  let i = start;
  while (i < argv.length) {
    const t = argv[i] ?? '';
    if (t === '--') {
      i++;
      break;
    }
    if (t.startsWith('-') && t.length > 1) {
      i += spec.argOptions.includes(t) ? 2 : 1;
      continue;
    }
    if (isAssignmentWord(t)) {
      i++; // env-style assignments (`env -i X=1 cmd`, `sudo X=1 cmd`)
      continue;
    }
    break;
  }
  i += spec.operands;
  return i < argv.length ? i : null;
}

function classifyInner(cmd: SimpleCommand, start: number | null, ctx: Ctx, frame: Frame): void {
  if (start === null) return;
  const inner: SimpleCommand = {
    argv: cmd.argv.slice(start),
    env: {},
    redirects: cmd.redirects,
    text: cmd.text,
    dynamic: cmd.dynamic.filter((k) => k >= start).map((k) => k - start),
  };
  classify(inner, ctx, { ...frame, nested: true });
}

function classifyWrapper(cmd: SimpleCommand, spec: WrapperSpec, ctx: Ctx, frame: Frame): void {
  const { argv } = cmd;
  if (spec.codeOption) {
    const i = argv.findIndex((t, k) => k > 0 && (t === spec.codeOption || t === '--command'));
    const eq = argv.find((t) => t.startsWith('--command='));
    const code = i > 0 ? argv[i + 1] : eq?.slice('--command='.length);
    if (code !== undefined) {
      walkNestedCode(code, ctx, frame);
      return;
    }
  }
  const start = extractInner(argv, spec, 1);
  if (spec.joinsCode) {
    if (start !== null && !cmd.dynamic.some((k) => k >= start)) {
      walkNestedCode(argv.slice(start).join(' '), ctx, frame);
    }
    return;
  }
  classifyInner(cmd, start, ctx, frame);
}

function classifyShell(cmd: SimpleCommand, base: string, ctx: Ctx, frame: Frame): void {
  const { argv } = cmd;
  let operand = false;
  let code: string | undefined;
  let codeFlag = false;
  let stdinFlag = false;
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i] ?? '';
    if (cmd.dynamic.includes(i)) {
      if (!operand) codeFlag = true; // an option we cannot read
      continue;
    }
    if (t === '-') {
      stdinFlag = true;
      continue;
    }
    if (t === '--') continue;
    if (SHELL_ARG_OPTIONS.has(t)) {
      i++;
      continue;
    }
    if (
      t === '--command' ||
      t === '--init-command' ||
      t.startsWith('--command=') ||
      t.startsWith('--init-command=')
    ) {
      codeFlag = true;
      code ??= t.includes('=') ? t.slice(t.indexOf('=') + 1) : argv[i + 1];
      continue;
    }
    if (t.startsWith('--')) continue;
    if (/^-[A-Za-z]+$/.test(t)) {
      const letters = t.slice(1);
      if (letters.includes('c') || (base === 'fish' && letters.includes('C'))) {
        codeFlag = true;
        code ??= argv.slice(i + 1).find((w) => !/^[-+]/.test(w));
      }
      if (letters.includes('s') || letters.includes('i')) stdinFlag = true;
      continue;
    }
    if (/^\+[A-Za-z]+$/.test(t)) continue;
    operand = true;
  }
  if (codeFlag) {
    opaque(ctx, `\`${base} -c\` runs its argument as shell code`);
    if (code !== undefined) walkNestedCode(code, ctx, frame);
    return;
  }
  if (stdinFlag || !operand) {
    opaque(ctx, `\`${base}\` reads shell code from its input`);
    for (const r of cmd.redirects) {
      if ((r.op === '<<<' || r.op === '<<' || r.op === '<<-') && !r.dynamic)
        walkNestedCode(r.target, ctx, frame);
    }
  }
  // `bash script.sh` runs a file: an ordinary command as far as rules go (like `./script.sh`).
}

function classifyInterpreter(
  cmd: SimpleCommand,
  base: string,
  spec: InterpreterSpec,
  ctx: Ctx,
  frame: Frame,
): void {
  const { argv } = cmd;
  let operand = false;
  let stdin = false;
  let code = false;
  for (let i = 1; i < argv.length; i++) {
    const raw = argv[i] ?? '';
    if (cmd.dynamic.includes(i)) {
      if (!operand) code = true;
      continue;
    }
    const t = spec.caseInsensitive ? raw.toLowerCase() : raw;
    if (t === '-') {
      stdin = true;
      continue;
    }
    if (t === '--') continue;
    if (spec.dashLongCode?.some((o) => t === o || t.startsWith(`${o}:`))) {
      code = true;
      continue;
    }
    if (t.startsWith('--')) {
      const optName = t.split('=')[0] ?? t;
      if (spec.longCode.includes(optName)) code = true;
      continue;
    }
    if (/^-[A-Za-z0-9]/.test(t)) {
      const letters = t.slice(1);
      for (let k = 0; k < letters.length; k++) {
        const letter = letters[k] ?? '';
        const cmpLetter = spec.caseInsensitive ? letter.toLowerCase() : letter;
        if (spec.codeLetters.includes(cmpLetter)) {
          code = true;
          break;
        }
        if (spec.argLetters.includes(letter)) {
          if (k === letters.length - 1) i++; // the argument is the next word
          if (letter === 'm') operand = true; // `python -m module` runs a module, like a script
          break;
        }
      }
      continue;
    }
    if (!operand && spec.codeSubcommands?.includes(t)) code = true;
    operand = true;
  }
  if (code) {
    opaque(ctx, `\`${base}\` is given code to run on the command line`);
    return;
  }
  if (stdin || (!operand && frame.stdinFed)) {
    opaque(ctx, `\`${base}\` reads code from its input`);
  }
}

function classifyFind(cmd: SimpleCommand, ctx: Ctx, frame: Frame): void {
  const { argv } = cmd;
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i] ?? '';
    if (t !== '-exec' && t !== '-execdir' && t !== '-ok' && t !== '-okdir') continue;
    opaque(ctx, `\`find ${t}\` runs a command for each file`);
    let end = i + 1;
    while (end < argv.length && argv[end] !== ';' && argv[end] !== '+') end++;
    if (end > i + 1) {
      const start = i + 1;
      classify(
        {
          argv: argv.slice(start, end),
          env: {},
          redirects: [],
          text: cmd.text,
          dynamic: cmd.dynamic.filter((k) => k >= start && k < end).map((k) => k - start),
        },
        ctx,
        { ...frame, nested: true },
      );
    }
    i = end;
  }
}
