/**
 * Every `rllm` subcommand, in the order `rllm --help` lists them: a one-line summary for the command list, and a
 * loader for the module that defines its flags and runs it. `rllm --help` reads only the summaries, and
 * `rllm eval ...` loads only eval, so help never pays for TensorFlow, SQLite or the math libraries.
 */
import type { Command } from "commander";
import { createRegistry, type RegistryEntry } from "../../core/registry.js";

/** Adds one subcommand, with its flags and action, to the program. */
export type RegisterCommand = (program: Command) => void;

/** A subcommand as the command list shows it, and how to load the rest of it. */
export interface CommandEntry extends RegistryEntry<RegisterCommand> {
  summary: string;
}

/** The subcommands by name. */
export const commands = createRegistry<RegisterCommand, CommandEntry>("command", {
  eval: {
    summary: "run a benchmark through a cookbook's agent flow and grade every episode",
    load: async () => (await import("./eval.js")).registerEvalCommand,
  },
  grade: {
    summary: "grade rows of a JSONL file with a verifier (math, code, finqa)",
    load: async () => (await import("./grade.js")).registerGradeCommand,
  },
  dataset: {
    summary: "list, pull and show benchmark datasets",
    load: async () => (await import("./dataset.js")).registerDatasetCommand,
  },
  rerank: {
    summary: "rerank candidates produced elsewhere with pairwise tournaments and baselines",
    load: async () => (await import("./rerank.js")).registerRerankCommand,
  },
  simulate: {
    summary: "offline simulations (no model calls)",
    load: async () => (await import("./simulate.js")).registerSimulateCommand,
  },
  serve: {
    summary: "serve an OpenAI-compatible endpoint: the embedded tiny model, or reranking in front of another",
    load: async () => (await import("./serve.js")).registerServeCommand,
  },
  gateway: {
    summary: "record every chat call of an agent through an OpenAI-compatible proxy",
    load: async () => (await import("./gateway.js")).registerGatewayCommand,
  },
  train: {
    summary: "train the policy on a cookbook's benchmark",
    load: async () => (await import("./train.js")).registerTrainCommand,
  },
  export: {
    summary: "export a run's episodes as training rows (jsonl, verl-parquet)",
    load: async () => (await import("./export.js")).registerExportCommand,
  },
});
