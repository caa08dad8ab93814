/**
 * rllm train's ETA: the steps left times the recent wall time of one step (validations taken out), plus each
 * validation still to come (the last one included) times the validations' own mean time. Extrapolating the whole
 * elapsed time per step instead counted the step-0 validation into every step left (step 1 of a 9m42s run said
 * 19m45s) and left out the final validation (step 19 said 26 s with 85 s left). Pure: the caller gives the times.
 */

/** Steps whose own wall time the estimate averages: recent enough to follow a run that speeds up or slows down. */
const RECENT_STEPS = 5;

export class TrainEta {
  private lastMark: number;
  private validationSince = 0;
  private readonly stepSeconds: number[] = [];
  private readonly validationSeconds: number[] = [];

  /** `startedAt` (ms): when the loop began; `steps`: updates in all; `isValidationStep`: whether a step is followed by a validation. */
  constructor(
    startedAt: number,
    private readonly steps: number,
    private readonly isValidationStep: (step: number) => boolean,
  ) {
    this.lastMark = startedAt;
  }

  /** A validation took `seconds` (of wall time since the last step). */
  validationDone(seconds: number): void {
    this.validationSeconds.push(seconds);
    this.validationSince += seconds;
  }

  /** Update `step` ended at `at` (ms). */
  stepDone(at: number): void {
    this.stepSeconds.push(Math.max(0, (at - this.lastMark) / 1000 - this.validationSince));
    this.lastMark = at;
    this.validationSince = 0;
  }

  /** Seconds left after `step` (validation of `step` itself still to come when `isValidationPending`); undefined before any step. */
  secondsLeft(step: number, isValidationPending: boolean): number | undefined {
    if (this.stepSeconds.length === 0) return undefined;
    const recent = this.stepSeconds.slice(-RECENT_STEPS);
    const perStep = recent.reduce((sum, value) => sum + value, 0) / recent.length;
    let validations = isValidationPending ? 1 : 0;
    for (let later = step + 1; later <= this.steps; later++) if (this.isValidationStep(later)) validations += 1;
    // Before any validation was timed (a resumed run), one step's time stands in for one.
    const perValidation = this.validationSeconds.length === 0 ? perStep : this.validationSeconds.reduce((sum, value) => sum + value, 0) / this.validationSeconds.length;
    return (this.steps - step) * perStep + validations * perValidation;
  }
}
