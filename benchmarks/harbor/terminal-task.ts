/** The TerminalTask: what every terminal task loader (Harbor task.toml, Terminal-Bench v1 task.yaml) puts in `Task.metadata`. */
import { z } from "zod";
import { describeIssues, InputError, type Task } from "rllm-ts/core";

export const TerminalTaskSchema = z.object({
  /** Absolute path of the task folder on the host. */
  taskDir: z.string(),
  format: z.enum(["harbor", "terminal-bench-v1"]),
  /** The agent's budget in seconds (null: none, as Harbor's code default). */
  agentTimeoutSec: z.number().positive().nullable(),
  verifierTimeoutSec: z.number().positive(),
  workdir: z.string(),
  /** What the task allows; the sandbox has network only when the user also passes --allow-network. */
  allowInternet: z.boolean(),
  cpus: z.number().positive().optional(),
  memoryMb: z.number().int().positive().optional(),
  env: z.record(z.string(), z.string()),
  verifierEnv: z.record(z.string(), z.string()),
  solutionEnv: z.record(z.string(), z.string()),
  /** A prebuilt image (docker backend): [environment].docker_image. */
  image: z.string().optional(),
  /** The task's Dockerfile exists (built by the docker backend when there is no image; not applied on bwrap). */
  hasDockerfile: z.boolean(),
  buildTimeoutSec: z.number().positive().optional(),
  /** Test entry relative to the task folder, run from /tests (Harbor: tests/test.sh; TB v1: run-tests.sh). */
  testScript: z.string(),
  /** Oracle script relative to the task folder (Harbor: solution/solve.sh; TB v1: solution.sh), if any. */
  solutionScript: z.string().optional(),
  /** Fields the loader read but rllm does not act on, one line each. */
  warnings: z.array(z.string()),
});
export type TerminalTask = z.infer<typeof TerminalTaskSchema>;

/** The TerminalTask in `task.metadata`; an InputError when the task did not come from a terminal loader. */
export function terminalTaskOf(task: Task): TerminalTask {
  const parsed = TerminalTaskSchema.safeParse(task.metadata);
  if (!parsed.success) throw new InputError(describeIssues(`task ${task.id} (load it from a Harbor or Terminal-Bench folder)`, undefined, parsed.error));
  return parsed.data;
}

/**
 * Harbor's strip_canary (harbor/models/task/task.py): the leading lines that are a one-line HTML comment or a # comment
 * mentioning "canary", then the blank lines after that block.
 */
export function stripCanary(instruction: string): string {
  const lines = instruction.split("\n");
  const isCanary = (line: string) => /^(<!--.*canary.*-->|#.*canary.*)$/i.test(line.trim());
  let start = 0;
  while (start < lines.length && isCanary(lines[start]!)) start++;
  while (start < lines.length && lines[start]!.trim() === "") start++;
  return lines.slice(start).join("\n");
}
