// An agent's API key, entered where the agent asks to be signed in: stored in that agent's `env` in
// settings.json and never read back (the settings a client reads show it only as set).
import { z } from 'zod';
import { command } from './contract-command';
import { Id } from './domain';

/**
 * The variables an API key may be stored in: names of keys and tokens only. A variable that changes
 * what runs or what the sandbox lets through (`*_BASE_URL`, NODE_OPTIONS, PATH, npm_config_*) is
 * launch settings, which need a local confirmation over HTTP; it can never be set here.
 */
export const ApiKeyVariable = z
  .string()
  .regex(
    /^[A-Z][A-Z0-9_]{0,60}_(API_KEY|KEY|TOKEN)$/,
    'a variable name in capitals that ends in _API_KEY, _KEY or _TOKEN',
  )
  .refine((name) => !name.startsWith('GATEHOUSE_'), 'Gatehouse’s own variables are not for agents');

export const keyCommands = {
  setAgentApiKey: command({
    input: z
      .object({
        agentId: Id,
        variable: ApiKeyVariable,
        // One line of printable characters: a key, not a script or a second variable.
        value: z
          .string()
          .min(1)
          .max(4096)
          .regex(/^[\x21-\x7e]+$/, 'a key is one word of printable characters'),
      })
      .strict(),
    output: z.object({ agentId: Id, variable: z.string(), set: z.literal(true) }),
    http: { method: 'POST', path: '/api/agents/:agentId/api-key' },
    summary:
      "Store an API key in an agent's env in settings.json (paired clients only). The value is never returned, logged or audited; the next session of the agent starts with it.",
  }),
};
