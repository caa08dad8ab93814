/** `rllm simulate tournament`: its help text and arguments (light, for help; the flags are in simulate-flags.ts); the simulation runs in simulate.ts. */
import { defineCommand, defineCommandGroup, noArguments } from "../command-definition.js";
import { SimulateFlagsSchema } from "./simulate-flags.js";

/** `rllm simulate` and its one subcommand. */
export const simulateCommand = defineCommandGroup({
  name: "simulate",
  description: "Offline simulations (no model calls)",
  subcommands: [
    defineCommand({
      name: "tournament",
      description:
        "Chance of selecting a correct candidate for each method and judge budget, on simulated candidates and judges\n" +
        "(latent correctness and quality, judge accuracy p, position bias b, persistent per-pair noise, V1-style ratings).",
      arguments: noArguments,
      flags: SimulateFlagsSchema,
      loadAction: async () => (await import("./simulate.js")).simulateAction,
    }),
  ],
});
