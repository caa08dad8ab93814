/** InputError: a bad file, row, field or flag given by the user; the CLI prints it and exits 2. */
import type { z } from "zod";

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

/** Turns zod issues into `file:row: field "a.b": message` lines (row omitted when not given). */
export function describeIssues(source: string, row: number | undefined, error: z.ZodError): string {
  const where = row === undefined ? source : `${source}:${row}`;
  return error.issues
    .map((issue) => `${where}: field "${issue.path.join(".") || "(root)"}": ${issue.message}`)
    .join("\n");
}
