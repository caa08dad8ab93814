/** The agents that call no model: `oracle` runs the task's solution script, `nop` leaves the sandbox untouched; both are then graded. */
import type { AgentFlow, EnvironmentOutcome, FlowContext } from "rllm-ts/core";
import { environmentEpisode } from "rllm-ts/flows";
import { createTerminalEnvironment, type TerminalEnvironmentOptions } from "./terminal-environment.js";

/** The flow of a scripted agent. */
export function scriptedTerminalFlow(agent: "oracle" | "nop", options: (context: FlowContext) => TerminalEnvironmentOptions): AgentFlow {
  return async (task, context) => {
    const environment = createTerminalEnvironment(options(context));
    let outcome: EnvironmentOutcome;
    let solutionInfo: Record<string, unknown> = {};
    try {
      await environment.reset(task, 0);
      if (agent === "oracle") solutionInfo = (await environment.step({ kind: "solution" })).info;
      outcome = await environment.finish!();
    } finally {
      await environment.close();
    }
    const episode = environmentEpisode(task, context.attempt, [], "done", outcome);
    episode.artifacts.agent = { name: agent, ...solutionInfo };
    // No model call carries the task's text, so the episode keeps it for the report's question column.
    episode.artifacts.instruction = task.instruction;
    return episode;
  };
}
