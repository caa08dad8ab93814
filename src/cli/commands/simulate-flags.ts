/** `rllm simulate tournament`: the flag schema and its type, read by both the definition (simulate-command.ts) and the action. */
import { z } from "zod";
import { SelectionMethodSchema, SlotPolicySchema } from "../../tournament/selection-methods.js";
import { commaList, seedFlag } from "../shared-flags.js";

/** `rllm simulate tournament`'s flags. */
export const SimulateFlagsSchema = z.object({
  methods: commaList(SelectionMethodSchema)
    .prefault("v1,random,pointwise")
    .describe(`comma list of ${SelectionMethodSchema.options.join(", ")}`)
    .meta({ value: "list" }),
  n: commaList(z.coerce.number().int().min(1)).prefault("16").describe("candidates per problem; comma list").meta({ value: "list" }),
  correctProb: z.coerce.number().min(0).max(1).default(0.3).describe("each candidate is correct with this probability").meta({ value: "p" }),
  correctCount: z.coerce.number().int().nonnegative().optional().describe("exactly c candidates are correct (overrides --correct-prob)").meta({ value: "c" }),
  judgeAccuracy: commaList(z.coerce.number().min(0).max(1))
    .prefault("0.7")
    .describe("chance the judge prefers the correct one of a correct/incorrect pair; comma list")
    .meta({ value: "list" }),
  positionBias: z.coerce.number().min(0).max(0.5).default(0).describe("the correct one wins with p + b in slot A and p − b in slot B").meta({ value: "b" }),
  persistence: z.coerce.number().min(0).max(1).default(0).describe("share of judge noise fixed per pair (repeats repeat mistakes)").meta({ value: "s" }),
  judgeModel: z.enum(["ratings", "binary"]).default("ratings").describe("ratings (V1-style 1-10 dual ratings) or binary (exact p per mixed pair)").meta({ value: "kind" }),
  saturation: z.coerce.number().min(0).max(1).default(0.05).describe("ratings model: chance a call rates both 10").meta({ value: "s" }),
  qualitySpread: z.coerce.number().nonnegative().default(0.35).describe("σ_q of latent quality (plausible wrong answers the judge misranks every time)").meta({ value: "s" }),
  pointwiseInflation: z.coerce.number().default(3).describe("pointwise judge self-bias added to every rating (3: most correct ones get 10/10)").meta({ value: "g" }),
  answers: z
    .enum(["clustered", "distinct"])
    .default("clustered")
    .describe("clustered: correct candidates share an answer, wrong ones draw from 3 (math); distinct: every answer differs (code)")
    .meta({ value: "kind" }),
  clusters: z.enum(["on", "off"]).default("on").describe("adaptive-duel: judge equal answers as one arm (on) or each candidate alone (off)").meta({ value: "on|off" }),
  confidence: z.coerce.number().min(0.5).max(1).default(0.95).describe("adaptive-duel: stop once the leader is best with this posterior probability").meta({ value: "p" }),
  budgets: commaList(z.coerce.number().positive()).prefault("1,2,3").describe("judge budgets as multiples of n, comma list").meta({ value: "list" }),
  knockoutK: z.coerce.number().int().positive().default(1).describe("comparisons per knockout match").meta({ value: "k" }),
  slots: SlotPolicySchema.default("scheduled").describe("slot A: scheduled (V1's order), random, or both (two calls per pair)").meta({ value: "policy" }),
  swissRepeats: z.enum(["allow", "forbid"]).default("allow").describe("allow (Alg. 4: gap first) or forbid (prose: unseen pairs only)").meta({ value: "reading" }),
  budgetOverflow: z.enum(["truncate", "overshoot"]).default("truncate").describe("truncate the last round to the budget, or overshoot to finish it").meta({ value: "reading" }),
  trials: z.coerce.number().int().positive().default(2000).describe("simulated problems per cell").meta({ value: "count" }),
  seed: seedFlag.default(1).describe("random seed").meta({ value: "seed" }),
  json: z.boolean().default(false).describe("print the rows as JSON"),
});
/** `rllm simulate tournament`'s parsed flags. */
export type SimulateFlags = z.infer<typeof SimulateFlagsSchema>;
