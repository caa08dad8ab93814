/**
 * `rllm dataset list | pull | show | register | remove`'s actions: the benchmark catalogue, Hugging Face downloads, a
 * look at the rows, and the user's own datasets.
 */
import path from "node:path";
import { duplicateIdChecker, QaRowSchema, rowProblemsError } from "../../core/dataset.js";
import { describeIssues, InputError } from "../../core/errors/input-error.js";
import { rllmHome } from "../../core/rllm-home.js";
import { localDatasetNames, localSplitPath, readLocalDataset, removeLocalDataset, writeLocalDataset } from "../../datasets/local-dataset.js";
import { readRowFile } from "../../datasets/read-row-file.js";
import { SftRowSchema } from "../../datasets/sft-row.js";
import { readPullManifest } from "../../datasets/dataset-cache.js";
import { DatasetUnavailableError, pullHubDataset } from "../../datasets/pull-hub-dataset.js";
import type { Benchmark } from "../../core/benchmark.js";
import { assertEmbeddedModelCanRun } from "../../evaluation/check-embedded-model.js";
import { resolveCookbook } from "../../evaluation/resolve-cookbook.js";
import { messageText } from "../../core/message.js";
import { UnknownNameError } from "../../core/errors/unknown-name-error.js";
import { benchmarks } from "../../../benchmarks/registry.js";
import { assertInputFile } from "../../core/check-paths.js";
import type { RegisterFlags, ShowFlags } from "./dataset-flags.js";
import { resolveBenchmark } from "../../../benchmarks/resolve-benchmark.js";
import { formatBenchmarkCatalog } from "../format-benchmark-catalog.js";

// The command says "dataset", so its unknown-name message does too.
async function findBuiltInBenchmark(name: string) {
  if (!benchmarks.has(name)) throw new UnknownNameError("dataset", name, benchmarks.names());
  return benchmarks.load(name);
}

/** `rllm dataset list`: every benchmark grouped by kind (size, licence, grader, what is pulled), then the user's own datasets. */
export async function listDatasets(): Promise<void> {
  const home = rllmHome();
  const builtIn = await benchmarks.loadAll();
  const local = localDatasetNames(home);
  // One name column for the built-in benchmarks and the user's datasets.
  const width = Math.max(...[...builtIn, ...local.map((name) => ({ name }))].map(({ name }) => name.length));
  for (const line of formatBenchmarkCatalog(builtIn, (name) => readPullManifest(home, name), width)) console.log(line);
  if (local.length > 0) console.log("your datasets:");
  for (const name of local) {
    const manifest = readLocalDataset(home, name)!;
    const splits = Object.entries(manifest.splits).map(([split, { rows }]) => `${split} ${rows}`).join(", ");
    console.log(`  ${name.padEnd(width)}  ${manifest.kind} dataset: ${splits}${manifest.benchmark ? ` · from ${manifest.benchmark}` : ""}`);
  }
  console.log(`cache: ${home}`);
}

/** `rllm dataset pull <name>`: downloads and caches every split. */
export async function pullDataset(_flags: unknown, [name]: [string]): Promise<void> {
  const benchmark = await findBuiltInBenchmark(name);
  const options = { home: rllmHome(), onFile: (file: string, rows: number) => console.error(`  ${file}: ${rows} rows`) };
  let manifest: { splits: Record<string, { rows: number }> };
  try {
    manifest = benchmark.pull ? await benchmark.pull(options) : await pullHubDataset(benchmark, options);
  } catch (error) {
    if (!(error instanceof DatasetUnavailableError) || !error.bundledSample) throw error;
    // The advice names a command that works: rllm eval alone only where the embedded model can run the sample.
    const fits = await embeddedModelFits(benchmark);
    throw new DatasetUnavailableError(error.dataset, error.url, error.reason, error.bundledSample, fits);
  }
  for (const [split, { rows }] of Object.entries(manifest.splits)) console.log(`${name} ${split}: ${rows} rows`);
}

/** Whether `rllm eval <benchmark>` with no endpoint would run the bundled sample (the check rllm eval makes first). */
async function embeddedModelFits(benchmark: Benchmark): Promise<boolean> {
  const tasks = await benchmark.loadTasks({ home: rllmHome(), split: "test" });
  try {
    await assertEmbeddedModelCanRun(benchmark.name, await resolveCookbook(benchmark.defaultCookbook), tasks);
    return true;
  } catch (error) {
    if (error instanceof InputError) return false;
    throw error;
  }
}

/** `rllm dataset show <name>`: the first tasks as the agent will see them. */
export async function showDataset(flags: ShowFlags, [name]: [string]): Promise<void> {
  if (flags.data) assertInputFile("--data", flags.data);
  const benchmark = benchmarks.has(name) ? await findBuiltInBenchmark(name) : await resolveBenchmark(name, rllmHome());
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

/** `rllm dataset register <name> --file rows`: validates every row (file:line: field "x": why) and stores them as a split. */
export async function registerDataset(flags: RegisterFlags, [name]: [string]): Promise<void> {
  const home = rllmHome();
  if (benchmarks.has(name)) throw new InputError(`${name}: that is a built-in benchmark; choose another name`);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new InputError(`${name}: a dataset name has letters, digits, '.', '_' and '-' only`);
  if (flags.benchmark !== undefined && !benchmarks.has(flags.benchmark)) throw new InputError(`--benchmark ${flags.benchmark}: not a built-in benchmark (${benchmarks.names().join(", ")})`);
  const existing = flags.force ? undefined : readLocalDataset(home, name);
  // A new split joins a registered dataset (train, then test); anything else would replace rows, which takes --force.
  if (existing && (existing.kind !== "registered" || flags.split in existing.splits || existing.benchmark !== flags.benchmark)) {
    const why = existing.kind !== "registered" ? "curated" : flags.split in existing.splits ? `registered with split ${flags.split}` : `registered for benchmark ${existing.benchmark ?? "qa"}`;
    throw new InputError(`${name}: a dataset of that name exists, ${why} (rllm dataset remove ${name}, or --force to replace it)`);
  }
  const located = await readRowFile(flags.file);
  if (located.length === 0) throw new InputError(`${flags.file}: no rows`);
  const rows: { id: string }[] = [];
  // Unreadable lines, rows the schema refuses and repeated ids, all in one error.
  const problems: string[] = [];
  const duplicate = duplicateIdChecker();
  for (const { value, where, position, unreadable } of located) {
    if (unreadable !== undefined) {
      problems.push(`${where}: ${unreadable}`);
      continue;
    }
    // A row with messages is a chat row for sft; any other row is a task for eval and train.
    const isChat = typeof value === "object" && value !== null && "messages" in value;
    const parsed = (isChat ? SftRowSchema : QaRowSchema).safeParse(value);
    if (!parsed.success) problems.push(describeIssues(where, undefined, parsed.error));
    else {
      // JSON arrays and parquet files have rows (`file: row n`), the text formats lines (`file:n`).
      const repeated = duplicate(parsed.data.id, where, where.endsWith(`: row ${position}`) ? `row ${position}` : `line ${position}`);
      if (repeated !== undefined) problems.push(repeated);
      else rows.push(parsed.data);
    }
  }
  if (problems.length > 0) throw rowProblemsError(flags.file, problems);
  const kept: Record<string, unknown[]> = {};
  for (const split of Object.keys(existing?.splits ?? {})) kept[split] = (await readRowFile(localSplitPath(home, name, split))).map((row) => row.value);
  const directory = writeLocalDataset(
    home,
    {
      kind: "registered",
      name,
      createdAt: new Date().toISOString(),
      ...(flags.benchmark ? { benchmark: flags.benchmark } : {}),
      command: ["rllm", ...process.argv.slice(2)],
      splits: { ...existing?.splits, [flags.split]: { rows: rows.length } },
      sourceFile: path.resolve(flags.file),
      rows: [],
    },
    { ...kept, [flags.split]: rows },
  );
  console.log(`registered ${name}: ${rows.length} rows as split ${flags.split} in ${directory}${existing ? ` (beside ${Object.keys(existing.splits).join(", ")})` : ""}`);
}

/** `rllm dataset remove <name>`: deletes a registered or curated dataset. */
export async function removeDataset(_flags: unknown, [name]: [string]): Promise<void> {
  removeLocalDataset(rllmHome(), name);
  console.log(`removed ${name}`);
}
