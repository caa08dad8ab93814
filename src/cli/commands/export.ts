/** `rllm export <run-dir> --format jsonl|verl-parquet|tinker-datums`: hands a run's scored episodes to another trainer. */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { InputError } from "../../core/errors/input-error.js";
import { readEpisodes } from "../../engine/episode-log.js";
import { readRunConfig } from "../../engine/read-run-files.js";
import { runPaths } from "../../engine/run-directory.js";
import { AdvantageEstimatorSchema } from "../../training/advantages/index.js";
import { exportEpisodes, ExportFormatSchema } from "../../training/export/export-episodes.js";
import { assertWritableOutput } from "../check-paths.js";
import { parseFlags } from "../parse-flags.js";

const ExportFlagsSchema = z.object({
  format: ExportFormatSchema,
  out: z.string().optional(),
  estimator: AdvantageEstimatorSchema.default("grpo"),
  merge: z.enum(["prefix", "per_call"]).default("prefix"),
  minGroupSize: z.coerce.number().int().positive().default(2),
  dropUniform: z.boolean().default(false),
});

const EXTENSIONS = { jsonl: "jsonl", "verl-parquet": "parquet", "tinker-datums": "datums.jsonl" } as const;

/** Registers `rllm export`. */
export function registerExportCommand(program: Command): void {
  program
    .command("export")
    .description(
      "Export a run's episodes (<run-dir>/episodes.jsonl) as training rows built from the sampler's token ids:\n" +
        "  jsonl          one sequence per line: tokens, lossMask, samplerLogprobs, reward, advantage\n" +
        "  verl-parquet   verl RL rows (data_source, prompt, ability, reward_model, extra_info) + uid, prompt_ids,\n" +
        "                 response_ids, response_mask, rollout_log_probs, advantage, reward\n" +
        "  tinker-datums  one Tinker Datum per line (model_input, loss_fn_inputs: target_tokens, logprobs, advantages, mask)\n" +
        "Trajectories without token ids, unscored ones and too-small groups are dropped and counted.",
    )
    .argument("<run-dir>", "run directory written by rllm eval or rllm train")
    .requiredOption("--format <format>", "jsonl | verl-parquet | tinker-datums")
    .option("--out <file>", "output file (default <run-dir>/export.<format extension>)")
    .option("--estimator <name>", "advantage estimator: grpo, dr_grpo, rloo, reinforce, reinforce_plus_plus", "grpo")
    .option("--merge <mode>", "prefix: merge turns whose prompt extends the previous one; per_call: one row per call", "prefix")
    .option("--min-group-size <n>", "drop groups with fewer trajectories", "2")
    .option("--drop-uniform", "drop groups whose rewards are all equal")
    .action(async (runDirectory: string, rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(ExportFlagsSchema, rawFlags);
      const paths = runPaths(runDirectory);
      if (!existsSync(paths.episodes)) throw new InputError(`${paths.episodes} not found (is ${runDirectory} a run directory?)`);
      const file = flags.out ?? path.join(runDirectory, `export.${EXTENSIONS[flags.format]}`);
      assertWritableOutput(flags.out ? "--out" : "<run-dir>", file);
      const { rows, metrics } = await exportEpisodes(readEpisodes(paths.episodes), {
        format: flags.format,
        file,
        transform: { merge: flags.merge, minGroupSize: flags.minGroupSize, dropUniformGroups: flags.dropUniform },
        advantages: { estimator: flags.estimator, byRole: {}, roleWeights: {} },
        dataSource: runDataSource(runDirectory),
      });
      console.log(`${rows} rows → ${file}`);
      console.log(
        `trajectories ${metrics.trajectories}, kept ${metrics.keptTrajectories} in ${metrics.keptGroups} groups; dropped: ` +
          `no token ids ${metrics.droppedMissingTokenIds}, no logprobs ${metrics.droppedMissingLogprobs}, ` +
          `unscored ${metrics.droppedUnscored}, empty ${metrics.droppedEmpty}, infra errors ${metrics.droppedInfraError}, ` +
          `small groups ${metrics.droppedSmallGroups}, uniform groups ${metrics.droppedUniformGroups} ` +
          `(${metrics.droppedGroupTrajectories} trajectories)`,
      );
    });
}

/**
 * verl's data_source: the benchmark in the run's config.json; a training run's config names it only when it differs
 * from the cookbook's name, which is then the benchmark's. A training step folder (<run>/steps/<n>) reads its run's config two levels up.
 */
export function runDataSource(runDirectory: string): string {
  const isTrainingStep = path.basename(path.dirname(path.resolve(runDirectory))) === "steps";
  const configFile = runPaths(isTrainingStep ? path.join(runDirectory, "..", "..") : runDirectory).config;
  if (!existsSync(configFile)) return "rllm";
  const config = readRunConfig(configFile);
  return config.benchmark ?? config.cookbook ?? "rllm";
}
