/** EndpointUnavailableError: the pre-flight check found the endpoint dead or refusing the key; nothing was run. */

/** A run refused before it started because its endpoint cannot answer; the message names the URL, the model and the cause. */
export class EndpointUnavailableError extends Error {
  constructor(
    readonly baseUrl: string,
    readonly model: string,
    readonly reason: string,
  ) {
    super(`cannot use ${baseUrl} (model ${model}): ${reason}`);
    this.name = "EndpointUnavailableError";
  }
}
