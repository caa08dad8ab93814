/** Validates a command's flags with its zod schema; a bad flag is a usage error naming the flag. */
import type { z } from "zod";
import { InputError } from "../core/errors/input-error.js";

const toFlag = (key: string) => `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** The parsed flags, or an InputError like `--attempts: Too small: expected number to be >0`. */
export function parseFlags<Schema extends z.ZodType>(schema: Schema, raw: Record<string, unknown>): z.infer<Schema> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new InputError(parsed.error.issues.map((issue) => `${toFlag(String(issue.path[0] ?? "flags"))}: ${issue.message}`).join("; "));
}
