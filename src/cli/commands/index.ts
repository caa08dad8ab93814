/**
 * Every `rllm` subcommand, in the order `rllm --help` lists them: a one-line summary for the command list, and a
 * loader for its definition (help text and flag schema). `rllm --help` reads only the summaries, `rllm eval --help`
 * loads only eval's definition, and eval's action module is loaded only when eval runs, so help never pays for
 * TensorFlow, SQLite, the OpenAI SDK or the math libraries.
 */
import type { CommandDefinition } from "../command-definition.js";
import { createRegistry, type RegistryEntry } from "../../core/registry.js";

/** A subcommand as the command list shows it, and how to load its definition. */
export interface CommandEntry extends RegistryEntry<CommandDefinition> {
  summary: string;
}

/** The subcommands by name. */
export const commands = createRegistry<CommandDefinition, CommandEntry>("command", {
  eval: {
    summary: "run a benchmark through a cookbook's agent flow and grade every episode",
    load: async () => (await import("./eval-command.js")).evalCommand,
  },
  cache: {
    summary: "show or clear the response cache of `rllm eval --cache`",
    load: async () => (await import("./cache-command.js")).cacheCommand,
  },
  grade: {
    summary: "grade rows of a JSONL file with a verifier (math, code, finqa)",
    load: async () => (await import("./grade-command.js")).gradeCommand,
  },
  dataset: {
    summary: "list, pull and show benchmark datasets; curate runs into training data; register your own",
    load: async () => (await import("./dataset-command.js")).datasetCommand,
  },
  rerank: {
    summary: "rerank candidates produced elsewhere with pairwise tournaments and baselines",
    load: async () => (await import("./rerank-command.js")).rerankCommand,
  },
  simulate: {
    summary: "offline simulations (no model calls)",
    load: async () => (await import("./simulate-command.js")).simulateCommand,
  },
  serve: {
    summary: "serve an OpenAI-compatible endpoint: the embedded tiny model, or reranking in front of another",
    load: async () => (await import("./serve-command.js")).serveCommand,
  },
  models: {
    summary: "pull real language models (GGUF, served by llama.cpp) by name and list them",
    load: async () => (await import("./models-command.js")).modelsCommand,
  },
  gateway: {
    summary: "record every chat call of an agent through an OpenAI-compatible proxy",
    load: async () => (await import("./gateway-command.js")).gatewayCommand,
  },
  sandbox: {
    summary: "serve the code sandbox behind SandboxFusion's HTTP API, for grading on other machines",
    load: async () => (await import("./sandbox-command.js")).sandboxCommand,
  },
  train: {
    summary: "train the policy on a cookbook's benchmark",
    load: async () => (await import("./train-command.js")).trainCommand,
  },
  sft: {
    summary: "supervised fine-tuning on a curated or registered dataset",
    load: async () => (await import("./sft-command.js")).sftCommand,
  },
  verl: {
    summary: "launch, watch and stop the verl trainer of `rllm train --backend verl` on a Ray cluster",
    load: async () => (await import("./verl-command.js")).verlCommand,
  },
  export: {
    summary: "export a run's episodes as training rows (jsonl, verl-parquet)",
    load: async () => (await import("./export-command.js")).exportCommand,
  },
  view: {
    summary: "write a run's self-contained HTML report, or serve it live while the run is written",
    load: async () => (await import("./view-command.js")).viewCommand,
  },
  compare: {
    summary: "compare two runs task by task: paired accuracy difference, McNemar's exact test",
    load: async () => (await import("./compare-command.js")).compareCommand,
  },
  new: {
    summary: "write a working cookbook, benchmark or verifier skeleton that imports only rllm-ts",
    load: async () => (await import("./new-command.js")).newCommand,
  },
});
