import { performance } from 'node:perf_hooks';

/**
 * The stages of a permission request on its way to being shown, in order: the shape check and
 * schema, the enrichment (the whole tool call, its command and diffs), the warnings, bounding what
 * is sent and stored, the request's record, the rules, modes and grants, the mediator taking it, and
 * publishing it to every surface.
 */
export const REQUEST_STAGES = [
  'validate',
  'enrich',
  'warnings',
  'bound',
  'record',
  'rules',
  'mediator',
  'publish',
] as const;
export type RequestStage = (typeof REQUEST_STAGES)[number];

/** Milliseconds of wall time per stage; a request decided before it is shown has no later stages. */
export type StageTimes = Partial<Record<RequestStage, number>>;

/** Times one request's stages, each from the end of the one before; made only when someone listens. */
export class StageClock {
  private readonly times: StageTimes = {};
  private last = performance.now();

  constructor(private readonly report: (times: StageTimes) => void) {}

  /** `stage` has just ended. */
  lap(stage: RequestStage): void {
    const now = performance.now();
    this.times[stage] = now - this.last;
    this.last = now;
  }

  /** Reported once, with the stages the request went through. */
  done(): void {
    this.report(this.times);
  }
}
