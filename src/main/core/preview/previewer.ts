// The preview of one command: run once in a scratch layer of its session's sandbox view, before a
// person is asked, and told as a CommandPreview. The request path calls the function this makes;
// nothing here decides whether a preview runs, only what one shows.
import { realpath } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { z } from 'zod';
import {
  CommandPreview,
  emptyPreview,
  MAX_PREVIEW_TIMEOUT_SECONDS,
  NO_COUNTS,
  PREVIEW_LIMITS,
} from '../../../shared/preview';
import { SandboxSettings } from '../../../shared/sandbox-settings';
import { isInside } from '../fs/containment';
import { PROTECTED_FILES, type ProtectedEntry } from '../rules/protected-files';
import { resolveSandboxProfile, type SandboxProfile } from '../sandbox/profile';
import { existingRealPaths } from '../sandbox/hidden-paths';
import type { LayerSpawner } from '../sandbox/layer-run';
import { runInScratchLayer, type ScratchBounds } from '../sandbox/scratch-layer';
import { previewDiffs, readSide } from './diffs';
import { effectsOf, pairRenames, withRefusedWrites, type PlaceRules } from './effects';
import { effectWarnings, hostsOf, outputTail, verdictOf } from './verdict';

/** The sandbox a session's agent runs in, as it was launched. */
export interface PreviewSandbox {
  /** The session folder. */
  folder: string;
  /** Null when the session runs without Gatehouse's sandbox: its folder is then the one root. */
  profile: SandboxProfile | null;
}

export interface PreviewerDeps {
  gatehouseHome: string;
  /** The session's sandbox; null for a session not known here (its cwd is then the root). */
  sandboxOf(sessionId: string): PreviewSandbox | null;
  /** The protected files in force (the built-in list and the settings' additions). */
  protectedEntries?: () => readonly ProtectedEntry[];
  bounds?: Partial<ScratchBounds>;
  /**
   * Starts each scratch layer's first process: the core's launcher, so the core's thread never
   * waits for the layer's exec. Without it (a previewer built on its own) this thread spawns it.
   */
  spawnLayer?: LayerSpawner;
}

const MAX_ENV_VALUE = 32 * 1024;

/** What the request path hands over: checked, since the command comes from an agent. */
export const PreviewRun = z.object({
  sessionId: z.string().min(1).max(200),
  /** The exact command, as `/bin/sh -c` runs it. */
  command: z
    .string()
    .min(1)
    .max(64 * 1024),
  cwd: z.string().startsWith('/').max(4096),
  env: z
    .record(z.string().max(256), z.string().max(MAX_ENV_VALUE))
    .refine((env) => Object.keys(env).length <= 512, 'at most 512 variables')
    .optional(),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(MAX_PREVIEW_TIMEOUT_SECONDS * 1000),
  signal: z.instanceof(AbortSignal),
});
export type PreviewRun = z.infer<typeof PreviewRun>;

export type Previewer = (run: PreviewRun) => Promise<CommandPreview>;

/** The environment a command sees when the request path passes none: the basics of this user. */
function defaultEnv(home: string): Record<string, string> {
  const env: Record<string, string> = { HOME: home, TERM: 'dumb' };
  for (const name of ['PATH', 'LANG', 'LC_ALL', 'USER', 'LOGNAME', 'SHELL']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export function createPreviewer(deps: PreviewerDeps): Previewer {
  const preview = previewOnce(deps);
  return async (input) => {
    const result = await preview(input);
    // What the surfaces, the audit and the rules will read: within the model's bounds, or nothing.
    const checked = CommandPreview.safeParse({
      ...result,
      detail: result.detail?.slice(0, PREVIEW_LIMITS.reason) ?? null,
    });
    if (checked.success) return checked.data;
    const why = checked.error.issues[0]?.message ?? 'invalid';
    return emptyPreview('unavailable', null, result.timeoutMs, `not shown: ${why}`.slice(0, 500));
  };
}

function previewOnce(deps: PreviewerDeps): Previewer {
  return async (input) => {
    const parsed = PreviewRun.safeParse(input);
    const timeoutMs =
      Number.isSafeInteger(input.timeoutMs) && input.timeoutMs >= 0 ? input.timeoutMs : 0;
    if (!parsed.success) {
      const why = parsed.error.issues[0]?.message ?? 'invalid';
      return emptyPreview('unavailable', null, timeoutMs, `not previewed: ${why}`.slice(0, 500));
    }
    const run = parsed.data;
    const sandbox = deps.sandboxOf(run.sessionId);
    const profile = sandbox?.profile ?? defaultProfile(sandbox?.folder ?? run.cwd, deps, run.env);
    const entries = deps.protectedEntries?.() ?? PROTECTED_FILES;
    const rules: PlaceRules = {
      roots: await existingRealPaths(profile.writable),
      entries,
      state: profile.protectedState,
    };
    const result = await runInScratchLayer({
      profile,
      cwd: await workingFolder(run.cwd, profile, rules.roots),
      command: run.command,
      env: run.env ?? defaultEnv(profile.home),
      timeoutMs: run.timeoutMs,
      signal: run.signal,
      bounds: deps.bounds,
      ...(deps.spawnLayer ? { spawn: deps.spawnLayer } : {}),
      // Enough to pair renames and count places; the preview lists the first ones.
      keep: 20_000,
      inspect: async (view) => {
        const renames = await pairRenames(view.changes, view);
        const effects = effectsOf(view, renames, rules);
        const byPath = new Map(view.changes.map((change) => [change.path, change]));
        const diffs = await previewDiffs(effects.changes, async (change) => {
          const layered = byPath.get(change.path);
          return layered ? readSide(view.upperPath(layered)) : null;
        });
        return { effects, diffs };
      },
    });
    if (result.state === 'unavailable')
      return emptyPreview('unavailable', 'system', run.timeoutMs, result.reason ?? null);
    if (result.state === 'aborted') {
      return {
        ...emptyPreview(
          'incomplete',
          null,
          run.timeoutMs,
          'stopped: the request was decided first',
        ),
        durationMs: result.durationMs,
      };
    }
    const inspected = result.inspected;
    const effects = inspected?.effects ?? { changes: [], counts: { ...NO_COUNTS } };
    const { changes, counts } = withRefusedWrites(effects, result.output, rules);
    const firstOf = (place: 'outside' | 'protected') =>
      changes.find((change) => change.place === place)?.path ?? null;
    const verdict = verdictOf({
      timedOut: result.state === 'timed_out',
      exitCode: result.exitCode,
      output: result.output,
      diskFull: result.diskFull,
      refused: result.refused,
      timeoutMs: run.timeoutMs,
    });
    // A session without Gatehouse's sandbox runs the real command where the preview does not look
    // (the temp folder, the system): what it showed is not all, and no rule may take it for all.
    const seen =
      sandbox?.profile || verdict.state !== 'done'
        ? verdict
        : ({
            state: 'incomplete',
            reason: 'system',
            detail:
              'this session runs without a sandbox: writes outside HOME and its folder are not seen',
          } as const);
    return {
      ...seen,
      // Past the walk's bound the counts are only a floor: never a finished preview.
      ...(result.cut && seen.state === 'done'
        ? { state: 'incomplete', reason: 'limits', detail: 'too many changes to count them all' }
        : {}),
      changes,
      counts,
      diffs: inspected?.diffs ?? [],
      hosts: hostsOf(result),
      warnings: effectWarnings(counts, firstOf),
      exitCode: result.exitCode,
      output: outputTail(result.output),
      durationMs: result.durationMs,
      timeoutMs: run.timeoutMs,
    };
  };
}

/**
 * Where the command starts: the folder it names, by its real path, when that lies in a root or
 * HOME; else the session folder. A name in the temp folder is bound into the view, and a link there
 * would bring what it points at along.
 */
async function workingFolder(
  cwd: string,
  profile: SandboxProfile,
  roots: readonly string[],
): Promise<string> {
  const real = await realpath(cwd).catch(() => null);
  const home = await realpath(profile.home).catch(() => profile.home);
  return real && [...roots, home].some((folder) => isInside(real, folder))
    ? real
    : profile.projectDir;
}

/** A session without Gatehouse's sandbox is previewed in the default one, over its folder. */
function defaultProfile(
  folder: string,
  deps: PreviewerDeps,
  env: Record<string, string> | undefined,
): SandboxProfile {
  const profile = resolveSandboxProfile({
    agentId: 'preview',
    command: '/bin/sh',
    args: [],
    settings: SandboxSettings.parse({ network: 'none' }),
    home: env?.['HOME'] ?? homedir(),
    sessionDir: folder,
    gatehouseHome: deps.gatehouseHome,
    tmpDir: tmpdir(),
    env: {},
  });
  // workspace-write is the default: a profile always comes back.
  return profile!;
}
