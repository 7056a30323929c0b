/**
 * Making a grant, a remembered decision (once, this session, this project, always for this agent),
 * from the request a person answered.
 *
 * A grant is never wider than what the person saw:
 * - commands: the exact argv of every simple command shown, with its env assignments and the
 *   files it writes through redirects. `npm test -- --watch` grants exactly that argv; only when
 *   the person explicitly picks "the first N words" (`prefixTokens`) of a line that runs one
 *   simple command does it become a prefix grant (prefix-grant.ts says which prefixes are
 *   refused), and even then env and redirect writes must still be identical.
 * - paths: the exact real paths (symlinks resolved) shown, nothing below or beside them.
 * Opaque shell lines cannot be remembered at all: what they run is not known, and a write to a
 * protected file is never remembered: it is asked every time.
 */
import { newId } from '../ids';
import type { PathResolver } from './paths';
import { prefixRefusal } from './prefix-grant';
import { protectedWrites } from './protected';
import { normalizeRoot, prepareRequest } from './request';
import { isFileWrite } from './shell/commands';
import {
  GrantSchema,
  type Grant,
  type GrantCommand,
  type GrantScope,
  type RequestFacts,
  type SimpleCommand,
} from './types';

export interface GrantOptions {
  scope: GrantScope;
  sessionId: string;
  agentId: string;
  projectRoot?: string | undefined;
  /** Epoch ms; "for 30 minutes" is `now + 30 * 60_000`. */
  expiresAt?: number | undefined;
  /** Creation time (epoch ms); default Date.now(). */
  now?: number | undefined;
  /** Remember only the first N words of each command (a choice the person made explicitly). */
  prefixTokens?: number | undefined;
  resolver?: PathResolver | undefined;
  /** Grant id; default a fresh UUID v7 (time-ordered, good for SQLite keys). */
  id?: string | undefined;
}

export type GrantResult = { ok: true; grant: Grant } | { ok: false; error: string };

export function grantFromRequest(request: RequestFacts, options: GrantOptions): GrantResult {
  const fail = (error: string): GrantResult => ({
    ok: false,
    error: `Cannot remember this decision: ${error}`,
  });
  const now = options.now ?? Date.now();
  const kind = request.toolKind;
  if (kind === undefined) return fail('the request does not say what kind of tool call it is');
  if (request.agentId !== options.agentId) return fail('the request comes from another agent');
  if (options.scope === 'project' && !options.projectRoot)
    return fail('a project grant needs the project root');
  if (options.expiresAt !== undefined && options.expiresAt <= now)
    return fail('the expiry time is already past');
  if (
    options.prefixTokens !== undefined &&
    (!Number.isInteger(options.prefixTokens) || options.prefixTokens < 1)
  ) {
    return fail('prefixTokens must be a whole number of at least 1');
  }

  const prep = prepareRequest(request, options.resolver);
  // Every write to one is asked (evaluate): a grant would never apply, and must not seem to.
  const guarded = protectedWrites(prep)[0];
  if (guarded)
    return fail(
      `${guarded.path.input} is a protected file (${guarded.entry.runs}), asked every time`,
    );
  const grant: Grant = {
    id: options.id ?? newId(),
    agentId: options.agentId,
    scope: options.scope,
    sessionId: options.sessionId,
    ...(options.projectRoot ? { projectRoot: normalizeRoot(options.projectRoot) } : {}),
    toolKind: kind,
    createdAt: now,
    ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt } : {}),
  };

  if (kind === 'execute') {
    const analysis = prep.analysis;
    if (!prep.hasCommandText || !analysis) return fail('the request carries no command text');
    if (analysis.kind === 'opaque')
      return fail(`the command cannot be checked automatically (${analysis.reasons.join('; ')})`);
    if (analysis.commands.length === 0) return fail('the command runs nothing');
    if (options.prefixTokens !== undefined && analysis.commands.length !== 1)
      return fail(
        `a prefix is remembered for one simple command, and this line runs ${analysis.commands.length}: remember it exactly instead`,
      );
    const commands: GrantCommand[] = [];
    const seen = new Set<string>();
    for (const cmd of analysis.commands) {
      const gc = grantCommandFor(cmd, options.prefixTokens);
      if (typeof gc === 'string') return fail(gc);
      const key = JSON.stringify(gc);
      if (!seen.has(key)) {
        seen.add(key);
        commands.push(gc);
      }
    }
    grant.commands = commands;
  } else {
    if (prep.paths.length === 0)
      return fail('the request names no file, so there is nothing specific to remember');
    const paths: string[] = [];
    for (const p of prep.paths) {
      if (p.real === null) return fail(`cannot resolve ${p.input}`);
      if (!paths.includes(p.real)) paths.push(p.real);
    }
    grant.paths = paths;
  }
  const checked = GrantSchema.safeParse(grant);
  if (!checked.success) return fail(checked.error.issues.map((i) => i.message).join('; '));
  return { ok: true, grant: checked.data };
}

function grantCommandFor(
  cmd: SimpleCommand,
  prefixTokens: number | undefined,
): GrantCommand | string {
  const writes: string[] = [];
  for (const r of cmd.redirects) {
    if (!isFileWrite(r.op, r.target)) continue;
    if (r.dynamic) return `\`${cmd.text}\` writes to a file only known when it runs`;
    writes.push(r.target);
  }
  writes.sort();
  if (prefixTokens !== undefined) {
    const refused = prefixRefusal(cmd, prefixTokens);
    if (refused !== null) return refused;
    return {
      argv: cmd.argv.slice(0, prefixTokens),
      env: { ...cmd.env },
      writes,
      dynamic: [],
      match: 'prefix',
    };
  }
  return {
    argv: [...cmd.argv],
    env: { ...cmd.env },
    writes,
    dynamic: [...cmd.dynamic].sort((a, b) => a - b),
    match: 'exact',
  };
}
