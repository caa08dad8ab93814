/**
 * Loads a Terminal-Bench v1 folder (task.yaml, Dockerfile, solution.sh, run-tests.sh, tests/) as Harbor's migration
 * maps it: run-tests.sh is the test entry with TEST_DIR=/tests, and its exit status is the reward (Harbor writes it to
 * /logs/verifier/reward.txt; verifyTerminalTask takes it from the sandbox, where no process of the tests can change it).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { describeIssues, InputError, type Task } from "rllm-ts/core";
import { composeFileWarning } from "./compose-file-warning.js";
import { stripCanary, type TerminalTask } from "./terminal-task.js";

const TaskYamlSchema = z
  .object({
    instruction: z.string().min(1),
    author_name: z.string().optional(),
    author_email: z.string().optional(),
    difficulty: z.string().optional(),
    category: z.string().optional(),
    tags: z.array(z.string()).optional(),
    estimated_duration_sec: z.number().nullable().optional(),
    expert_time_estimate_min: z.number().nullable().optional(),
    junior_time_estimate_min: z.number().nullable().optional(),
    max_agent_timeout_sec: z.number().positive().default(360),
    max_test_timeout_sec: z.number().positive().default(60),
    parser_name: z.string().default("pytest"),
    run_tests_in_same_shell: z.boolean().default(false),
    disable_asciinema: z.boolean().default(false),
  })
  .passthrough();

// Fields that only describe the task, or that the Harbor mapping makes moot.
const knownKeys = new Set(Object.keys(TaskYamlSchema.shape));

/** The Task of the Terminal-Bench v1 folder `taskDir` (id = the folder's name). */
export function loadTerminalBenchTask(taskDir: string): Task {
  const directory = path.resolve(taskDir);
  const yamlFile = path.join(directory, "task.yaml");
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(yamlFile, "utf8"));
  } catch (error) {
    throw new InputError(`${yamlFile}: ${(error as Error).message}`);
  }
  const parsed = TaskYamlSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(describeIssues(yamlFile, undefined, parsed.error));
  const config = parsed.data;
  if (!existsSync(path.join(directory, "run-tests.sh"))) throw new InputError(`${directory}: no run-tests.sh`);
  const warnings = Object.keys(raw as object)
    .filter((key) => !knownKeys.has(key))
    .map((key) => `${yamlFile}: ${key} is not supported and is ignored`);
  if (config.parser_name !== "pytest") warnings.push(`${yamlFile}: parser_name ${config.parser_name}: the reward is run-tests.sh's exit status, as Harbor's migration maps it`);
  if (config.run_tests_in_same_shell) warnings.push(`${yamlFile}: run_tests_in_same_shell is not supported; the tests run in their own shell`);
  if (existsSync(path.join(directory, "solution.yaml"))) warnings.push(`${directory}: solution.yaml is not supported (only solution.sh)`);
  const composeWarning = composeFileWarning(directory);
  if (composeWarning) warnings.push(composeWarning);
  const dockerfile = path.join(directory, "Dockerfile");
  const dockerfileText = existsSync(dockerfile) ? readFileSync(dockerfile, "utf8") : "";
  const workdir = [...dockerfileText.matchAll(/^\s*WORKDIR\s+(.+)$/gim)].at(-1)?.[1]?.trim() ?? "/app";
  if (dockerfileText !== undefined && /^\s*(RUN|COPY|ADD)\s/im.test(dockerfileText)) warnings.push(`${directory}: the Dockerfile's RUN/COPY/ADD steps are applied only by the docker backend; bwrap runs over the host's system`);
  const metadata: TerminalTask = {
    taskDir: directory,
    format: "terminal-bench-v1",
    agentTimeoutSec: config.max_agent_timeout_sec,
    verifierTimeoutSec: config.max_test_timeout_sec,
    workdir,
    // TB v1 images had network; run-tests.sh usually installs pytest with uv at test time.
    allowInternet: true,
    env: {},
    verifierEnv: { TEST_DIR: "/tests" },
    solutionEnv: {},
    hasDockerfile: dockerfileText !== "",
    testScript: "run-tests.sh",
    ...(existsSync(path.join(directory, "solution.sh")) ? { solutionScript: "solution.sh" } : {}),
    warnings,
  };
  return {
    id: path.basename(directory),
    instruction: stripCanary(config.instruction),
    metadata: { ...metadata, taskMetadata: { difficulty: config.difficulty, category: config.category, tags: config.tags } },
  };
}
