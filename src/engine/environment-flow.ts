/**
 * The generic multi-turn flow: any Environment driven by any OpenAI-compatible model through an EnvironmentAgent that
 * turns observations into messages and replies into actions. Each model call is one Step (token ids and logprobs
 * included), so training merges the turns by prefix; turn and time limits end the run with a termination reason.
 */
import { EpisodeSchema, episodeId, type Episode, type TerminationReason } from "../core/episode.js";
import type { AgentFlow, FlowContext } from "../core/cookbook.js";
import type { Environment, EnvironmentOutcome, EnvironmentStep } from "../core/environment.js";
import type { ChatChoice, ChatRequest } from "../core/llm-client.js";
import type { ChatMessage, ToolDefinition } from "../core/message.js";
import type { Step } from "../core/step.js";
import type { Task } from "../core/task.js";
import { stepFromChat } from "../llm/step-from-chat.js";

/** What the agent makes of one reply: actions to take in order, a correction that still uses the turn, or the end. */
export type AgentDecision<Action> =
  | { kind: "act"; actions: Action[]; label?: string; stopAfter?: boolean }
  | { kind: "invalid"; feedback: ChatMessage[]; label?: string }
  | { kind: "stop"; label?: string };

/** The model-facing half of a multi-turn agent: prompts from observations, actions from replies. One per episode (it may keep state). */
export interface EnvironmentAgent<Observation, Action> {
  tools?: ToolDefinition[];
  /** The messages of the first model call, from the task and the first observation. */
  start(task: Task, observation: Observation): ChatMessage[];
  /** Reads one reply (its assistant message is already in the history). */
  decide(choice: ChatChoice): AgentDecision<Action>;
  /** The messages that tell the model what the turn's actions did. */
  report(results: { action: Action; step: EnvironmentStep<Observation> }[], turn: number): ChatMessage[];
}

/** How to build one episode's environment and agent, and its limits. */
export interface EnvironmentFlowOptions<Observation, Action> {
  /** The episode's environment; `context` lends the run's sandbox and pools (a terminal task's sandbox comes from it). */
  createEnvironment(task: Task, context: FlowContext): Environment<Observation, Action>;
  createAgent(task: Task): EnvironmentAgent<Observation, Action>;
  /** Model calls per episode. */
  maxTurns(task: Task): number;
  /** Wall-clock budget of the agent in ms (undefined: none); past it the run stops and the environment grades what is there. */
  timeLimitMs?(task: Task): number | undefined;
}

/** Thrown into a pending call when the agent's time is up. */
class AgentTimeLimitError extends Error {}

/** The flow that runs `options`' environment and agent until done, stop, the turn limit or the time limit. */
export function environmentFlow<Observation, Action>(options: EnvironmentFlowOptions<Observation, Action>): AgentFlow {
  return async (task, context) => {
    const environment = options.createEnvironment(task, context);
    const agent = options.createAgent(task);
    const limit = agentTimeLimit(options.timeLimitMs?.(task), context.signal);
    const steps: Step[] = [];
    let reward = 0;
    let termination: TerminationReason = "max_turns";
    let outcome: EnvironmentOutcome | undefined;
    let environmentDone = false;
    try {
      const seed = typeof task.metadata.seed === "number" ? task.metadata.seed : (context.sampling.seed ?? 0);
      const messages = agent.start(task, await limit.race(environment.reset(task, seed)));
      const maxTurns = options.maxTurns(task);
      try {
        for (let turn = 1; turn <= maxTurns; turn++) {
          const { step, choice } = await limit.race(callModel(messages, agent.tools, context, limit.signal));
          steps.push(step);
          messages.push(assistantMessage(choice));
          if (choice.finishReason === "length") {
            termination = "max_tokens";
            break;
          }
          const decision = agent.decide(choice);
          step.info = { ...step.info, decision: decision.kind, ...(decision.label !== undefined ? { action: decision.label } : {}) };
          if (decision.kind === "stop") {
            termination = "done";
            break;
          }
          if (decision.kind === "invalid") {
            messages.push(...decision.feedback);
            continue;
          }
          const results: { action: Action; step: EnvironmentStep<Observation> }[] = [];
          for (const action of decision.actions) {
            const result = await limit.race(environment.step(action));
            results.push({ action, step: result });
            reward += result.reward;
            step.reward += result.reward;
            if (result.done) break;
          }
          environmentDone = results.some((result) => result.step.done);
          step.info = { ...step.info, observations: results.map((result) => result.step.info) };
          if (environmentDone || decision.stopAfter) {
            termination = "done";
            break;
          }
          messages.push(...agent.report(results, turn));
        }
      } catch (error) {
        if (!(error instanceof AgentTimeLimitError)) throw error;
        termination = "timeout";
      }
      // Graded after a time-out too: partial work counts (only the run's own cancellation skips grading).
      if (environment.finish && !context.signal.aborted) outcome = await environment.finish();
    } finally {
      limit.release();
      await environment.close();
    }
    return environmentEpisode(task, context.attempt, steps, termination, outcome ?? { reward, isCorrect: reward > 0, info: {} });
  };
}

async function callModel(messages: ChatMessage[], tools: ToolDefinition[] | undefined, context: FlowContext, signal: AbortSignal): Promise<{ step: Step; choice: ChatChoice }> {
  const request: ChatRequest = { ...context.sampling, messages: [...messages], ...(tools ? { tools } : {}), signal };
  const response = await context.client.chat(request);
  const step = stepFromChat(request, response, 0);
  return { step, choice: response.choices[0]! }; // stepFromChat throws when there is no choice 0
}

function assistantMessage(choice: ChatChoice): ChatMessage {
  // An empty content beside tool calls is sent as null, which every OpenAI-compatible server accepts.
  const content = choice.text === "" && choice.toolCalls.length > 0 ? null : choice.text;
  return { role: "assistant", content, ...(choice.toolCalls.length > 0 ? { tool_calls: choice.toolCalls } : {}) };
}

/** The agent's clock: a signal for model calls, and a race that rejects with AgentTimeLimitError when the budget is spent. */
function agentTimeLimit(limitMs: number | undefined, runSignal: AbortSignal) {
  const controller = new AbortController();
  const onRunAbort = () => controller.abort(runSignal.reason);
  runSignal.addEventListener("abort", onRunAbort, { once: true });
  let expire: () => void = () => {};
  const expired = new Promise<never>((_, reject) => {
    expire = () => reject(new AgentTimeLimitError("agent time limit"));
  });
  expired.catch(() => {});
  const timer =
    limitMs === undefined
      ? undefined
      : setTimeout(() => {
          expire();
          controller.abort(new AgentTimeLimitError("agent time limit"));
        }, limitMs);
  return {
    signal: controller.signal,
    race: <T>(work: Promise<T>): Promise<T> => Promise.race([work, expired]),
    release() {
      if (timer) clearTimeout(timer);
      runSignal.removeEventListener("abort", onRunAbort);
    },
  };
}

/** The episode of an environment run: one solver trajectory and the environment's outcome in `artifacts.environment`. */
export function environmentEpisode(task: Task, attempt: number, steps: Step[], termination: TerminationReason, outcome: EnvironmentOutcome): Episode {
  return EpisodeSchema.parse({
    id: episodeId(task.id, attempt),
    taskId: task.id,
    attempt,
    trajectories: [{ name: "solver", steps }],
    artifacts: { environment: { reward: outcome.reward, isCorrect: outcome.isCorrect, ...(outcome.gradingError !== undefined ? { gradingError: outcome.gradingError } : {}), ...outcome.info }, turns: steps.length },
    terminationReason: termination,
  });
}
