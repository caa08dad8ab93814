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
    .map((issue) => `${where}: field "${issue.path.join(".") || "(root)"}": ${issue.message}`)
    .join("\n");
}
