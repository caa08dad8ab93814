/** Validates a command's flags with its zod schema; a bad flag is a usage error naming the flag as it can be typed. */
import type { Command } from "commander";
import type { z } from "zod";
import { InputError } from "../core/errors/input-error.js";
import { kebabCase } from "./options-from-schema.js";

/** `-n/--rows` when the command gives the option a short form (the user may have typed either), else `--rows`. */
function flagLabel(key: string, command: Command | undefined): string {
  const option = command?.options.find((candidate) => candidate.attributeName() === key);
  if (option?.short && option.long) return `${option.short}/${option.long}`;
  return option?.long ?? option?.short ?? `--${kebabCase(key)}`;
}

/** The parsed flags, or an InputError like `-n/--attempts: Too small: expected number to be >0`. */
export function parseFlags<Schema extends z.ZodType>(schema: Schema, raw: Record<string, unknown>, command?: Command): z.infer<Schema> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new InputError(parsed.error.issues.map((issue) => `${flagLabel(String(issue.path[0] ?? "flags"), command)}: ${issue.message}`).join("; "));
}
