/**
 * The `terminal` cookbook: an agent works on a Harbor / Terminal-Bench task in a per-episode sandbox, then the task's
 * tests grade what it left (reward file; no reward after the agent acted is a scored 0, on an untouched task a
 * grading error, unscored). Agents: oracle, nop, bash (one function tool),
 * terminus-2 (JSON protocol), llm-in-sandbox (execute_bash, str_replace_editor, submit).
 */
import { z } from "zod";
import { InputError, type AgentFlow, type Cookbook, type Task } from "rllm-ts/core";
import { environmentFlow, scoreEnvironmentEpisode, type EnvironmentAgent } from "rllm-ts/flows";
import { terminalTaskOf } from "rllm-ts/benchmarks/harbor";
import { createBwrapSandbox, createDockerSandbox, type Sandbox, type SandboxSpec } from "rllm-ts/verifiers/terminal";
import { createBashToolAgent } from "./agents/bash-tool-agent.js";
import { createSandboxToolAgent } from "./agents/sandbox-tool-agent.js";
import { createTerminusAgent } from "./agents/terminus-agent.js";
import { scriptedTerminalFlow } from "./scripted-terminal-flow.js";
import { createTerminalEnvironment, type TerminalAction, type TerminalEnvironmentOptions } from "./terminal-environment.js";

export const TerminalAgentNameSchema = z.enum(["oracle", "nop", "bash", "terminus-2", "llm-in-sandbox"]);
export type TerminalAgentName = z.infer<typeof TerminalAgentNameSchema>;

/** `rllm eval <folder> --agent bash --allow-network --set backend=docker --set maxTurns=30`. */
const TerminalOptionsSchema = z
  .object({
    agent: TerminalAgentNameSchema.default("bash"),
    backend: z.enum(["bwrap", "docker"]).default("bwrap"),
    allowNetwork: z.boolean().default(false),
    maxTurns: z.number().int().positive().default(50),
    /** docker: run every task in this image instead of its own docker_image or Dockerfile (`--set image=NAME`). */
    image: z.string().min(1).optional(),
  })
  .strict();
/** The terminal cookbook's options. */
export type TerminalOptions = z.infer<typeof TerminalOptionsSchema>;

/** The sandbox factory of a backend; `image` replaces every task's own image on docker. */
export function sandboxFactory(backend: TerminalOptions["backend"], image?: string): (spec: Partial<SandboxSpec>) => Sandbox {
  if (backend === "bwrap") return createBwrapSandbox;
  return image === undefined ? createDockerSandbox : (spec) => createDockerSandbox({ ...spec, image, buildContext: undefined });
}

/** A terminal cookbook for `options`. */
export function createTerminalCookbook(given: Partial<TerminalOptions> = {}): Cookbook {
  const options = TerminalOptionsSchema.parse(given);
  if (options.image !== undefined && options.backend !== "docker") throw new InputError(`--set image=${options.image} needs the docker backend: add --set backend=docker`);
  const environmentOptions: TerminalEnvironmentOptions = { createSandbox: sandboxFactory(options.backend, options.image), allowNetwork: options.allowNetwork };
  return {
    name: "terminal",
    description: `Terminal tasks (Harbor / Terminal-Bench folders) in a ${options.backend} sandbox, agent ${options.agent}, graded by the task's tests; --agent oracle|nop|bash|terminus-2|llm-in-sandbox.`,
    flow: terminalFlow(options, environmentOptions),
    evaluate: (_task, episode) => scoreEnvironmentEpisode(episode),
    optionsSchema: TerminalOptionsSchema,
    configure: (configured: Partial<TerminalOptions>) => createTerminalCookbook({ ...options, ...configured }),
    ...(options.agent === "oracle" || options.agent === "nop" ? { scriptedAgent: options.agent } : {}),
  };
}

function terminalFlow(options: TerminalOptions, environmentOptions: TerminalEnvironmentOptions): AgentFlow {
  if (options.agent === "oracle" || options.agent === "nop") return scriptedTerminalFlow(options.agent, environmentOptions);
  const createAgent = (task: Task): EnvironmentAgent<string, TerminalAction> => {
    if (options.agent === "terminus-2") return createTerminusAgent(terminalTaskOf(task).workdir);
    if (options.agent === "llm-in-sandbox") return createSandboxToolAgent(options.maxTurns);
    return createBashToolAgent();
  };
  return environmentFlow({
    createEnvironment: () => createTerminalEnvironment(environmentOptions),
    createAgent,
    maxTurns: () => options.maxTurns,
    timeLimitMs: (task) => {
      const seconds = terminalTaskOf(task).agentTimeoutSec;
      return seconds === null ? undefined : seconds * 1000;
    },
  });
}

/** The default terminal cookbook: the bash-tool agent on bwrap, no network, 50 turns. */
export const terminalCookbook = createTerminalCookbook();
