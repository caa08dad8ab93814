/** `rllm sft <dataset>`'s action: reads and tokenizes the rows, runs the SFT loop on a training backend, with --resume. */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { readJsonlRows } from "../../core/dataset.js";
import { InputError } from "../../core/errors/input-error.js";
import { createRng, shuffled } from "../../core/random.js";
import { rllmHome } from "../../core/rllm-home.js";
import { localSplitPath, readLocalDataset } from "../../datasets/local-dataset.js";
import { SftRowSchema, type SftRow } from "../../datasets/sft-row.js";
import { checkRunDirectory, openRunDirectory, writeJsonAtomically } from "../../runs/run-directory.js";
import { JsonlAppender } from "../../runs/append-only-jsonl.js";
import { keepMetricsUpTo, MetricsLineHeadSchema, trainingRunPaths } from "../../runs/training-run-files.js";
import { trainingBackends } from "../../training/backends/training-backends.js";
import { tokenizeSftRow, type ChatTokenizer, type SftSequence, type TokenizeMethod } from "../../training/sft/tokenize-sft-row.js";
import type { SftRecord } from "../../training/sft/run-sft.js";
import { assertCheckpointDirectory } from "../../core/check-paths.js";
import { interruptOnCtrlC } from "../interrupt-on-ctrl-c.js";
import type { SftFlags } from "./sft-flags.js";
import type { TrainedOn } from "../../runs/read-run-files.js";
import { assertBackendFlagsHonoured } from "../assert-backend-flags.js";
import { checkpointFolder, checkpointStep } from "../../training/checkpoint-folder.js";
import { serveCommand } from "../serve-command-line.js";
import { assertServiceReachable } from "../../evaluation/assert-endpoint-answers.js";

/** Rows read for training and validation: a `val` split of the dataset, else a seeded share of the training rows. */
function readRows(name: string, flags: SftFlags): { train: SftRow[]; val: SftRow[] } {
  const home = rllmHome();
  const manifest = readLocalDataset(home, name);
  if (!manifest) throw new InputError(`${name}: no curated or registered dataset of that name (see rllm dataset list; make one with rllm dataset from-eval or register)`);
  const splits = Object.keys(manifest.splits);
  if (!splits.includes(flags.split)) throw new InputError(`--split ${flags.split}: dataset ${name} has ${splits.join(", ")}`);
  const train = readJsonlRows(localSplitPath(home, name, flags.split), SftRowSchema);
  if (splits.includes("val") && flags.split !== "val" && manifest.splits.val!.rows > 0) return { train, val: readJsonlRows(localSplitPath(home, name, "val"), SftRowSchema) };
  const held = Math.round(train.length * flags.valFraction);
  const order = shuffled(train, createRng(flags.seed));
  return { train: order.slice(held), val: order.slice(0, held) };
}

/** Each row's sequences, rows with a sequence over `maxLength` dropped and counted. */
function tokenizeRows(rows: readonly SftRow[], method: TokenizeMethod, tokenizer: ChatTokenizer | undefined, maxLength: number) {
  const kept: SftSequence[][] = [];
  let dropped = 0;
  for (const row of rows) {
    const sequences = tokenizeSftRow(row, method, tokenizer);
    if (sequences.some((sequence) => sequence.tokens.length > maxLength)) dropped += 1;
    else kept.push(sequences);
  }
  return { kept, dropped };
}

// Written into a checkpoint folder once the backend has saved it: a folder without it is an unfinished save.
const CHECKPOINT_RECORD = "sft-checkpoint.json";

/** The last finished checkpoint of a run folder, by step number, if any. */
function lastCheckpoint(directory: string): { step: number; path: string } | undefined {
  const root = path.join(directory, "checkpoints");
  if (!existsSync(root)) return undefined;
  // Runs saved before the one naming scheme have unpadded folders (`step-10`): they resume too.
  const saved = readdirSync(root)
    .map((entry) => ({ entry, step: checkpointStep(entry) }))
    .filter((folder): folder is { entry: string; step: number } => folder.step !== undefined && existsSync(path.join(root, folder.entry, CHECKPOINT_RECORD)));
  if (saved.length === 0) return undefined;
  const last = saved.reduce((best, folder) => (folder.step > best.step ? folder : best));
  return { step: last.step, path: path.join(root, last.entry) };
}

/** Runs `rllm sft <dataset>`. */
export async function sftAction(flags: SftFlags, [name]: [string]): Promise<void> {
  // An unknown backend, or a flag the chosen backend does not read, is refused before any file is read.
  trainingBackends.get(flags.backend);
  assertBackendFlagsHonoured(flags);
  if (flags.resume && !flags.out) throw new InputError("--resume needs --out <run directory>");
  if (flags.checkpoint) assertCheckpointDirectory("--checkpoint", flags.checkpoint);
  const rows = readRows(name, flags);
  // Rows curated from a test-split eval: a later eval on that split would measure what the model was trained on.
  const source = readLocalDataset(rllmHome(), name)!;
  const testSplits = (source.sourceSplits ?? []).filter((split) => split === "test");
  if (testSplits.length > 0) {
    console.error(
      `rllm: warning: dataset ${name} was curated from eval runs on the test split of ${source.benchmark ?? "its benchmark"}: ` +
        "an eval of the trained model on that split is contaminated (it measures rows it trained on); evaluate on a split it has not seen",
    );
  }
  const method = flags.tokenizeMethod ?? (rows.train.every((row) => row.sampled) ? "sampled" : "hf_template");
  const checkpoint = flags.checkpoint ? path.resolve(flags.checkpoint) : undefined;
  const { out: _out, resume: _resume, ...settings } = flags;
  // The test splits it trained on, kept in config.json so that `rllm serve --checkpoint` can warn about contaminated evals.
  const config = { command: "sft", dataset: name, ...settings, checkpoint: checkpoint ?? null, tokenizeMethod: method, ...(testSplits.length > 0 ? { trainedOn: { benchmark: source.benchmark ?? null, splits: testSplits } satisfies TrainedOn } : {}) };
  const directory = flags.out ?? path.join("runs", `sft-${name}-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  checkRunDirectory(directory, config, flags.resume);

  // One request before the backend starts: a dead --base-url fails here, naming it, instead of after the retries.
  if (flags.baseUrl) await assertServiceReachable(flags.baseUrl, flags.model ?? "(default)");
  const createBackend = await trainingBackends.load(flags.backend);
  const { runSft, stepsPerEpoch } = await import("../../training/sft/run-sft.js");
  const { backend, baseModel, chatTokenizer } = await createBackend(checkpoint, {
    model: flags.model,
    loraRank: flags.loraRank,
    baseUrl: flags.baseUrl,
    tokenizer: flags.tokenizer,
    notify: (message) => console.error(`rllm: ${message}`),
  });
  const interrupt = interruptOnCtrlC("rllm: stopping after this step (--resume continues from the last checkpoint)");
  // Opened once the file holds what this invocation continues from; one write per line, a torn tail repaired first.
  let metrics: JsonlAppender<SftRecord> | undefined;
  try {
    // Opened first: a remote backend learns the model's context length and tokenizer from the service.
    await backend.open({ baseModel, seed: flags.seed });
    // A service that does not say its context length (0) leaves the rows to --max-length alone.
    const maxLength = Math.min(flags.maxLength ?? Number.POSITIVE_INFINITY, backend.capabilities().maxContext || Number.POSITIVE_INFINITY);
    const tokenizer = method === "sampled" ? undefined : chatTokenizer?.();
    const train = tokenizeRows(rows.train, method, tokenizer, maxLength);
    const val = tokenizeRows(rows.val, method, tokenizer, maxLength);
    if (train.kept.length === 0) throw new InputError(`${name}: all ${rows.train.length} training rows are longer than ${maxLength} tokens`);
    openRunDirectory(directory, config, flags.resume);
    const metricsFile = trainingRunPaths(directory).metrics;
    let completedSteps = 0;
    const resumeFrom = flags.resume ? lastCheckpoint(directory) : undefined;
    if (resumeFrom) {
      await backend.restore(resumeFrom.path);
      completedSteps = resumeFrom.step;
    }
    // Without a checkpoint every line is run again, the step-0 validation included.
    if (flags.resume) keepMetricsUpTo(metricsFile, resumeFrom ? completedSteps : -1, MetricsLineHeadSchema);
    metrics = new JsonlAppender<SftRecord>(metricsFile);
    const totalSteps = stepsPerEpoch(train.kept.length, flags.batchSize) * flags.epochs;
    console.error(
      `rllm sft ${name} · backend ${backend.name} · ${method} · ${train.kept.length} rows (${train.dropped} over ${maxLength} tokens dropped), ` +
        `val ${val.kept.length} (${val.dropped} dropped) · ${totalSteps} steps${completedSteps > 0 ? `, resuming after step ${completedSteps}` : ""} → ${directory}`,
    );
    let lastSaved: { step: number; checkpoint: string; samplerPath?: string } | undefined;
    const state = { dataset: name, rows: train.kept.length, droppedRows: train.dropped, valRows: val.kept.length, droppedValRows: val.dropped, totalSteps };
    const last = await runSft({
      backend,
      train: train.kept,
      val: val.kept,
      batchSize: flags.batchSize,
      epochs: flags.epochs,
      learningRate: flags.lr,
      schedule: flags.lrSchedule,
      warmupSteps: flags.warmupSteps,
      valEvery: flags.valEvery,
      saveEvery: flags.saveEvery,
      seed: flags.seed,
      completedSteps,
      signal: interrupt.signal,
      checkpoint: async (step) => {
        const folder = path.join("checkpoints", checkpointFolder(step));
        const { statePath, samplerPath } = await backend.checkpoint(path.join(directory, folder));
        const record = { step, checkpoint: folder, ...(statePath ? { statePath } : {}), ...(samplerPath ? { samplerPath } : {}) };
        writeJsonAtomically(path.join(directory, folder, CHECKPOINT_RECORD), record);
        writeJsonAtomically(trainingRunPaths(directory).state, { ...state, ...record });
        lastSaved = record;
      },
      onRecord: (record) => {
        metrics!.append(record);
        console.error(formatRecord(record, totalSteps));
      },
    });
    const saved = lastSaved ? path.join(directory, lastSaved.checkpoint) : resumeFrom?.path;
    const sampler = lastSaved?.samplerPath ? `; sampler ${lastSaved.samplerPath}` : "";
    console.log(`sft: ${last}/${totalSteps} steps; checkpoint ${saved ?? "none"}${sampler}${saved && flags.backend === "local" ? `; serve it: ${serveCommand(saved)}` : ""}`);
  } finally {
    metrics?.close();
    interrupt.release();
    await backend.close();
  }
}

function formatRecord(record: SftRecord, totalSteps: number): string {
  if (record.kind === "validation") return `validation @${record.step}: loss ${record.loss.toFixed(4)} over ${record.tokens} tokens`;
  return `step ${record.step}/${totalSteps} (epoch ${record.epoch}): loss ${record.loss.toFixed(4)} · ${record.tokens} tokens · lr ${record.learningRate.toExponential(2)} · ${record.seconds.toFixed(0)}s`;
}
