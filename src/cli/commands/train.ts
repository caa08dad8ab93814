/** `rllm train <cookbook> --backend local --config train.json`'s action: RL on the cookbook's benchmark, with metrics, validation, checkpoints and --resume. */
import path from "node:path";
import type { Cookbook } from "../../core/cookbook.js";
import { describeIssues, InputError } from "../../core/errors/input-error.js";
import { parseJsonFile } from "../../core/parse-json-file.js";
import { rllmHome } from "../../core/rllm-home.js";
import { configuredSandbox } from "../../core/user-config.js";
import { openRunResources } from "../../sandbox/run-resources.js";
import { checkRunDirectory, openRunDirectory } from "../../runs/run-directory.js";
import { readTrainState, trainingRunPaths } from "../../runs/training-run-files.js";
import { assertBatchSupported, type BackendCapabilities } from "../../training/backend.js";
import { UnsupportedRequestError } from "../../training/errors/unsupported-request-error.js";
import { trainingBackends } from "../../training/backends/training-backends.js";
import { assertAsyncSupported } from "../../training/assert-async-supported.js";
import { TrainConfigSchema, withTrainConfigDefaults, type TrainConfig } from "../../training/train-config.js";
import { benchmarks } from "../../../benchmarks/registry.js";
import { hasBenchmark, resolveBenchmark } from "../../../benchmarks/resolve-benchmark.js";
import { resolveCookbook } from "../../evaluation/resolve-cookbook.js";
import { assertCheckpointDirectory, assertInputFile } from "../../core/check-paths.js";
import type { TrainFlags } from "./train-flags.js";
import { interruptOnCtrlC } from "../interrupt-on-ctrl-c.js";
import { trainProgress } from "../train-progress.js";
import { resumeCommand } from "../resume-command.js";
import { assertBackendFlagsHonoured } from "../assert-backend-flags.js";
import { serveCommand } from "../serve-command-line.js";
import { sandboxSettingFromFlags } from "../shared-flags.js";
import { assertServiceReachable } from "../../evaluation/assert-endpoint-answers.js";

/** Runs `rllm train <cookbook>`. */
export async function trainAction(flags: TrainFlags, [cookbookName]: [string?]): Promise<void> {
  if (flags.capabilities) {
    const { capabilitiesMatrix } = await import("../../training/backends/capabilities-matrix.js");
    console.log(await capabilitiesMatrix());
    return;
  }
  if (!cookbookName) throw new InputError("rllm train: give a cookbook (e.g. rllm train arith), or --capabilities");
  // Everything is checked before any work, and the run folder is written only once the run starts, so a refused
  // start leaves nothing behind that a retry would mistake for a run.
  trainingBackends.get(flags.backend); // an unknown --backend is refused before any file is read
  const cookbook = await resolveCookbook(cookbookName);
  const configFile = trainConfigFile(flags.config, cookbook);
  if (configFile && !flags.config) console.error(`rllm: using the cookbook's shipped config ${configFile} (--config overrides)`);
  const config = readTrainConfig(configFile, flags);
  if (flags.resume && !config.out) throw new InputError("--resume needs --out <run directory> (or out in the config)");
  assertBackendFlagsHonoured(flags);
  const checkpoint = flags.checkpoint ? path.resolve(flags.checkpoint) : undefined;
  if (flags.checkpoint) assertCheckpointDirectory("--checkpoint", flags.checkpoint);
  const sandbox = configuredSandbox(rllmHome(), sandboxSettingFromFlags(flags));
  const benchmarkName = config.benchmark ?? cookbook.name;
  if (!hasBenchmark(benchmarkName, rllmHome())) throw new InputError(`no benchmark "${benchmarkName}" for cookbook ${cookbook.name}; set "benchmark" in the config (available: ${benchmarks.names().join(", ")})`);
  const benchmark = await resolveBenchmark(benchmarkName, rllmHome());
  const trainTasks = await benchmark.loadTasks({ split: config.trainSplit, home: rllmHome() });
  const testTasks = await benchmark.loadTasks({ split: config.validation.split, home: rllmHome() });
  if (config.trainSplit === config.validation.split) {
    console.error(
      `rllm: warning: trainSplit and validation.split are both "${config.trainSplit}": validation (and a later eval on that split) measures tasks the policy trained on`,
    );
  }
  const directory = config.out ?? path.join("runs", `train-${cookbook.name}-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  const remote = flags.backend === "tinker" || flags.backend === "fireworks" ? { model: flags.model ?? null, loraRank: flags.loraRank ?? null } : {};
  // maxInfraErrorRate is a stop guard, not part of what is trained: --resume may raise it after a stop.
  const runConfig = { command: "train", cookbook: cookbook.name, backend: flags.backend, checkpoint: checkpoint ?? null, ...remote, sandbox, ...config, out: undefined, maxInfraErrorRate: undefined };
  checkRunDirectory(directory, runConfig, flags.resume, withTrainConfigDefaults);
  // Loaded here, not at the top: backends and the loop bring TensorFlow, which `rllm train --help` must not load.
  // One request before the backend starts: a dead --base-url fails here, naming it, instead of after the retries.
  if (flags.baseUrl) await assertServiceReachable(flags.baseUrl, flags.model ?? "(default)");
  const createTrainingBackend = await trainingBackends.load(flags.backend);
  const { runTraining } = await import("../../training/loop/run-training.js");
  const { backend, baseModel } = await createTrainingBackend(checkpoint, {
    model: flags.model,
    loraRank: flags.loraRank,
    baseUrl: flags.baseUrl,
    tokenizer: flags.tokenizer,
    notify: (message) => console.error(`rllm: ${message}`),
  });
  // The run's sandbox and the cookbook's pools, warm before the first rollout and closed when the run ends.
  const resources = openRunResources({ sandbox });
  try {
    assertConfigSupported(backend.capabilities(), config, configFile);
    assertAsyncOptions(backend.capabilities(), config);
    await resources.warm(cookbook.pools ?? []);
    openRunDirectory(directory, runConfig, flags.resume, { resources: resources.record() }, withTrainConfigDefaults);
  } catch (error) {
    await Promise.all([backend.close(), resources.close()]);
    throw error;
  }

  const interrupt = interruptOnCtrlC(
    "rllm: stopping: the rollouts under way are cancelled (the finished ones are kept), the update under way finishes and is checkpointed (Ctrl-C again to quit at once, back to the last checkpoint)",
  );
  console.error(`rllm train ${cookbook.name} · backend ${backend.name} · ${config.steps} steps → ${directory}`);
  const progress = trainProgress(process.stderr, config);
  try {
    await runTraining({
      resources,
      config,
      cookbook,
      trainTasks,
      testTasks,
      backend,
      baseModel,
      directory,
      resume: flags.resume,
      signal: interrupt.signal,
      onNotice: (line) => console.error(`rllm: ${line}`),
      ...progress,
    });
    if (interrupt.signal.aborted) {
      console.error(`rllm: ${interruptedLine(directory, config.steps)}; continue with: ${resumeCommand(process.argv.slice(2), directory)}`);
      process.exitCode = 130;
    } else {
      console.log(finalLine(directory, config.steps, flags.backend));
    }
  } finally {
    interrupt.release();
    await resources.close();
  }
}

/** Where an interrupted run stands: the checkpoint a resume starts from, or that none was needed yet. */
function interruptedLine(directory: string, steps: number): string {
  const state = readTrainState(trainingRunPaths(directory).state);
  if (!state) return `interrupted before the first update: nothing was trained, so there is no checkpoint (a resume keeps the step-0 validation and the finished rollouts)`;
  return `interrupted: ${state.step}/${steps} steps, checkpoint ${path.join(directory, state.checkpoint)}`;
}

/** Where the run ended: its last checkpoint and, for the tiny model, the command that serves it. */
function finalLine(directory: string, steps: number, backend: string): string {
  const state = readTrainState(trainingRunPaths(directory).state);
  if (!state) return `train: no checkpoint saved in ${directory}`;
  const checkpoint = path.join(directory, state.checkpoint);
  return `train: ${state.step}/${steps} steps; checkpoint ${checkpoint}${backend === "local" ? `; serve it: ${serveCommand(checkpoint)}` : ""}`;
}

/** The config's loss, aggregation and merge checked against the backend, as a usage error naming the config file. */
function assertConfigSupported(capabilities: BackendCapabilities, config: TrainConfig, configFile: string | undefined): void {
  try {
    // An empty batch carries every option a step will send; the rows' lengths are checked per step.
    assertBatchSupported(capabilities, {
      sequences: [],
      loss: config.loss,
      lossAggregation: config.lossAggregation,
      merge: config.transform.merge,
      optimizer: config.optimizer,
      substeps: config.substeps,
    });
  } catch (error) {
    if (error instanceof UnsupportedRequestError) throw new InputError(`${configFile ?? "train config"}: ${error.message}`);
    throw error;
  }
}

/** The async settings checked against the backend, as a usage error naming the flag. */
function assertAsyncOptions(capabilities: BackendCapabilities, config: TrainConfig): void {
  try {
    assertAsyncSupported(capabilities, config);
  } catch (error) {
    if (error instanceof UnsupportedRequestError) throw new InputError(`rllm train: ${error.message}`);
    throw error;
  }
}

/** The config to read: `--config` when given, else the one the cookbook ships (its `trainConfig`). */
export function trainConfigFile(explicit: string | undefined, cookbook: Cookbook): string | undefined {
  return explicit ?? cookbook.trainConfig;
}

/** The config file (or the defaults) with the command-line overrides applied. */
function readTrainConfig(file: string | undefined, flags: TrainFlags): TrainConfig {
  let raw: Record<string, unknown> = {};
  if (file) {
    assertInputFile("--config", file);
    const parsed = parseJsonFile(file);
    // Spread into the overrides below, an array or a number would silently become the built-in defaults.
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new InputError(`${file}: expected a JSON object of training settings, got ${Array.isArray(parsed) ? "an array" : JSON.stringify(parsed)}`);
    }
    raw = parsed as Record<string, unknown>;
  }
  const parsed = TrainConfigSchema.safeParse(withFlagOverrides(raw, flags));
  if (!parsed.success) throw new InputError(describeIssues(file ?? "train config", undefined, parsed.error));
  return parsed.data;
}

/** `raw` with what the flags override: steps, out, the infra-error stop, the async settings, TIS, truncation masking. */
export function withFlagOverrides(raw: Record<string, unknown>, flags: Pick<TrainFlags, "steps" | "out" | "maxInfraErrorRate" | "async" | "maxStaleness" | "partialRollouts" | "staleGroups" | "tisCap" | "maskTruncated">): Record<string, unknown> {
  const section = (key: string) => (typeof raw[key] === "object" && raw[key] !== null ? (raw[key] as Record<string, unknown>) : {});
  const configured = section("async");
  const configuredStaleness = typeof configured.maxStaleness === "number" ? configured.maxStaleness : 0;
  // --async alone means one version of staleness, unless the config already allows more.
  const maxStaleness = flags.maxStaleness ?? (flags.async ? Math.max(1, configuredStaleness) : undefined);
  const staleness = maxStaleness ?? configuredStaleness;
  // Each of these would be silently ignored by the synchronous loop (K = 0), so each is refused by name instead.
  if (flags.async && flags.maxStaleness === 0) throw new InputError("--async with --max-staleness 0: 0 is the synchronous loop; give --max-staleness above 0, or leave out --async");
  if (flags.partialRollouts && staleness === 0) throw new InputError("--partial-rollouts: only the async loop has episodes in flight across an update; add --async (or --max-staleness above 0)");
  if (flags.staleGroups !== undefined && staleness === 0) throw new InputError("--stale-groups: only the async loop has stale groups (the synchronous loop trains each step on rollouts of the newest version); add --async (or --max-staleness above 0)");
  return {
    ...raw,
    ...(flags.steps !== undefined ? { steps: flags.steps } : {}),
    ...(flags.out !== undefined ? { out: flags.out } : {}),
    ...(flags.maxInfraErrorRate !== undefined ? { maxInfraErrorRate: flags.maxInfraErrorRate } : {}),
    async: {
      ...configured,
      ...(maxStaleness !== undefined ? { maxStaleness } : {}),
      ...(flags.partialRollouts ? { partialRollouts: true } : {}),
      ...(flags.staleGroups !== undefined ? { staleGroups: flags.staleGroups } : {}),
    },
    ...(flags.tisCap !== undefined ? { loss: { ...section("loss"), tisCap: flags.tisCap } } : {}),
    ...(flags.maskTruncated ? { transform: { ...section("transform"), maskTruncated: true } } : {}),
  };
}
