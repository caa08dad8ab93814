/**
 * Every `rllm` subcommand, in the order `rllm --help` lists them. Each is loaded only when it runs
 * (or for the full help), so `rllm grade` never pays for TensorFlow or SQLite.
 */
import type { Command } from "commander";

export type RegisterCommand = (program: Command) => void;

export const commandLoaders: Record<string, () => Promise<RegisterCommand>> = {
  eval: async () => (await import("./eval.js")).registerEvalCommand,
  grade: async () => (await import("./grade.js")).registerGradeCommand,
  dataset: async () => (await import("./dataset.js")).registerDatasetCommand,
  rerank: async () => (await import("./rerank.js")).registerRerankCommand,
  simulate: async () => (await import("./simulate.js")).registerSimulateCommand,
  serve: async () => (await import("./serve.js")).registerServeCommand,
  gateway: async () => (await import("./gateway.js")).registerGatewayCommand,
  train: async () => (await import("./train.js")).registerTrainCommand,
  export: async () => (await import("./export.js")).registerExportCommand,
};
