/** Loads one Harbor task folder (task.toml, instruction.md, environment/, solution/solve.sh, tests/test.sh) as a Task. */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { describeIssues, InputError, type Task } from "rllm-ts/core";
import { composeFileWarning } from "./compose-file-warning.js";
import { stripCanary, type TerminalTask } from "./terminal-task.js";

const stringMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).default({});
const userField = z.union([z.string(), z.number()]).nullable().optional();

// Only the fields rllm acts on are typed; every other key is reported by `unsupportedFields`.
const TaskTomlSchema = z
  .object({
    schema_version: z.string().optional(),
    version: z.string().optional(),
    source: z.string().nullable().optional(),
    // Harbor's ORG_NAME_PATTERN (harbor/constants.py), and no "..".
    task: z
      .object({
        name: z
          .string()
          .regex(/^[a-zA-Z0-9][a-zA-Z0-9._-]*\/[a-zA-Z0-9][a-zA-Z0-9._-]*$/, "expected an 'org/name' task name (letters, digits, '.', '_', '-')")
          .refine((name) => !name.includes(".."), "a task name may not contain '..'")
          .optional(),
        description: z.string().optional(),
      })
      .passthrough()
      .optional(),
    metadata: z.record(z.string(), z.unknown()).default({}),
    agent: z.object({ timeout_sec: z.number().positive().nullable().optional(), user: userField }).passthrough().default({}),
    verifier: z.object({ timeout_sec: z.number().positive().default(600), env: stringMap, user: userField }).passthrough().default({ timeout_sec: 600, env: {} }),
    environment: z
      .object({
        build_timeout_sec: z.number().optional(),
        docker_image: z.string().nullable().optional(),
        cpus: z.number().positive().nullable().optional(),
        memory_mb: z.number().int().positive().nullable().optional(),
        memory: z.string().optional(),
        storage_mb: z.number().nullable().optional(),
        gpus: z.number().int().nullable().optional(),
        // Harbor ≥ 0.25: network_mode; the deprecated allow_internet counts only when network_mode is not set.
        network_mode: z.enum(["public", "no-network", "allowlist"]).optional(),
        allowed_hosts: z.array(z.string()).optional(),
        allow_internet: z.boolean().optional(),
        env: stringMap,
        workdir: z.string().optional(),
        os: z.string().optional(),
      })
      .passthrough()
      .default({ env: {} }),
    solution: z.object({ env: stringMap }).passthrough().default({ env: {} }),
  })
  .passthrough();

// Keys each section may hold that rllm reads or that only describe the task (no behaviour to honour).
const knownKeys: Record<string, string[]> = {
  "": ["schema_version", "version", "source", "task", "metadata", "agent", "verifier", "environment", "solution"],
  task: ["name", "description", "authors", "keywords", "version"],
  agent: ["timeout_sec", "user"],
  verifier: ["timeout_sec", "env", "user"],
  environment: ["build_timeout_sec", "docker_image", "cpus", "memory_mb", "memory", "storage_mb", "gpus", "network_mode", "allowed_hosts", "allow_internet", "env", "workdir", "os"],
  solution: ["env"],
};

/** The Task of the Harbor folder `taskDir`; `id` is [task].name or the folder's name. */
export function loadHarborTask(taskDir: string): Task {
  const directory = path.resolve(taskDir);
  const tomlFile = path.join(directory, "task.toml");
  let raw: unknown;
  try {
    raw = parseToml(readFileSync(tomlFile, "utf8"));
  } catch (error) {
    throw new InputError(`${tomlFile}: ${(error as Error).message}`);
  }
  const parsed = TaskTomlSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(describeIssues(tomlFile, undefined, parsed.error));
  const config = parsed.data;
  const instructionFile = path.join(directory, "instruction.md");
  if (!existsSync(instructionFile)) throw new InputError(`${directory}: no instruction.md (multi-step Harbor tasks are not supported)`);
  const testScript = "tests/test.sh";
  if (!existsSync(path.join(directory, testScript))) throw new InputError(`${directory}: no ${testScript}`);
  const dockerfile = path.join(directory, "environment", "Dockerfile");
  const dockerfileText = existsSync(dockerfile) ? readFileSync(dockerfile, "utf8") : undefined;
  const warnings = unsupportedFields(raw as Record<string, unknown>).map((field) => `${tomlFile}: ${field} is not supported and is ignored`);
  const environment = config.environment;
  if (environment.gpus) warnings.push(`${tomlFile}: [environment].gpus = ${environment.gpus}: no GPU is given to the sandbox`);
  if (environment.storage_mb) warnings.push(`${tomlFile}: [environment].storage_mb is not enforced`);
  for (const [section, user] of [["agent", config.agent.user], ["verifier", config.verifier.user]] as const) {
    if (user !== undefined && user !== null) warnings.push(`${tomlFile}: [${section}].user = ${user} is not honoured: on bwrap every command runs as the sandbox's unprivileged user, on docker the agent as the image's user and the verifier as root`);
  }
  const composeWarning = composeFileWarning(path.join(directory, "environment"));
  if (composeWarning) warnings.push(composeWarning);
  const networkMode = environment.network_mode ?? (environment.allow_internet === false ? "no-network" : "public");
  if (networkMode === "allowlist") warnings.push(`${tomlFile}: [environment].network_mode = allowlist (${(environment.allowed_hosts ?? []).join(", ")}): single hosts cannot be allowed, so the sandbox gets no network`);
  if (environment.os && environment.os !== "linux") warnings.push(`${tomlFile}: [environment].os = ${environment.os}: only linux runs`);
  const name = config.task?.name ?? path.basename(directory);
  if (dockerfileText !== undefined && /^\s*(RUN|COPY|ADD)\s/im.test(dockerfileText)) warnings.push(`${directory}: the Dockerfile's RUN/COPY/ADD steps are applied only by the docker backend; bwrap runs over the host's system`);
  const metadata: TerminalTask = {
    taskDir: directory,
    format: "harbor",
    agentTimeoutSec: config.agent.timeout_sec ?? null,
    verifierTimeoutSec: config.verifier.timeout_sec,
    workdir: environment.workdir ?? lastWorkdir(dockerfileText) ?? "/app",
    allowInternet: networkMode === "public",
    ...(environment.cpus ? { cpus: environment.cpus } : {}),
    ...(environment.memory_mb ? { memoryMb: environment.memory_mb } : environment.memory ? { memoryMb: memoryStringMb(environment.memory) } : {}),
    env: environment.env,
    verifierEnv: config.verifier.env,
    solutionEnv: config.solution.env,
    ...(environment.docker_image ? { image: environment.docker_image } : {}),
    // Harbor's default build timeout (EnvironmentConfig.build_timeout_sec).
    buildTimeoutSec: environment.build_timeout_sec ?? 600,
    hasDockerfile: dockerfileText !== undefined,
    testScript,
    ...(existsSync(path.join(directory, "solution", "solve.sh")) ? { solutionScript: "solution/solve.sh" } : {}),
    warnings,
  };
  return { id: name, instruction: stripCanary(readFileSync(instructionFile, "utf8")), metadata: { ...metadata, taskMetadata: config.metadata } };
}

/** `[section].key` for every key of `raw` that `knownKeys` does not list. */
function unsupportedFields(raw: Record<string, unknown>): string[] {
  const fields: string[] = [];
  for (const key of Object.keys(raw)) {
    if (!knownKeys[""]!.includes(key)) fields.push(key);
    else if (key in knownKeys && key !== "metadata" && isTable(raw[key])) {
      for (const inner of Object.keys(raw[key] as object)) if (!knownKeys[key]!.includes(inner)) fields.push(`[${key}].${inner}`);
    }
  }
  return fields;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The argument of the Dockerfile's last WORKDIR line. */
function lastWorkdir(dockerfile: string | undefined): string | undefined {
  if (dockerfile === undefined) return undefined;
  return [...dockerfile.matchAll(/^\s*WORKDIR\s+(.+)$/gim)].at(-1)?.[1]?.trim();
}

/** Harbor's deprecated `memory = "4G"` → MB (G×1024, M×1, K÷1024, truncated). */
function memoryStringMb(memory: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([GMK])i?B?$/i.exec(memory.trim());
  if (!match) throw new InputError(`[environment].memory = "${memory}": expected a size such as 4G, 512M or 256K`);
  const factor = { G: 1024, M: 1, K: 1 / 1024 }[match[2]!.toUpperCase() as "G" | "M" | "K"];
  return Math.max(1, Math.trunc(Number(match[1]) * factor));
}
