/** `rllm simulate tournament`: Monte-Carlo selection accuracy of V1 and the baselines on simulated judges (table or --json). */
import type { Command } from "commander";
import { z } from "zod";
import { SelectionMethodSchema, SlotPolicySchema } from "../../tournament/selection-methods.js";
import type { SimulationRow } from "../../tournament/simulate-tournament.js";
import { simulateTournament } from "../../tournament/simulate-tournament.js";
import { parseFlags } from "../parse-flags.js";

const commaList = <Item extends z.ZodType>(item: Item) =>
  z.string().transform((text, context) => {
    const parsed = z.array(item).min(1).safeParse(text.split(",").map((part) => part.trim()).filter(Boolean));
    if (parsed.success) return parsed.data as z.infer<Item>[];
    for (const issue of parsed.error.issues) context.addIssue({ code: "custom", message: `"${text}": ${issue.message}` });
    return z.NEVER;
  });

const SimulateFlagsSchema = z.object({
  methods: commaList(SelectionMethodSchema),
  n: z.coerce.number().int().min(1),
  correctProb: z.coerce.number().min(0).max(1),
  correctCount: z.coerce.number().int().nonnegative().optional(),
  judgeAccuracy: commaList(z.coerce.number().min(0).max(1)),
  positionBias: z.coerce.number().min(0).max(0.5),
  persistence: z.coerce.number().min(0).max(1),
  judgeModel: z.enum(["ratings", "binary"]),
  saturation: z.coerce.number().min(0).max(1),
  qualitySpread: z.coerce.number().nonnegative(),
  pointwiseInflation: z.coerce.number(),
  budgets: commaList(z.coerce.number().positive()),
  knockoutK: z.coerce.number().int().positive(),
  slots: SlotPolicySchema,
  swissRepeats: z.enum(["allow", "forbid"]),
  budgetOverflow: z.enum(["truncate", "overshoot"]),
  trials: z.coerce.number().int().positive(),
  seed: z.coerce.number().int(),
  json: z.boolean().default(false),
});
type SimulateFlags = z.infer<typeof SimulateFlagsSchema>;

/** Registers `rllm simulate tournament`. */
export function registerSimulateCommand(program: Command): void {
  const simulate = program.command("simulate").description("Offline simulations (no model calls)");
  simulate
    .command("tournament")
    .description(
      "Chance of selecting a correct candidate for each method and judge budget, on simulated candidates and judges\n" +
        "(latent correctness and quality, judge accuracy p, position bias b, persistent per-pair noise, V1-style ratings).",
    )
    .option("--methods <list>", `comma list of ${SelectionMethodSchema.options.join(", ")}`, "v1,random,pointwise")
    .option("--n <count>", "candidates per problem", "16")
    .option("--correct-prob <p>", "each candidate is correct with this probability", "0.3")
    .option("--correct-count <c>", "exactly c candidates are correct (overrides --correct-prob)")
    .option("--judge-accuracy <list>", "chance the judge prefers the correct one of a correct/incorrect pair; comma list", "0.7")
    .option("--position-bias <b>", "the correct one wins with p + b in slot A and p − b in slot B", "0")
    .option("--persistence <s>", "share of judge noise fixed per pair (repeats repeat mistakes)", "0")
    .option("--judge-model <kind>", "ratings (V1-style 1-10 dual ratings) or binary (exact p per mixed pair)", "ratings")
    .option("--saturation <s>", "ratings model: chance a call rates both 10", "0.05")
    .option("--quality-spread <s>", "σ_q of latent quality (plausible wrong answers the judge misranks every time)", "0.35")
    .option("--pointwise-inflation <g>", "pointwise judge self-bias added to every rating (3: most correct ones get 10/10)", "3")
    .option("--budgets <list>", "judge budgets as multiples of n, comma list", "1,2,3")
    .option("--knockout-k <k>", "comparisons per knockout match", "1")
    .option("--slots <policy>", "slot A: scheduled (V1's order), random, or both (two calls per pair)", "scheduled")
    .option("--swiss-repeats <reading>", "allow (Alg. 4: gap first) or forbid (prose: unseen pairs only)", "allow")
    .option("--budget-overflow <reading>", "truncate the last round to the budget, or overshoot to finish it", "truncate")
    .option("--trials <count>", "simulated problems per cell", "2000")
    .option("--seed <seed>", "random seed", "1")
    .option("--json", "print the rows as JSON")
    .action((rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(SimulateFlagsSchema, rawFlags);
      const rows = flags.judgeAccuracy.flatMap((judgeAccuracy) => simulateTournament(simulationFor(flags, judgeAccuracy)));
      console.log(flags.json ? JSON.stringify(rows, null, 2) : formatRows(rows));
    });
}

function simulationFor(flags: SimulateFlags, judgeAccuracy: number) {
  return {
    world: {
      n: flags.n,
      correctProb: flags.correctProb,
      correctCount: flags.correctCount,
      judgeAccuracy,
      positionBias: flags.positionBias,
      persistence: flags.persistence,
      judgeModel: flags.judgeModel,
      saturation: flags.saturation,
      qualitySpread: flags.qualitySpread,
      pointwiseInflation: flags.pointwiseInflation,
    },
    methods: flags.methods,
    budgets: flags.budgets,
    trials: flags.trials,
    seed: flags.seed,
    knockoutK: flags.knockoutK,
    slots: flags.slots,
    v1: { swissRepeats: flags.swissRepeats, budgetOverflow: flags.budgetOverflow },
  };
}

/** A plain-text table, one block per judge accuracy. */
function formatRows(rows: readonly SimulationRow[]): string {
  const lines: string[] = [];
  const header = ["method", "budget", "calls", "select acc", "± se", "gap closed"];
  for (const judgeAccuracy of [...new Set(rows.map((row) => row.judgeAccuracy))]) {
    const block = rows.filter((row) => row.judgeAccuracy === judgeAccuracy);
    const first = block[0]!;
    lines.push(`judge accuracy ${judgeAccuracy}, n ${first.n}: pass@1 ${first.passAt1.toFixed(3)}, pass@N ${first.passAtN.toFixed(3)}`);
    const cells = block.map((row) => [
      row.method,
      `${row.budget}×N`,
      row.judgeCalls.toFixed(1),
      row.selectAccuracy.toFixed(3),
      row.stderr.toFixed(3),
      row.gapClosed.toFixed(3),
    ]);
    const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column]!.length)));
    const format = (cell: string[]) => cell.map((value, column) => (column === 0 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!))).join("  ");
    lines.push(format(header), ...cells.map(format), "");
  }
  return lines.join("\n").trimEnd();
}
