/** Validating a request body against its zod schema, failing with a 400 that names the first bad field. */
import type { z } from "zod";
import { HttpError } from "./http-error.js";

/** The parsed body, or a 400 `Invalid request: field "a.b": message` with `param` set to the field. */
export function parseRequest<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const param = issue.path.join(".") || null;
  throw new HttpError(400, `Invalid request: field "${param ?? "(root)"}": ${issue.message}`, "invalid_request_error", param);
}
