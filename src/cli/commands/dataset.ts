/** `rllm dataset list | pull <name> | show <name>`: the benchmark catalogue, Hugging Face downloads, and a look at the rows. */
import type { Command } from "commander";
import { z } from "zod";
import { InputError } from "../../core/errors/input-error.js";
import { rllmHome } from "../../core/rllm-home.js";
import { readPullManifest } from "../../datasets/dataset-cache.js";
import { pullHubDataset } from "../../datasets/pull-hub-dataset.js";
import { messageText } from "../../core/message.js";
import { benchmarkNames, loadAllBenchmarks, loadBenchmark } from "../../../benchmarks/registry.js";
import { assertInputFile } from "../check-paths.js";
import { parseFlags } from "../parse-flags.js";

const ShowFlagsSchema = z.object({
  split: z.string().default("test"),
  rows: z.coerce.number().int().positive().default(3),
  data: z.string().optional(),
});

async function findBenchmark(name: string) {
  const benchmark = await loadBenchmark(name);
  if (!benchmark) throw new InputError(`unknown dataset "${name}"; available: ${benchmarkNames.join(", ")}`);
  return benchmark;
}

/** Registers `rllm dataset`. */
export function registerDatasetCommand(program: Command): void {
  const dataset = program.command("dataset").description(`Benchmark datasets: list them, pull the full data from Hugging Face into the cache ($RLLM_HOME, default ~/.cache/rllm-ts), show rows.`);

  dataset
    .command("list")
    .description("list every benchmark with its source, bundled sample and what is pulled")
    .action(async () => {
      const home = rllmHome();
      for (const benchmark of await loadAllBenchmarks()) {
        const manifest = readPullManifest(home, benchmark.name);
        const pulled = manifest
          ? `pulled: ${Object.entries(manifest.splits).map(([split, { rows }]) => `${split} ${rows}`).join(", ")}`
          : benchmark.hub || benchmark.pull
            ? "not pulled"
            : "nothing to pull";
        console.log(`${benchmark.name.padEnd(10)} ${benchmark.description}`);
        console.log(`${"".padEnd(10)} source: ${benchmark.hub ? `hf:${benchmark.hub.repo}` : benchmark.pull ? "custom download" : "bundled / --data only"} · ${pulled}${benchmark.bundledSample ? ` · sample: ${benchmark.bundledSample}` : ""}`);
      }
      console.log(`cache: ${home}`);
    });

  dataset
    .command("pull")
    .description("download the benchmark's parquet files from Hugging Face (HF_ENDPOINT selects a mirror) and cache every split as JSONL")
    .argument("<name>", "benchmark name")
    .action(async (name: string) => {
      const benchmark = await findBenchmark(name);
      const options = { home: rllmHome(), onFile: (file: string, rows: number) => console.error(`  ${file}: ${rows} rows`) };
      const manifest = benchmark.pull ? await benchmark.pull(options) : await pullHubDataset(benchmark, options);
      for (const [split, { rows }] of Object.entries(manifest.splits)) console.log(`${name} ${split}: ${rows} rows`);
    });

  dataset
    .command("show")
    .description("print the first tasks of a benchmark as the agent will see them (pulled data if present, else the bundled sample)")
    .argument("<name>", "benchmark name")
    .option("--split <name>", "split", "test")
    .option("-n, --rows <n>", "how many tasks", "3")
    .option("--data <file.jsonl>", "show your own rows instead")
    .action(async (name: string, rawFlags: Record<string, unknown>, command: Command) => {
      const flags = parseFlags(ShowFlagsSchema, rawFlags, command);
      if (flags.data) assertInputFile("--data", flags.data);
      const benchmark = await findBenchmark(name);
      const tasks = await benchmark.loadTasks({ home: rllmHome(), split: flags.split, dataFile: flags.data });
      console.log(`${name}: ${tasks.length} tasks`);
      for (const task of tasks.slice(0, flags.rows)) {
        const instruction = typeof task.instruction === "string" ? task.instruction : messageText(task.instruction);
        const images = typeof task.instruction === "string" ? 0 : task.instruction.filter((block) => block.type === "image_url").length;
        console.log(`\n# ${task.id}${images ? ` (${images} image${images > 1 ? "s" : ""})` : ""}\n${instruction}`);
        const truth = task.metadata.ground_truth ?? task.metadata.answer;
        if (truth !== undefined) console.log(`ground truth: ${typeof truth === "string" ? truth : JSON.stringify(truth)}`);
      }
    });
}
