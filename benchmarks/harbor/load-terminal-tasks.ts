/**
 * Loads terminal tasks from a folder: one task (task.toml or task.yaml), a dataset.toml (Harbor's manifest, whose
 * [[tasks]] name tasks by `org/name` and digest, or rLLM's, whose [dataset].tasks give paths), or a folder of task folders.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { describeIssues, InputError, type Task } from "rllm-ts/core";
import { loadHarborTask } from "./load-harbor-task.js";
import { loadTerminalBenchTask } from "./load-terminal-bench-task.js";

const HarborManifestSchema = z.object({
  schema_version: z.string().optional(),
  dataset: z.object({ name: z.string() }).passthrough(),
  tasks: z.array(z.object({ name: z.string(), digest: z.string() }).passthrough()),
});

const RllmDatasetSchema = z.object({
  dataset: z
    .object({
      name: z.string().optional(),
      type: z.enum(["sandbox", "simple"]).default("sandbox"),
      tasks: z.array(z.union([z.string(), z.object({ path: z.string() }).passthrough()])).optional(),
    })
    .passthrough(),
});

/** The tasks under `folder`, sorted by id for a stable order. */
export function loadTerminalTasks(folder: string): Task[] {
  const directory = path.resolve(folder);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) throw new InputError(`${folder}: no such folder`);
  if (existsSync(path.join(directory, "task.toml"))) return [loadHarborTask(directory)];
  if (existsSync(path.join(directory, "task.yaml"))) return [loadTerminalBenchTask(directory)];
  const datasetFile = path.join(directory, "dataset.toml");
  const folders = existsSync(datasetFile) ? datasetFolders(datasetFile) : subfolders(directory);
  if (folders.length === 0) throw new InputError(`${folder}: no task.toml, task.yaml or dataset.toml here or in its subfolders`);
  return folders.map(loadTaskFolder).sort((left, right) => left.id.localeCompare(right.id));
}

function loadTaskFolder(directory: string): Task {
  if (existsSync(path.join(directory, "task.toml"))) return loadHarborTask(directory);
  if (existsSync(path.join(directory, "task.yaml"))) return loadTerminalBenchTask(directory);
  throw new InputError(`${directory}: no task.toml or task.yaml`);
}

/** Task folders a dataset.toml names, in either flavour. */
function datasetFolders(datasetFile: string): string[] {
  const root = path.dirname(datasetFile);
  let raw: unknown;
  try {
    raw = parseToml(readFileSync(datasetFile, "utf8"));
  } catch (error) {
    throw new InputError(`${datasetFile}: ${(error as Error).message}`);
  }
  const manifest = HarborManifestSchema.safeParse(raw);
  if (manifest.success) {
    // A manifest names tasks, not paths: a local copy keeps each task in a folder named after the name's last part.
    return manifest.data.tasks.map((task, index) => {
      const candidates = [task.name, task.name.split("/").at(-1)!].map((name) => path.join(root, name));
      const found = candidates.find((candidate) => existsSync(candidate));
      if (!found) throw new InputError(`${datasetFile}: tasks[${index}] ${task.name}: no folder ${candidates.map((candidate) => path.relative(root, candidate)).join(" or ")} beside the manifest`);
      return found;
    });
  }
  const rllm = RllmDatasetSchema.safeParse(raw);
  if (!rllm.success) throw new InputError(describeIssues(datasetFile, undefined, rllm.error));
  if (rllm.data.dataset.type === "simple") throw new InputError(`${datasetFile}: type "simple" (rows from data/*.jsonl) is not a terminal dataset`);
  const listed = rllm.data.dataset.tasks;
  if (listed === undefined) return subfolders(root);
  return listed.map((entry) => path.join(root, typeof entry === "string" ? entry : entry.path));
}

function subfolders(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(directory, entry.name))
    .filter((candidate) => existsSync(path.join(candidate, "task.toml")) || existsSync(path.join(candidate, "task.yaml")));
}
