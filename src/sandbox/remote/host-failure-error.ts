/** A sandbox service that did not answer a run properly (refused, timed out, an HTTP error, a reply of the wrong shape). */
export class HostFailureError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
    /** The HTTP status, when the host answered with one. */
    readonly status?: number,
    /** How long a 429/503 asked us to wait. */
    readonly retryAfterMs?: number,
    /** No reply came within the request's time limit (the run may have waited in the service's queue). */
    readonly isTimeout = false,
  ) {
    super(`sandbox service ${host}: ${reason}`);
    this.name = "HostFailureError";
  }

  /** The host said it is busy (429, 503): back-pressure, not a failure. */
  get isBusy(): boolean {
    return this.status === 429 || this.status === 503;
  }

  /**
   * The host refused this request as such (a 4xx about its size, its run_timeout, a field): the host works, and the
   * request may fit another host or fit once split. Not 401/403/404/407 (the host's set-up, for every request), 408
   * (the host gave up waiting) or 429 (busy).
   */
  get isRequestRejected(): boolean {
    return this.status !== undefined && this.status >= 400 && this.status < 500 && ![401, 403, 404, 407, 408, 429].includes(this.status);
  }
}
