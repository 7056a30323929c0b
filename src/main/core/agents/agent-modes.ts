// The modes an agent advertises, read by meaning: which of them skip asking the client (so
// Gatehouse would never see a request), and which one stands for "ask" or "plan". Agents name their
// modes differently; ids are compared only against the table of agents we know. These modes are
// one kind of side door among those listed in side-doors.ts.
import { z } from 'zod';
import type { ConfigOption } from '../../../shared/session-config';
import { readConfigOptions } from './config-options';

/** One choice an agent offers: a session mode, or a value of a mode config option. */
export interface ModeChoice {
  id: string;
  name: string;
  description: string;
}

/** Where an agent keeps its mode: its session modes, or a select config option about the mode. */
export interface ModeSelector {
  via: 'mode' | 'config';
  /** The config option's id (`via: 'config'`), empty for session modes. */
  configId: string;
  current: string;
  choices: ModeChoice[];
}

export type AgentFamily = 'claude' | 'gemini' | 'codex' | 'opencode';

/**
 * Modes known to approve by themselves. Claude's acceptEdits edits without asking, as Gemini's
 * autoEdit does; dontAsk refuses what is not pre-approved, without asking either; Claude's auto
 * has a classifier decide each permission instead of the client. Codex 0.166 (the renamed
 * codex-acp 2.x) starts in `agent`, where its own model reviews each escalation and the client is
 * never asked; `agent-full-access` (as 0.16's `full-access`) runs everything unsandboxed without
 * asking; a `permission-profile:<id>` mode asks or not as codex's own config says, which Gatehouse
 * cannot see, so it counts as not asking. An id ending in `*` names every id it begins.
 */
export const AUTO_APPROVING_MODES: Readonly<Record<AgentFamily, readonly string[]>> = {
  claude: ['bypassPermissions', 'dontAsk', 'auto', 'acceptEdits'],
  gemini: ['yolo', 'autoEdit'],
  codex: ['full-access', 'agent', 'agent-full-access', 'permission-profile:*'],
  // Its modes (build, plan) follow its permission settings; its side door is elsewhere.
  opencode: [],
};

/**
 * The mode that keeps an agent asking most, where its words do not say so: codex's `read-only` asks
 * before every edit and every command that leaves its sandbox, where its `workspace-write` lets
 * commands write the project unasked wherever codex's own sandbox runs.
 */
const MOST_ASKING: Readonly<Partial<Record<AgentFamily, string>>> = { codex: 'read-only' };

/** The family an agent belongs to, from the name it reports (else its id in the settings). */
export function agentFamily(...names: (string | null | undefined)[]): AgentFamily | null {
  for (const name of names) {
    const lower = name?.toLowerCase() ?? '';
    const found = (Object.keys(AUTO_APPROVING_MODES) as AgentFamily[]).find((f) =>
      lower.includes(f),
    );
    if (found) return found;
  }
  return null;
}

const key = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The words of a choice, camelCase split, lower case: "bypassPermissions" → "bypass permissions". */
const words = (choice: ModeChoice): string =>
  `${choice.id} ${choice.name} ${choice.description}`
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();

/** What says a mode skips asking, for agents not in the table (and as a net for those that are). */
const SKIPS_ASKING = [
  /\byolo\b/,
  /\bbypass/,
  /\bskip\w*\b.{0,24}\b(approv|permission|ask|confirm|prompt)/,
  /\bauto(matic(ally)?)?[\s-]*(approv|accept|allow|run|execut)/,
  /\baccepts? (all|every)/,
  /\bwithout (asking|approval|prompting|permission|confirmation)/,
  /\b(never|don'?t|do not) (ask|prompt)/,
  /\bno (approvals?|prompts?|permission checks?)\b/,
  /\bfull[\s-]access\b/,
  /\bunrestricted\b/,
  /\bdanger/,
  // Someone other than the client decides: a reviewing model, a classifier.
  /\bauto[\s-]*review/,
  /\bonly asks? (for|when|about|if)\b/,
  /\bhandles? (the |all )?permission/,
];

/** Whether `id` is one the table names: equal, or beginning with an entry that ends in `*`. */
const named = (table: readonly string[], id: string): boolean =>
  table.some((entry) =>
    entry.endsWith('*') ? key(id).startsWith(key(entry)) : key(entry) === key(id),
  );

export function isAutoApproving(choice: ModeChoice, family: AgentFamily | null): boolean {
  if (family && named(AUTO_APPROVING_MODES[family], choice.id)) return true;
  const text = words(choice);
  return SKIPS_ASKING.some((pattern) => pattern.test(text));
}

const PLAN_LIKE = /\b(plan|planning|read[\s-]?only)\b/;
const ASK_LIKE = /\b(ask|asks|prompts?|approval|approve|confirm|manual)\b/;
const ASK_IDS = new Set(['default', 'manual', 'ask']);

/**
 * The choice that keeps the agent asking, by meaning: for Gatehouse's plan mode a plan or read-only
 * mode, otherwise the agent's default / manual / asking mode. Never one that approves by itself.
 * Null when every choice does.
 */
export function askingChoice(
  choices: readonly ModeChoice[],
  meaning: 'ask' | 'plan',
  family: AgentFamily | null,
): ModeChoice | null {
  const safe = choices.filter((c) => !isAutoApproving(c, family));
  const plan = (c: ModeChoice) => key(c.id) === 'plan' || PLAN_LIKE.test(words(c));
  const ask = (c: ModeChoice) =>
    ASK_IDS.has(key(c.id)) || ASK_IDS.has(key(c.name)) || ASK_LIKE.test(words(c));
  const most = family ? MOST_ASKING[family] : undefined;
  const ranked =
    meaning === 'plan'
      ? [safe.find((c) => key(c.id) === 'plan'), safe.find(plan)]
      : [most === undefined ? undefined : safe.find((c) => key(c.id) === key(most))];
  ranked.push(
    safe.find((c) => ASK_IDS.has(key(c.id)) || ASK_IDS.has(key(c.name))),
    safe.find((c) => ask(c) && !plan(c)),
    safe.find(ask),
    // A mode nothing says anything about is not known to skip asking.
    safe.find((c) => !plan(c)),
    safe[0],
  );
  return ranked.find((c) => c !== undefined) ?? null;
}

// What an agent sends is untrusted: read with bounds, ignore the rest.
const Text = (max: number) => z.string().max(max);
const Mode = z.object({ id: Text(256), name: Text(1000), description: Text(4000).nullish() });
const SessionModes = z.object({ currentModeId: Text(256), availableModes: z.array(Mode).max(64) });
const choice = (c: { id: string; name: string; description?: string | null | undefined }) => ({
  id: c.id,
  name: c.name,
  description: c.description ?? '',
});

/** The session modes an agent advertised (session/new), or null. */
export function modesSelector(modes: unknown): ModeSelector | null {
  const parsed = SessionModes.safeParse(modes);
  if (!parsed.success) return null;
  const { currentModeId, availableModes } = parsed.data;
  return { via: 'mode', configId: '', current: currentModeId, choices: availableModes.map(choice) };
}

/** The config options that choose how the agent asks (config-options.ts: guarded), as selectors. */
export function configSelectors(configOptions: unknown): ModeSelector[] {
  return selectorsOf(readConfigOptions(configOptions));
}

/** configSelectors over options already read. */
export function selectorsOf(options: readonly ConfigOption[]): ModeSelector[] {
  return options.flatMap((option) =>
    option.guarded && option.type === 'select'
      ? [
          {
            via: 'config' as const,
            configId: option.id,
            current: option.currentValue,
            choices: option.values.map((v) => choice({ ...v, id: v.value })),
          },
        ]
      : [],
  );
}

/**
 * The options as a person is offered them: a value that reads as the agent no longer asking is
 * refused. The table of known agents' modes applies to guarded options only (a model called "auto"
 * is no mode); the words apply to every option.
 */
export function withRefusals(
  options: readonly ConfigOption[],
  family: AgentFamily | null,
): ConfigOption[] {
  return options.map((option) => {
    const known = option.guarded ? family : null;
    if (option.type === 'boolean') {
      const on = isAutoApproving(choice(option), known);
      return on ? { ...option, refusedOn: true as const } : option;
    }
    const values = option.values.map((v) =>
      isAutoApproving(choice({ ...v, id: v.value }), known) ? { ...v, refused: true as const } : v,
    );
    return { ...option, values };
  });
}

/** The choice a selector currently stands at (an id it does not list reads as itself). */
export function currentChoice(selector: ModeSelector): ModeChoice {
  return (
    selector.choices.find((c) => c.id === selector.current) ?? {
      id: selector.current,
      name: selector.current,
      description: '',
    }
  );
}
