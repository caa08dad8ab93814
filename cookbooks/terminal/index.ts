/**
 * The `terminal` cookbook: an agent works on a Harbor / Terminal-Bench task in a per-episode sandbox, then the task's
 * tests grade what it left (reward file; no reward after the agent acted is a scored 0, on an untouched task a
 * grading error, unscored). Agents: oracle, nop, bash (one function tool),
 * terminus-2 (JSON protocol), llm-in-sandbox (execute_bash, str_replace_editor, submit).
 */
import { z } from "zod";
import { InputError, type AgentFlow, type Cookbook, type FlowContext, type Task } from "rllm-ts/core";
import { environmentFlow, scoreEnvironmentEpisode, type EnvironmentAgent } from "rllm-ts/flows";
import { terminalTaskOf } from "rllm-ts/benchmarks/harbor";
import { createBashToolAgent } from "./agents/bash-tool-agent.js";
import { createSandboxToolAgent } from "./agents/sandbox-tool-agent.js";
import { createTerminusAgent } from "./agents/terminus-agent.js";
import { scriptedTerminalFlow } from "./scripted-terminal-flow.js";
import { createTerminalEnvironment, type TerminalAction, type TerminalEnvironmentOptions } from "./terminal-environment.js";

export const TerminalAgentNameSchema = z.enum(["oracle", "nop", "bash", "terminus-2", "llm-in-sandbox"]);
export type TerminalAgentName = z.infer<typeof TerminalAgentNameSchema>;

/** `rllm eval <folder> --agent bash --allow-network --sandbox docker --set image=NAME --set maxTurns=30`. */
const TerminalOptionsSchema = z
  .object({
    agent: TerminalAgentNameSchema.default("bash"),
    allowNetwork: z.boolean().default(false),
    maxTurns: z.number().int().positive().default(50),
    /** --sandbox docker: run every task in this image instead of its own docker_image or Dockerfile (`--set image=NAME`). */
    image: z.string().min(1).optional(),
  })
  .strict();
/** The terminal cookbook's options. */
export type TerminalOptions = z.infer<typeof TerminalOptionsSchema>;

/** A terminal cookbook for `options`; each episode's environment comes from the run's sandbox (--sandbox local or docker). */
export function createTerminalCookbook(given: Partial<TerminalOptions> = {}): Cookbook {
  const options = TerminalOptionsSchema.parse(given);
  const environmentOptions = (context: FlowContext): TerminalEnvironmentOptions => {
    if (options.image !== undefined && context.sandbox.setting.provider !== "docker") throw imageNeedsDocker(options.image);
    return { sandbox: context.sandbox, allowNetwork: options.allowNetwork, ...(options.image !== undefined ? { image: options.image } : {}) };
  };
  return {
    name: "terminal",
    description: `Terminal tasks (Harbor / Terminal-Bench folders) in the run's sandbox (--sandbox local or docker), agent ${options.agent}, graded by the task's tests; --agent oracle|nop|bash|terminus-2|llm-in-sandbox.`,
    flow: terminalFlow(options, environmentOptions),
    evaluate: (_task, episode) => scoreEnvironmentEpisode(episode),
    optionsSchema: TerminalOptionsSchema,
    configure(configured: Partial<TerminalOptions>, context) {
      // Refused while the run is planned, before any task starts.
      if (configured.image !== undefined && context.sandbox.provider !== "docker") throw imageNeedsDocker(configured.image);
      return createTerminalCookbook({ ...options, ...configured });
    },
    ...(options.agent === "oracle" || options.agent === "nop" ? { scriptedAgent: options.agent } : {}),
  };
}

function imageNeedsDocker(image: string): InputError {
  return new InputError(`--set image=${image} needs the docker sandbox: add --sandbox docker`);
}

function terminalFlow(options: TerminalOptions, environmentOptions: (context: FlowContext) => TerminalEnvironmentOptions): AgentFlow {
  if (options.agent === "oracle" || options.agent === "nop") return scriptedTerminalFlow(options.agent, environmentOptions);
  const createAgent = (task: Task): EnvironmentAgent<string, TerminalAction> => {
    if (options.agent === "terminus-2") return createTerminusAgent(terminalTaskOf(task).workdir);
    if (options.agent === "llm-in-sandbox") return createSandboxToolAgent(options.maxTurns);
    return createBashToolAgent();
  };
  return environmentFlow({
    createEnvironment: (_task, context) => createTerminalEnvironment(environmentOptions(context)),
    createAgent,
    maxTurns: () => options.maxTurns,
    timeLimitMs: (task) => {
      const seconds = terminalTaskOf(task).agentTimeoutSec;
      return seconds === null ? undefined : seconds * 1000;
    },
  });
}

/** The default terminal cookbook: the bash-tool agent, no network, 50 turns, in the run's sandbox. */
export const terminalCookbook = createTerminalCookbook();
