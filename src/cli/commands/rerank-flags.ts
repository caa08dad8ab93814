/** `rllm rerank`: the flag schema and its type, read by both the definition (rerank-command.ts) and the action. */
import { z } from "zod";
import { SelectionMethodSchema, SlotPolicySchema } from "../../tournament/selection-methods.js";
import { commaList, concurrencyFlag, endpointFlags, localModelFlags, samplingFlags, seedFlag } from "../shared-flags.js";

/** `rllm rerank`'s flags. */
export const RerankFlagsSchema = z.object({
  input: z.string().describe("the candidates file").meta({ value: "file.jsonl" }),
  output: z.string().optional().describe("write the rows here instead of stdout").meta({ value: "file.jsonl" }),
  records: z.string().optional().describe("also write each row's full tournament record (every judge verdict)").meta({ value: "file.jsonl" }),
  method: commaList(SelectionMethodSchema)
    .prefault("v1")
    .describe(`selection method(s), comma list of ${SelectionMethodSchema.options.join(", ")}`)
    .meta({ value: "list" }),
  budget: z.coerce.number().positive().default(2).describe("judge calls as a multiple of the candidate count (V1's B = m·N)").meta({ value: "m" }),
  maxCalls: z.coerce.number().int().nonnegative().optional().describe("judge calls per row, instead of --budget (a row's own maxCalls wins)").meta({ value: "count" }),
  judgeKind: z.enum(["math", "code"]).default("math").describe("judge prompt: math (final answer only) or code (correct and robust)").meta({ value: "kind" }),
  slots: SlotPolicySchema.default("scheduled").describe("slot A: scheduled (V1's order), random, or both (two calls per pair)").meta({ value: "policy" }),
  knockoutK: z.coerce.number().int().positive().default(1).describe("comparisons per knockout match").meta({ value: "k" }),
  seed: seedFlag.default(0).describe("seed of the pairings (a row's seed is this plus its line index) and of the judge's sampling"),
  concurrency: concurrencyFlag.default(8).describe("judge calls in flight at once"),
  temperature: samplingFlags.temperature.describe("judge sampling temperature"),
  maxTokens: samplingFlags.maxTokens.describe("judge completion token limit"),
  ...endpointFlags,
  ...localModelFlags,
});
/** `rllm rerank`'s parsed flags. */
export type RerankFlags = z.infer<typeof RerankFlagsSchema>;
