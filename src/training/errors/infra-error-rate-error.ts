/** InfraErrorRateError: too many of a step's rollouts failed for infrastructure reasons; training stops instead of going on without them. */

export class InfraErrorRateError extends Error {
  constructor(
    readonly step: number,
    readonly infraErrors: number,
    readonly episodes: number,
    /** The configured maxInfraErrorRate. */
    readonly threshold: number,
    /** The first infra-failed episodes' errors, for the message. */
    readonly examples: readonly string[],
  ) {
    super(
      `step ${step}: ${infraErrors} of ${episodes} rollouts (${((100 * infraErrors) / episodes).toFixed(1)}%) are infrastructure errors, above ` +
        `maxInfraErrorRate ${threshold}: training on the rest would skew the batch toward what did not fail. ` +
        `First errors: ${examples.join(" | ")}. Fix the cause, or raise the threshold (--max-infra-error-rate) knowingly.`,
    );
    this.name = "InfraErrorRateError";
  }
}
