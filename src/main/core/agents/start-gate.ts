// How many agents boot at once. Spawning blocks the core's thread until the child has called exec
// (libuv waits for it, to report a command that cannot run), and a child forked while dozens of
// agents boot waits its turn for a CPU behind all of them: fifty sessions started at once froze
// every window for most of a second. Starts past the width wait for a slot instead, which keeps the
// queue of runnable processes short; the agents boot in about the same total time, as the CPUs
// were the limit anyway.

/** Leaves the gate; a second call does nothing. */
export type Leave = () => void;

export class StartGate {
  private inside = 0;
  private readonly waiting: Array<() => void> = [];

  /**
   * `width` starts at once; a start holds its slot at most `holdMs`, so an agent that never
   * answers (or takes its time, as `npx` does) keeps no other session from starting.
   */
  constructor(
    private readonly width: number,
    private readonly holdMs: number,
  ) {}

  async enter(): Promise<Leave> {
    if (this.inside >= this.width) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inside += 1;
    let left = false;
    const leave = (): void => {
      if (left) return;
      left = true;
      clearTimeout(timer);
      // The slot passes straight to the next start in line.
      const next = this.waiting.shift();
      if (next) next();
      else this.inside -= 1;
    };
    const timer = setTimeout(leave, this.holdMs);
    timer.unref();
    return leave;
  }
}
