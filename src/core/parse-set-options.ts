/** Validates `--set key=value` options (a verifier's for `rllm grade`, a cookbook's for `rllm eval`) with their owner's strict zod object. */
import type { z } from "zod";
import { InputError } from "./errors/input-error.js";

/**
 * The parsed options, or an InputError naming each bad key: `--set beta: Invalid input: expected number, received string`;
 * a key the schema does not know is refused with the keys it does (`--set betta: unknown key for cookbook "finqa"; known: beta, judgeModel`).
 */
export function parseSetOptions<Schema extends z.ZodObject>(schema: Schema, options: Record<string, unknown>, owner: string): z.infer<Schema> {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const known = Object.keys(schema.shape).join(", ");
  throw new InputError(
    parsed.error.issues
      .flatMap((issue) =>
        issue.code === "unrecognized_keys"
          ? issue.keys.map((key) => `--set ${key}: unknown key for ${owner}; known: ${known}`)
          : [`--set ${issue.path.join(".") || "(options)"}: ${issue.message}`],
      )
      .join("; "),
  );
}
