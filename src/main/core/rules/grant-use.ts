/**
 * Using a remembered grant: whether it applies to a request (agent, tool kind, scope, still
 * active), whether it covers each command or path, which grant goes first when several do, and how
 * it ends (revoked, or used up when it was for one request only).
 */
import type { Item } from './match';
import { redirectsWithinPrefix } from './prefix-grant';
import { normalizeRoot, type PreparedRequest } from './request';
import { isFileWrite } from './shell/commands';
import type { Grant, GrantCommand, GrantScope, SimpleCommand } from './types';

/** Not revoked and not expired at `now`. Revocation is final whatever `now` says. */
export function isGrantActive(grant: Grant, now: number): boolean {
  if (grant.revokedAt !== undefined) return false;
  return grant.expiresAt === undefined || now < grant.expiresAt;
}

/** Same agent, same tool kind, scope fits, still active. */
export function grantApplies(grant: Grant, prep: PreparedRequest, now: number): boolean {
  if (grant.agentId !== prep.facts.agentId || grant.toolKind !== prep.kind) return false;
  if (!isGrantActive(grant, now)) return false;
  switch (grant.scope) {
    case 'once':
    case 'session':
      return grant.sessionId !== undefined && grant.sessionId === prep.facts.sessionId;
    case 'project':
      return (
        grant.projectRoot !== undefined &&
        prep.projectRoot !== undefined &&
        normalizeRoot(grant.projectRoot) === prep.projectRoot
      );
    case 'agent':
      return true;
  }
}

export function grantCovers(grant: Grant, item: Item): boolean {
  if (item.type === 'command')
    return grant.commands?.some((gc) => grantCommandMatches(gc, item.cmd)) ?? false;
  if (item.type === 'path')
    return item.path.real !== null && (grant.paths?.includes(item.path.real) ?? false);
  return false;
}

function grantCommandMatches(gc: GrantCommand, cmd: SimpleCommand): boolean {
  const n = gc.argv.length;
  if (gc.match === 'exact' ? cmd.argv.length !== n : cmd.argv.length < n) return false;
  for (let i = 0; i < n; i++) if (cmd.argv[i] !== gc.argv[i]) return false;
  const dyn = [...cmd.dynamic].sort((a, b) => a - b);
  if (gc.match === 'exact') {
    if (dyn.join(',') !== gc.dynamic.join(',')) return false;
  } else if (dyn.some((d) => d < n) || !redirectsWithinPrefix(cmd)) return false;
  if (!sameRecord(gc.env, cmd.env)) return false;
  const writes = cmd.redirects.filter((r) => isFileWrite(r.op, r.target));
  if (writes.some((r) => r.dynamic)) return false;
  return (
    writes
      .map((r) => r.target)
      .sort()
      .join('\u0000') === gc.writes.join('\u0000')
  );
}

function sameRecord(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return (
    ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
  );
}

const SCOPE_RANK: Record<GrantScope, number> = { once: 0, session: 1, project: 2, agent: 3 };

/** Narrowest first: scope, then exact before prefix, then expiring before permanent, newest first. */
export function compareGrantNarrowness(a: Grant, b: Grant): number {
  const rank = (g: Grant): number[] => [
    SCOPE_RANK[g.scope],
    g.commands?.some((c) => c.match === 'prefix') ? 1 : 0,
    g.expiresAt === undefined ? 1 : 0,
    -g.createdAt,
  ];
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < ra.length; i++) {
    const d = (ra[i] ?? 0) - (rb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function revokeGrant(grant: Grant, now: number): Grant {
  return grant.revokedAt !== undefined ? grant : { ...grant, revokedAt: now };
}

/**
 * Call after a grant decided a request: a 'once' grant is used up (evaluate is pure and does not
 * do this itself). Other scopes are returned unchanged.
 */
export function afterGrantUse(grant: Grant, now: number): Grant {
  return grant.scope === 'once' ? revokeGrant(grant, now) : grant;
}
