/**
 * The Tinker client's errors: each holds the fields it is built from, and its message says what to do. `service` names
 * who answered: "Tinker", or another service on the same wire (the Fireworks trainer gateway).
 */

/** The service refused the credential (HTTP 401); never retried. */
export class TinkerAuthError extends Error {
  constructor(readonly path: string, readonly detail: string, readonly service = "Tinker", readonly keySource = "TINKER_API_KEY (or TINKER_CREDENTIAL_CMD)") {
    super(`${service} refused the credential on ${path} (HTTP 401: ${detail}): check ${keySource}`);
    this.name = "TinkerAuthError";
  }
}

/** An HTTP error that is not retried (400, 403, 404, 422…) or that outlasted the retries. */
export class TinkerHttpError extends Error {
  constructor(readonly path: string, readonly status: number, readonly detail: string, readonly attempts: number, readonly service = "Tinker") {
    super(`${service} ${path}: HTTP ${status}${attempts > 1 ? ` after ${attempts} attempts` : ""}: ${detail}`);
    this.name = "TinkerHttpError";
  }
}

/** A future that finished with an error; `category` is the service's (unknown, server or user). */
export class TinkerFutureError extends Error {
  constructor(readonly requestId: string, readonly category: string, readonly detail: string) {
    super(`Tinker request ${requestId} failed (${category} error): ${detail}`);
    this.name = "TinkerFutureError";
  }
}

/** No answer at all from the service's address (nothing listening, an unknown host): it is down or the URL is wrong. */
export class TinkerUnreachableError extends Error {
  constructor(readonly baseUrl: string, readonly detail: string, readonly service = "Tinker") {
    super(`cannot reach the ${service} service at ${baseUrl}: ${detail}`);
    this.name = "TinkerUnreachableError";
  }
}

/** The service answered before, then stopped (it closed, crashed or dropped off the network) for every retry. */
export class TinkerConnectionLostError extends Error {
  constructor(readonly baseUrl: string, readonly path: string, readonly detail: string, readonly attempts: number, readonly service = "Tinker") {
    super(`lost the ${service} service at ${baseUrl}: ${path} got no answer after ${attempts} attempt${attempts === 1 ? "" : "s"} (${detail}); once it is back, rerun with --resume`);
    this.name = "TinkerConnectionLostError";
  }
}
