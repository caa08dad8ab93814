/**
 * Every host of a remote sandbox failed its control program: no verdict a remote sandbox could give now would be
 * trusted, so graders report it as an infrastructure error. The remote provider throws it (rllm-ts/sandbox).
 */
export class AllHostsFailedError extends Error {
  constructor(readonly reasons: string[]) {
    super(`every sandbox service failed: ${reasons.join("; ")}`);
    this.name = "AllHostsFailedError";
  }
}
