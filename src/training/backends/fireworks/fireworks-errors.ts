/** The Fireworks control plane's errors: each holds the fields it is built from, and its message says what to do. */

/** The control plane refused FIREWORKS_API_KEY (HTTP 401 or 403); never retried. */
export class FireworksAuthError extends Error {
  constructor(readonly path: string, readonly status: number, readonly detail: string) {
    super(`Fireworks refused the API key on ${path} (HTTP ${status}: ${detail}): check FIREWORKS_API_KEY`);
    this.name = "FireworksAuthError";
  }
}

/** A refusal that is not about the key (400, 404, 409…), or a 5xx that outlasted the retries. */
export class FireworksApiError extends Error {
  constructor(readonly method: string, readonly path: string, readonly status: number, readonly detail: string) {
    super(`Fireworks ${method} ${path}: HTTP ${status}: ${detail}`);
    this.name = "FireworksApiError";
  }
}

/** No answer from the control plane's address: it is down, or --base-url is wrong. */
export class FireworksUnreachableError extends Error {
  constructor(readonly baseUrl: string, readonly detail: string) {
    super(`cannot reach the Fireworks API at ${baseUrl}: ${detail}`);
    this.name = "FireworksUnreachableError";
  }
}

/** The trainer job or deployment did not become ready: it failed, stopped, or outlasted the wait. */
export class FireworksNotReadyError extends Error {
  constructor(readonly resource: string, readonly state: string, readonly detail: string) {
    super(`Fireworks ${resource} did not become ready (state ${state}): ${detail}`);
    this.name = "FireworksNotReadyError";
  }
}
