// The options an agent advertises for its session beyond its mode (ACP `configOptions`: a model, a
// reasoning level, …), as Gatehouse keeps and shows them. What the agent sends is bounded and
// checked before it gets here (core/agents/config-options.ts); these are the bounds every surface
// can rely on.
import { z } from 'zod';

export const CONFIG_LIMITS = {
  /** Options shown per session; the agent's others are not offered (a mode-like one is still guarded). */
  options: 32,
  /** Values offered per option. */
  values: 100,
  /** An id or a value is sent back to the agent as it is: a longer one is dropped, never cut. */
  id: 256,
  name: 200,
  description: 1_000,
  category: 64,
} as const;
const L = CONFIG_LIMITS;

export const ConfigValue = z.object({
  value: z.string().max(L.id),
  name: z.string().max(L.name),
  description: z.string().max(L.description).optional(),
  /** The value reads as one where the agent stops asking: Gatehouse does not set it. */
  refused: z.literal(true).optional(),
});
export type ConfigValue = z.infer<typeof ConfigValue>;

const Common = {
  id: z.string().min(1).max(L.id),
  name: z.string().max(L.name),
  description: z.string().max(L.description).optional(),
  category: z.string().max(L.category).optional(),
  /**
   * The option chooses how the agent asks (a mode, an approval policy): Gatehouse keeps it at a
   * value where the agent asks, as it does the agent's modes.
   */
  guarded: z.boolean(),
};

export const ConfigOption = z.discriminatedUnion('type', [
  z.object({
    ...Common,
    type: z.literal('select'),
    currentValue: z.string().max(L.id),
    values: z.array(ConfigValue).max(L.values),
  }),
  z.object({
    ...Common,
    type: z.literal('boolean'),
    currentValue: z.boolean(),
    /** Turning it on reads as the agent no longer asking: Gatehouse does not turn it on. */
    refusedOn: z.literal(true).optional(),
  }),
]);
export type ConfigOption = z.infer<typeof ConfigOption>;

export const ConfigOptions = z.array(ConfigOption).max(L.options);
