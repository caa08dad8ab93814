/**
 * No host of a remote sandbox did a run, with each one's reason: graders grade the problem elsewhere (the local
 * sandbox) or record an infrastructure error, never a verdict against the program. `isRequestRejected`: some host
 * refused the request as such (too large, too long a run_timeout), so the same work split into smaller requests may
 * fit. The remote provider throws it (rllm-ts/sandbox).
 */
export class AllHostsFailedError extends Error {
  constructor(
    readonly reasons: string[],
    readonly isRequestRejected: boolean,
  ) {
    super(`no sandbox service could run it: ${reasons.join("; ")}`);
    this.name = "AllHostsFailedError";
  }
}
