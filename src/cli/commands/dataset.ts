/** `rllm dataset list | pull <name> | show <name>`'s actions: the benchmark catalogue, Hugging Face downloads, and a look at the rows. */
import { rllmHome } from "../../core/rllm-home.js";
import { readPullManifest } from "../../datasets/dataset-cache.js";
import { pullHubDataset } from "../../datasets/pull-hub-dataset.js";
import { messageText } from "../../core/message.js";
import { UnknownNameError } from "../../core/errors/unknown-name-error.js";
import { benchmarks } from "../../../benchmarks/registry.js";
import { assertInputFile } from "../check-paths.js";
import type { ShowFlags } from "./dataset-command.js";

// The command says "dataset", so its unknown-name message does too.
async function findBenchmark(name: string) {
  if (!benchmarks.has(name)) throw new UnknownNameError("dataset", name, benchmarks.names());
  return benchmarks.load(name);
}

/** `rllm dataset list`: every benchmark with its source, bundled sample and what is pulled. */
export async function listDatasets(): Promise<void> {
  const home = rllmHome();
  for (const benchmark of await benchmarks.loadAll()) {
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
}

/** `rllm dataset pull <name>`: downloads and caches every split. */
export async function pullDataset(_flags: unknown, [name]: [string]): Promise<void> {
  const benchmark = await findBenchmark(name);
  const options = { home: rllmHome(), onFile: (file: string, rows: number) => console.error(`  ${file}: ${rows} rows`) };
  const manifest = benchmark.pull ? await benchmark.pull(options) : await pullHubDataset(benchmark, options);
  for (const [split, { rows }] of Object.entries(manifest.splits)) console.log(`${name} ${split}: ${rows} rows`);
}

/** `rllm dataset show <name>`: the first tasks as the agent will see them. */
export async function showDataset(flags: ShowFlags, [name]: [string]): Promise<void> {
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
}
