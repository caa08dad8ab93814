/** UnknownNameError: a name no registry entry has (a benchmark, cookbook, verifier, backend or command); lists the ones that exist. */
import { InputError } from "./input-error.js";

export class UnknownNameError extends InputError {
  /** `unknown benchmark "x"; available: a, b`, then the hint when one is given. */
  constructor(
    readonly kind: string,
    readonly unknownName: string,
    readonly available: readonly string[],
    readonly hint?: string,
  ) {
    super(`unknown ${kind} "${unknownName}"; available: ${available.join(", ")}${hint ? `; ${hint}` : ""}`);
    this.name = "UnknownNameError";
  }
}
