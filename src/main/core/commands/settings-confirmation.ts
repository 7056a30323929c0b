// A change that decides which program an agent runs (its command or ACP Registry id, args, cwd or
// environment, or a new agent) or loosens its sandbox, asked for over HTTP, waits for a person where Gatehouse runs:
// whoever holds the HTTP token (an agent can find it) must not be able to make Gatehouse spawn a
// program of its choice, nor let an agent out of its sandbox.
// The shell shows the change locally: headless prints it with a code on its own terminal, which the
// browser must send back; the desktop app asks in a native dialog. One change waits at a time, for
// ten minutes; five wrong codes discard it. Every step is audited.
import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { revealInvisibles } from '../../../shared/invisible';
import type { Settings } from '../../../shared/settings';
import { canonicalJson } from '../store/canonical';
import type { Actor } from './admin-audit';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';

export const CONFIRMATION_TTL_MS = 10 * 60_000;
export const CONFIRMATION_TRIES = 5;

export interface AgentLaunch {
  id: string;
  added: boolean;
  /** The ACP Registry id it runs, whose snapshot entry gave `command` and `args`. */
  registry?: string | null;
  command: string;
  args: string[];
  cwd: string | null;
  /** Names only: values may be secrets and are not shown. */
  envNames: string[];
  /** What the change lets the agent's sandbox reach besides ("write in /x", "connect to h:443"). */
  widens?: string[];
}

export interface LocalConfirmation {
  id: string;
  /** `482-913`: shown where Gatehouse runs, typed into the browser. */
  code: string;
  expiresAt: number;
  agents: AgentLaunch[];
  requestedBy: Actor;
}

/**
 * Injected by the shell. 'code': the shell showed the code to the person (headless: its terminal);
 * the change waits for confirmSettingsChange. 'dialog': the shell asks the person itself (desktop)
 * and resolves with the answer.
 */
export type ConfirmLocally = (
  change: LocalConfirmation,
) => { how: 'code' } | { how: 'dialog'; confirmed: Promise<boolean> };

export interface ConfirmationTicket {
  id: string;
  expiresAt: number;
  agents: string[];
  how: 'code' | 'dialog';
}

const shown = (text: string) => JSON.stringify(revealInvisibles(text, { lineBreaks: 'reveal' }));

/** One line per agent, every character visible: what the person confirms is what will run. */
export function describeLaunch(agent: AgentLaunch): string {
  const line = [agent.command, ...agent.args].map(shown).join(' ');
  const cwd = agent.cwd ? ` in ${shown(agent.cwd)}` : '';
  const env = agent.envNames.length ? ` with env ${agent.envNames.map(shown).join(', ')}` : '';
  const widens = agent.widens?.length
    ? `, its sandbox to allow ${agent.widens.map(shown).join(', ')}`
    : '';
  const registry = agent.registry ? ` (ACP Registry agent ${shown(agent.registry)})` : '';
  return `${agent.added ? 'new agent' : 'agent'} ${shown(agent.id)} command to ${line}${registry}${cwd}${env}${widens}`;
}

/** The line a headless Gatehouse prints. */
export function confirmationLine(change: LocalConfirmation, now: number): string {
  const minutes = Math.max(1, Math.round((change.expiresAt - now) / 60_000));
  const who = change.requestedBy.clientId
    ? ` (asked by client ${shown(change.requestedBy.clientId)})`
    : '';
  return `Confirm the change of ${change.agents.map(describeLaunch).join('; ')}${who}: code ${change.code} (expires in ${minutes} min)`;
}

/** Headless: the code goes to Gatehouse's own terminal (stderr), never over the network. */
export function confirmOnTerminal(
  write: (line: string) => void,
  now: () => number = Date.now,
): ConfirmLocally {
  return (change) => {
    write(confirmationLine(change, now()));
    return { how: 'code' };
  };
}

interface Pending extends LocalConfirmation {
  next: Settings;
  /** The saved settings the change was made against: confirming over newer ones would undo them. */
  basis: string;
  how: 'code' | 'dialog';
  triesLeft: number;
}

export interface ConfirmationDeps<R> {
  now: () => number;
  confirmLocally: ConfirmLocally | null;
  saved: () => Settings;
  /** The command line an agent's settings run (a registry agent's, resolved from the snapshot). */
  launchOf: (id: string, agent: Settings['agents'][string]) => { command: string; args: string[] };
  /** Applies the change and audits it as made by `by`, confirmed by `confirmedBy`. */
  apply: (next: Settings, by: Actor, confirmedBy: Actor) => Promise<R>;
  audit: (type: string, by: Actor, payload: Record<string, unknown>) => Promise<void>;
  /** Failures of a change confirmed in the dialog, which has no caller to answer. */
  report: (error: unknown) => void;
}

/** The local dialog as the confirming surface. */
const LOCAL_DIALOG: Actor = {
  clientId: null,
  identityProven: true,
  paired: true,
  surface: 'dialog',
  transport: 'internal',
};

const digits = (code: string) => code.replace(/\D/g, '');

export class SettingsConfirmations<R> {
  private pending: Pending | null = null;

  constructor(private readonly deps: ConfirmationDeps<R>) {}

  /** Keeps the change waiting for a local confirmation; an earlier waiting change is discarded. */
  async request(
    next: Settings,
    agentIds: string[],
    by: Actor,
    widens: Record<string, string[]> = {},
  ): Promise<ConfirmationTicket> {
    const { confirmLocally, now } = this.deps;
    if (!confirmLocally) {
      await this.deps.audit('settings_change_refused', by, {
        agents: agentIds,
        reason: 'no local surface to confirm it',
      });
      throw new ForbiddenError(
        "an agent's command can only be changed here from the desktop app or in settings.json: this Gatehouse has no local surface to confirm it",
      );
    }
    if (this.pending) await this.discard(this.pending, by, 'replaced by a newer change');
    const saved = this.deps.saved();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const change: LocalConfirmation = {
      id: randomUUID(),
      code: `${code.slice(0, 3)}-${code.slice(3)}`,
      expiresAt: now() + CONFIRMATION_TTL_MS,
      agents: agentIds.map((id) => {
        const agent = next.agents[id]!;
        return {
          id,
          added: !saved.agents[id],
          registry: agent.registry ?? null,
          ...this.deps.launchOf(id, agent),
          cwd: agent.cwd ?? null,
          envNames: Object.keys(agent.env),
          ...(widens[id] ? { widens: widens[id] } : {}),
        };
      }),
      requestedBy: by,
    };
    const asked = confirmLocally(change);
    const pending: Pending = {
      ...change,
      next,
      basis: canonicalJson(saved),
      how: asked.how,
      triesLeft: CONFIRMATION_TRIES,
    };
    this.pending = pending;
    await this.deps.audit('settings_change_pending', by, {
      changeId: pending.id,
      how: pending.how,
      expiresAt: pending.expiresAt,
      agents: pending.agents,
    });
    if (asked.how === 'dialog') {
      asked.confirmed.then(
        (yes) => this.answered(pending, yes).catch(this.deps.report),
        (error: unknown) => {
          this.deps.report(error);
          void this.discard(pending, LOCAL_DIALOG, 'the dialog failed').catch(this.deps.report);
        },
      );
    }
    return {
      id: pending.id,
      expiresAt: pending.expiresAt,
      agents: agentIds,
      how: pending.how,
    };
  }

  /** The browser's half of a 'code' confirmation. Returns what apply returned. */
  async confirm(id: string, code: string, by: Actor): Promise<R> {
    const pending = this.pending;
    if (!pending || pending.id !== id) {
      await this.deps.audit('settings_change_refused', by, {
        changeId: id,
        reason: 'no such change waiting',
      });
      throw new NotFoundError('no settings change is waiting with this id');
    }
    if (this.deps.now() >= pending.expiresAt) {
      await this.discard(pending, by, 'expired');
      throw new NotFoundError('the settings change expired; send it again');
    }
    if (pending.how !== 'code') {
      await this.deps.audit('settings_change_refused', by, {
        changeId: id,
        reason: 'it waits for the desktop dialog',
      });
      throw new ForbiddenError('this change is confirmed in the Gatehouse desktop dialog');
    }
    const expected = Buffer.from(digits(pending.code));
    const given = Buffer.from(digits(code));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      pending.triesLeft--;
      if (pending.triesLeft <= 0) {
        await this.discard(pending, by, 'too many wrong codes');
        throw new ForbiddenError('wrong code; the change is discarded');
      }
      await this.deps.audit('settings_change_refused', by, {
        changeId: id,
        reason: 'wrong code',
        triesLeft: pending.triesLeft,
      });
      throw new ForbiddenError(
        `wrong code; ${pending.triesLeft} ${pending.triesLeft === 1 ? 'try' : 'tries'} left`,
      );
    }
    return this.applyPending(pending, by);
  }

  private async answered(pending: Pending, yes: boolean): Promise<void> {
    if (this.pending !== pending) return;
    if (this.deps.now() >= pending.expiresAt) return this.discard(pending, LOCAL_DIALOG, 'expired');
    if (!yes) return this.discard(pending, LOCAL_DIALOG, 'declined in the dialog');
    await this.applyPending(pending, LOCAL_DIALOG);
  }

  private async applyPending(pending: Pending, by: Actor): Promise<R> {
    this.pending = null;
    if (canonicalJson(this.deps.saved()) !== pending.basis) {
      await this.deps.audit('settings_change_discarded', by, {
        changeId: pending.id,
        reason: 'the settings changed meanwhile',
      });
      throw new ConflictError('the settings changed since this change was made; send it again');
    }
    await this.deps.audit('settings_change_confirmed', by, {
      changeId: pending.id,
      agents: pending.agents.map((a) => a.id),
    });
    return this.deps.apply(pending.next, pending.requestedBy, by);
  }

  private async discard(pending: Pending, by: Actor, reason: string): Promise<void> {
    if (this.pending === pending) this.pending = null;
    await this.deps.audit('settings_change_discarded', by, { changeId: pending.id, reason });
  }
}
