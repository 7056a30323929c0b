// How many agents boot at once. A child forked while dozens of agents boot waits its turn for a CPU
// behind all of them; when the core spawned agents itself, that wait (libuv's, for the child's exec)
// froze every window for most of a second at fifty sessions started at once. The launcher now waits
// for the exec instead (launcher.ts), but the queue of runnable processes is the machine's: starts
// past the width wait for a slot, which keeps it short, and the agents boot in about the same total
// time, as the CPUs were the limit anyway.

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
