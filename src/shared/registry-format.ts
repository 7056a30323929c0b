// The ACP Registry's registry.json (github.com/agentclientprotocol/registry, FORMAT.md and
// agent.schema.json): what Gatehouse reads of it to start an agent. Fields it does not use (icon,
// authors, extensions, platforms it does not know) are tolerated; the fields that decide what runs
// are held tighter than the registry's own schema, because a snapshot is a file any local program
// could have written.
import { z } from 'zod';

/** Where the registry publishes its index. */
export const ACP_REGISTRY_URL =
  'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

export const REGISTRY_LIMITS = {
  /** The real registry is a few tens of KiB. */
  fileBytes: 2 * 1024 * 1024,
  agents: 1000,
  args: 64,
  argChars: 4096,
  envVars: 64,
  text: 2000,
} as const;

/** The registry's own pattern, bounded: never a path separator, never `..`. */
export const RegistryAgentId = z
  .string()
  .regex(
    /^[a-z][a-z0-9-]{0,63}$/,
    'registry id: lowercase letters, digits and -, starting with a letter',
  );

/** Used as a folder name for unpacked binaries: no separators, no leading dot. */
const Version = z
  .string()
  .max(64)
  .regex(/^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*$/, 'version: a semantic version');

const Arg = z
  .string()
  .max(REGISTRY_LIMITS.argChars)
  .refine((arg) => !arg.includes('\0'), 'argument: no NUL character');

const Env = z
  .record(z.string().max(128), z.string().max(REGISTRY_LIMITS.argChars))
  .superRefine((env, ctx) => {
    const names = Object.keys(env);
    if (names.length > REGISTRY_LIMITS.envVars) {
      ctx.addIssue({
        code: 'custom',
        message: `env: at most ${REGISTRY_LIMITS.envVars} variables`,
      });
    }
    for (const name of names) {
      const problem = !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
        ? 'an environment variable name: letters, digits, _'
        : /^GATEHOUSE_/i.test(name)
          ? "GATEHOUSE_* variables are Gatehouse's own"
          : null;
      if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
    }
  });

const Args = z.array(Arg).max(REGISTRY_LIMITS.args);

/**
 * An npm or PyPI spec, given to npx/uvx before the agent's arguments. A leading `-` would be read as
 * one of npx's own options (`--registry=…`, `--call=…`), whitespace or a control character as more
 * than one word.
 */
const PackageSpec = z
  .string()
  .min(1)
  .max(1024)
  .regex(
    // eslint-disable-next-line no-control-regex
    /^[^-\s\u0000-\u001f\u007f][^\s\u0000-\u001f\u007f]*$/,
    'package: one word, not starting with -',
  );

/**
 * The package's program to run when it is not its default one (`npx --package <package> <cmd>`,
 * `uvx --from <package> <cmd>`): one program name of the package, looked up among its own
 * commands. No separator (it would name a file anywhere), no leading `-` (an option of npx or uvx),
 * no shell character or whitespace.
 */
export const PackageCmd = z
  .string()
  .max(100)
  .regex(
    /^[A-Za-z0-9_][A-Za-z0-9._-]*$/,
    'cmd: the name of one of the package’s programs (letters, digits, ., _ and -, not starting with - or .)',
  );

const PackageDistribution = z.looseObject({
  package: PackageSpec,
  cmd: PackageCmd.optional(),
  args: Args.default([]),
  env: Env.default({}),
});

/** Relative to the folder the archive was unpacked into, and staying inside it. */
const BinaryCmd = z
  .string()
  .min(1)
  .max(256)
  .regex(
    /^(\.\/)?[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*$/,
    'cmd: a relative path inside the archive',
  );

const BinaryTarget = z.looseObject({
  archive: z.string().max(2048).optional(),
  cmd: BinaryCmd,
  args: Args.default([]),
  env: Env.default({}),
});

/** The registry's platform keys, as process.platform-process.arch map onto them. */
export const REGISTRY_PLATFORMS = [
  'darwin-aarch64',
  'darwin-x86_64',
  'linux-aarch64',
  'linux-x86_64',
  'windows-aarch64',
  'windows-x86_64',
] as const;
export type RegistryPlatform = (typeof REGISTRY_PLATFORMS)[number];

const Distribution = z.looseObject({
  npx: PackageDistribution.optional(),
  uvx: PackageDistribution.optional(),
  binary: z
    .record(z.string().regex(/^[a-z0-9_-]{1,64}$/, 'platform: e.g. linux-x86_64'), BinaryTarget)
    .optional(),
});

export const RegistryAgent = z.looseObject({
  id: RegistryAgentId,
  name: z.string().min(1).max(200),
  version: Version,
  description: z.string().min(1).max(REGISTRY_LIMITS.text),
  distribution: Distribution,
});
export type RegistryAgent = z.infer<typeof RegistryAgent>;

export const Registry = z
  .looseObject({
    version: z.string().max(64),
    agents: z.array(RegistryAgent).max(REGISTRY_LIMITS.agents),
  })
  .superRefine((registry, ctx) => {
    const seen = new Set<string>();
    registry.agents.forEach((agent, index) => {
      if (seen.has(agent.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['agents', index, 'id'],
          message: `id "${agent.id}" appears twice`,
        });
      }
      seen.add(agent.id);
    });
  });
export type Registry = z.infer<typeof Registry>;

export const DistributionKind = z.enum(['npx', 'uvx', 'binary']);
export type DistributionKind = z.infer<typeof DistributionKind>;

/** What the settings view shows of a snapshot's agent. */
export const RegistryListing = z.object({
  id: RegistryAgentId,
  name: z.string().max(200),
  version: z.string().max(64),
  description: z.string().max(REGISTRY_LIMITS.text),
  kinds: z.array(DistributionKind).max(3),
});
export type RegistryListing = z.infer<typeof RegistryListing>;

export function distributionKinds(agent: RegistryAgent): DistributionKind[] {
  return DistributionKind.options.filter((kind) => agent.distribution[kind] !== undefined);
}
