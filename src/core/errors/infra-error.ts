/** InfraError: we could not get an answer (connection, 5xx, 429 past the retry budget, timeout). Excluded from scores. */
export class InfraError extends Error {
  readonly errorClass = "infra_error" as const;
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "InfraError";
  }
}
