// What the core and the agent launcher (launcher-process.ts) say to each other over the launcher's
// IPC channel. Both sides validate what they receive: the launcher is the core's own child, but a
// message that does not fit here means something is wrong with it, and the core then stops it (and
// with it every agent it started) rather than guess.
import { z } from 'zod';

const Id = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const Text = z.string().max(64 * 1024);
/** The kernel's own bound on one argument or environment string (Linux: MAX_ARG_STRLEN, 128 KiB). */
const ExecString = z.string().max(128 * 1024);
/** All of them together: Linux refuses more than a quarter of the stack limit, 2 MiB by default. */
const EXEC_TOTAL = 4 * 1024 * 1024;

/** Each agent gets 3 pipes (stdin, stdout, stderr), or 4 with the lifeline (lifeline.ts). */
export const Spawn = z
  .object({
    type: z.literal('spawn'),
    id: Id,
    command: Text.min(1),
    args: z.array(ExecString).max(4096),
    cwd: Text.min(1),
    env: z
      .record(z.string().max(4096), ExecString)
      .refine((env) => Object.keys(env).length <= 4096),
    pipes: z.union([z.literal(3), z.literal(4)]),
  })
  .strict()
  .refine(
    ({ args, env }) =>
      args.reduce((n, arg) => n + arg.length, 0) +
        Object.entries(env).reduce((n, [k, v]) => n + k.length + v.length, 0) <=
      EXEC_TOTAL,
    'the arguments and environment exceed what exec takes',
  );
export type Spawn = z.infer<typeof Spawn>;

const Pid = z
  .number()
  .int()
  .positive()
  .max(2 ** 22);

export const FromLauncher = z.discriminatedUnion('type', [
  // Sent with one pipe as its handle; one message per pipe, in fd order, before `spawned`.
  z.object({ type: z.literal('pipe'), id: Id, fd: z.number().int().min(0).max(3) }).strict(),
  z.object({ type: z.literal('spawned'), id: Id, pid: Pid }).strict(),
  // The command could not be run at all (ENOENT, EACCES): no process, no pipes.
  z
    .object({
      type: z.literal('failed'),
      id: Id,
      code: z.string().max(64).nullable(),
      path: Text.nullable(),
      message: Text,
    })
    .strict(),
  z
    .object({
      type: z.literal('exit'),
      id: Id,
      code: z.number().int().nullable(),
      signal: z.string().max(32).nullable(),
    })
    .strict(),
]);
export type FromLauncher = z.infer<typeof FromLauncher>;
