/**
 * Fault injection for the local Tinker server, from `--faults` or RLLM_TINKER_FAULTS: a comma list of `name=value`.
 * Per future: `try_again=k` answers try_again k times and `timeouts=k` answers HTTP 408 k times before the result.
 * Counted over the server's life: `lost=n` loses the first n futures (HTTP 410; the request is dropped unprocessed),
 * `rate_limit=n` and `unavailable=n` answer the first n requests 429 and the next n 503, `billing=n` answers 402,
 * `error=<category>` (with `errors=n`, default 1) fails the first n futures with that category. `slow_poll_ms=t` delays
 * every poll.
 */
import { z } from "zod";

export const FaultPlanSchema = z
  .object({
    try_again: z.coerce.number().int().nonnegative().default(0),
    timeouts: z.coerce.number().int().nonnegative().default(0),
    lost: z.coerce.number().int().nonnegative().default(0),
    rate_limit: z.coerce.number().int().nonnegative().default(0),
    unavailable: z.coerce.number().int().nonnegative().default(0),
    billing: z.coerce.number().int().nonnegative().default(0),
    error: z.enum(["unknown", "server", "user"]).optional(),
    errors: z.coerce.number().int().nonnegative().default(1),
    slow_poll_ms: z.coerce.number().int().nonnegative().default(0),
  })
  .strict();
/** The faults to inject; counters go down as faults are spent. */
export type FaultPlan = z.infer<typeof FaultPlanSchema>;

/** Parses `name=value,…`; an unknown name or a bad value is an error naming it. */
export function parseFaultPlan(text: string | undefined): FaultPlan {
  const entries = (text ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const [name, value = ""] = part.split("=");
      return [name!.trim(), value.trim()];
    });
  const parsed = FaultPlanSchema.safeParse(Object.fromEntries(entries));
  if (!parsed.success) {
    throw new Error(`fault plan "${text}": ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(names)"}: ${issue.message}`).join("; ")}`);
  }
  return parsed.data;
}
