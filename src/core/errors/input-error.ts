/** InputError: a bad file, row, field or flag given by the user; the CLI prints it and exits 2. */
import type { z } from "zod";
import type { UsageMessage } from "./option-name.js";

export class InputError extends Error {
  /** The message as the command line words it: options named by their flags (`--resume`); `message` names them as options (`resume: true`). */
  readonly flagMessage: string;

  constructor(message: string | UsageMessage) {
    super(typeof message === "string" ? message : message.library);
    this.name = "InputError";
    this.flagMessage = typeof message === "string" ? message : message.flags;
  }
}

/** Turns zod issues into `file:row: field "a.b": message` lines (row omitted when not given). */
export function describeIssues(source: string, row: number | undefined, error: z.ZodError): string {
  const where = row === undefined ? source : `${source}:${row}`;
  return error.issues
    .flatMap(matchedBranchIssues)
    .map((issue) => `${where}: field "${issue.path.join(".") || "(root)"}": ${issue.message}`)
    .join("\n");
}

/**
 * A union's failure as the issues of the one branch whose type the value has (the others fail on its type alone), so
 * that `{"url": ..., "apiKey": ...}` where a URL or `{url, apiKeyEnv}` is accepted names the unknown field, not
 * "Invalid input"; any other issue as it is.
 */
function matchedBranchIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union") return [issue];
  const matched = issue.errors.filter((branch) => !(branch.length === 1 && branch[0]!.code === "invalid_type" && branch[0]!.path.length === 0));
  if (matched.length !== 1) return [issue];
  return matched[0]!.flatMap((inner) => matchedBranchIssues({ ...inner, path: [...issue.path, ...inner.path] }));
}
