/** UnsupportedRequestError: a training backend was asked for something it cannot do; it refuses instead of ignoring it. */

export class UnsupportedRequestError extends Error {
  constructor(
    readonly backend: string,
    /** The option asked for, e.g. "loss", "lossAggregation", "merge". */
    readonly option: string,
    readonly requested: string,
    readonly supported: readonly string[],
  ) {
    super(
      `Backend "${backend}" cannot honour ${option} "${requested}". ` +
        (supported.length > 0 ? `Supported: ${supported.join(", ")}.` : `It supports no ${option} at all.`),
    );
    this.name = "UnsupportedRequestError";
  }
}
