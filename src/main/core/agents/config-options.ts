// The session options an agent advertises (ACP `configOptions`, in session/new, session/load, the
// answer to session/set_config_option and `config_option_update`), read as untrusted: each option
// checked on its own, ids and values never cut (they are sent back as they are), labels cut to
// size, at most CONFIG_LIMITS.options kept. An option that chooses how the agent asks is "guarded":
// it is read wherever it stands in the list, so a long list cannot hide it from the mode guard.
import { z } from 'zod';
import { CONFIG_LIMITS, type ConfigOption, type ConfigValue } from '../../../shared/session-config';

const L = CONFIG_LIMITS;
const Id = z.string().min(1).max(L.id);
const Label = (max: number) => z.string().transform((s) => s.slice(0, max));
const Described = {
  name: Label(L.name),
  description: Label(L.description).nullish(),
};
const Value = z.object({ value: Id, ...Described });
const Values = z.union([
  z.array(Value),
  z
    .array(z.object({ options: z.array(Value) }))
    .transform((groups) => groups.flatMap((g) => g.options)),
]);
// An option without a name (ACP asks for one) is named by its id.
const OptionBase = {
  id: Id,
  name: Label(L.name).nullish(),
  description: Described.description,
  category: z.string().nullish(),
};
const Raw = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('select'),
    ...OptionBase,
    currentValue: z.string().max(L.id),
    options: Values,
  }),
  z.object({ type: z.literal('boolean'), ...OptionBase, currentValue: z.boolean() }),
]);

const key = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Whether an option chooses how the agent asks: ACP's `mode` category or an id `mode` (as
 * claude-agent-acp advertises it), or an id or name about approvals, permissions or the sandbox
 * (as an approval policy would be named). Such an option is kept at a value where the agent asks.
 */
export function isGuardedOption(option: {
  id: string;
  name?: string | null;
  category?: string | null;
}): boolean {
  if (option.category === 'mode' || key(option.id) === 'mode') return true;
  return /approv|permission|sandbox|autonomy/.test(`${key(option.id)} ${key(option.name ?? '')}`);
}

const described = (description: string | null | undefined) => (description ? { description } : {});

function shown(raw: z.infer<typeof Raw>): ConfigOption {
  const common = {
    id: raw.id,
    name: raw.name ?? raw.id.slice(0, L.name),
    ...described(raw.description),
    ...(raw.category ? { category: raw.category.slice(0, L.category) } : {}),
    guarded: isGuardedOption(raw),
  };
  if (raw.type === 'boolean') return { ...common, type: 'boolean', currentValue: raw.currentValue };
  const values: ConfigValue[] = raw.options
    .slice(0, L.values)
    .map((v) => ({ value: v.value, name: v.name, ...described(v.description) }));
  return { ...common, type: 'select', currentValue: raw.currentValue, values };
}

/**
 * Every well-formed option the agent advertised, in its order; malformed ones are ignored. The
 * list's length is bounded by the shape check every agent message passes (safety/json-guard.ts).
 */
export function readConfigOptions(raw: unknown): ConfigOption[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown) => {
    const parsed = Raw.safeParse(item);
    return parsed.success ? [shown(parsed.data)] : [];
  });
}

/** What a session shows: every guarded option, then the others in the agent's order, bounded. */
export function shownOptions(options: readonly ConfigOption[]): ConfigOption[] {
  const room = Math.max(0, L.options - options.filter((o) => o.guarded).length);
  const others = new Set(options.filter((o) => !o.guarded).slice(0, room));
  return options.filter((o) => o.guarded || others.has(o)).slice(0, L.options);
}
