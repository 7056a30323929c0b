/**
 * Redirections as bash applies them: operator, descriptor, target (or the text of a here-document
 * or here-string), plus what tree-sitter hangs on them that belongs elsewhere (words after the
 * target, the rest of a pipeline after `<<EOF`).
 */
import type { Node } from 'web-tree-sitter';
import { opaque, type Ctx, type Frame, type Word } from './context';
import { childrenWithFields, touches } from './tree';
import type { Redirect } from './types';
import { evalArg, evalWord } from './words';

/** A statement tree-sitter nested in a redirection; `stdinFed`: it reads the command's output. */
export interface FollowUp {
  node: Node;
  stdinFed: boolean;
}

export interface RedirectResult {
  redirects: Redirect[];
  extraArgs: Word[];
  followUps: FollowUp[];
}

export function handleRedirect(node: Node, ctx: Ctx, frame: Frame): RedirectResult {
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
        ctx.walker.visit(c, ctx, frame);
      }
    }
    if (op === '>&-' || op === '<&-') {
      out.redirects.push({ op, target: '-', ...(fd !== undefined ? { fd } : {}) });
      return out;
    }
    for (let k = 1; k < dests.length; k++) {
      if (touches(ctx.source, (dests[k - 1] as Node).endIndex, (dests[k] as Node).startIndex))
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
      ctx.walker.visit(c, ctx, frame);
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
