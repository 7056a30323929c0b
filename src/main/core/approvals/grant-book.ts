import type { GrantChoice } from '../../../shared/contract';
import type { CommandView, PendingApproval } from '../../../shared/domain';
import type { Grant } from '../../../shared/rules';
import { GrantSchema } from '../../../shared/rules';
import {
  grantFromRequest,
  isGrantActive,
  prefixOffer,
  scriptOfShellArgv,
  type GrantResult,
  type RequestFacts,
} from '../rules';
import type { GrantRecord, Store } from '../store';

export interface GrantView {
  grant: Grant;
  active: boolean;
  revokeReason: string | null;
}

/**
 * The grants in force, kept in memory for the rule layer (evaluate is synchronous) and written to
 * the audit store, which is their record across restarts. A revoked or expired grant stops
 * applying at once: evaluation checks `revokedAt`/`expiresAt` against the clock on every request.
 */
export class GrantBook {
  private readonly grants = new Map<string, Grant>();

  constructor(
    private readonly store: Pick<Store, 'saveGrant' | 'revokeGrant' | 'listGrants'>,
    private readonly now: () => number,
    private readonly onChange: () => void = () => {},
    /** The grants the store kept across restarts (read before the core starts judging). */
    saved: readonly Pick<GrantRecord, 'grant'>[] = [],
  ) {
    for (const record of saved) {
      const parsed = GrantSchema.safeParse(record.grant);
      if (parsed.success) this.grants.set(parsed.data.id, parsed.data);
    }
  }

  get(grantId: string): Grant | undefined {
    return this.grants.get(grantId);
  }

  /** Grants of an agent that may apply now; evaluate checks scope, kind and match. */
  activeFor(agentId: string): Grant[] {
    const now = this.now();
    return [...this.grants.values()].filter((g) => g.agentId === agentId && isGrantActive(g, now));
  }

  async list(includeInactive = false): Promise<GrantView[]> {
    const records = await this.store.listGrants({ includeInactive });
    return records.flatMap((record) => {
      const parsed = GrantSchema.safeParse(record.grant);
      if (!parsed.success) return [];
      const grant = {
        ...parsed.data,
        ...(record.revokedAt != null ? { revokedAt: record.revokedAt } : {}),
      };
      return [
        { grant, active: isGrantActive(grant, this.now()), revokeReason: record.revokeReason },
      ];
    });
  }

  /** Remembers a person's "always", scoped as chosen and never wider than the request shown. */
  async remember(
    facts: RequestFacts,
    choice: GrantChoice,
  ): Promise<{ ok: true; grant: Grant } | { ok: false; error: string }> {
    const result = this.draft(facts, choice);
    if (!result.ok) return result;
    await this.store.saveGrant(result.grant);
    this.grants.set(result.grant.id, result.grant);
    this.onChange();
    return result;
  }

  /** Why this choice could not be remembered for this request, or null when it could. */
  refusal(facts: RequestFacts, choice: GrantChoice): string | null {
    const result = this.draft(facts, choice);
    return result.ok ? null : result.error;
  }

  private draft(facts: RequestFacts, choice: GrantChoice): GrantResult {
    const now = this.now();
    return grantFromRequest(facts, {
      scope: choice.scope,
      agentId: facts.agentId,
      sessionId: facts.sessionId,
      projectRoot: facts.projectRoot ?? facts.sessionCwd,
      now,
      ...(choice.expiresInMinutes ? { expiresAt: now + choice.expiresInMinutes * 60_000 } : {}),
      ...(choice.prefixWords !== undefined ? { prefixTokens: choice.prefixWords } : {}),
    });
  }

  async revoke(grantId: string, reason: string): Promise<boolean> {
    const grant = this.grants.get(grantId);
    // Stop applying before the audit write completes: revocation must not wait on the disk.
    if (grant) this.grants.set(grantId, { ...grant, revokedAt: this.now() });
    const revoked = await this.store.revokeGrant(grantId, { reason });
    if (revoked) this.onChange();
    return revoked;
  }

  /** A grant of scope 'once' is used up by the request it decided. */
  async used(grantId: string): Promise<void> {
    if (this.grants.get(grantId)?.scope === 'once') await this.revoke(grantId, 'used once');
  }

  /** Session grants end with their session. */
  async endSession(sessionId: string): Promise<void> {
    const ending = [...this.grants.values()].filter(
      (g) => g.scope === 'session' && g.sessionId === sessionId && g.revokedAt === undefined,
    );
    await Promise.all(ending.map((g) => this.revoke(g.id, 'session ended')));
  }
}

/**
 * The command with the words "always" may remember a prefix of, read from what the rules judge (an
 * argv that hands a script to a shell is that script).
 */
export function offerPrefix(command: CommandView | null): CommandView | null {
  if (!command) return null;
  const prefix = prefixOffer((command.args && scriptOfShellArgv(command.args)) ?? command.command);
  return prefix ? { ...command, prefix } : command;
}

/** Parts a grant is made of (the command, the paths) were cut for display. */
export function cutsFacts(approval: PendingApproval): boolean {
  return (approval.cuts ?? []).some((c) => ['command', 'locations', 'diffs'].includes(c.part));
}
