// What a subcommand may touch of its process: two output streams and the environment. Tests run
// the command in-process with their own.

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
}

export const processIo: CliIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
};

/** Exit codes shared by every subcommand (each adds its own above these). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
