/**
 * Before a run on the embedded tiny model: it reads ~100 tokens and answers only arithmetic, so the cookbook's first
 * prompts are built (through a client that records the request and answers nothing) and measured against its context.
 */
import type { Cookbook } from "../core/cookbook.js";
import type { ChatMessage } from "../core/message.js";
import type { Task } from "../core/task.js";
import { InputError } from "../core/errors/input-error.js";
import type { LlmClient } from "../core/llm-client.js";
import type { RunResources } from "../core/run-resources.js";

// Enough prompts to tell a benchmark the model cannot read from one odd task, few enough to stay instant.
const probedTasks = 8;
// Tokens a prompt must leave free for the reply: the model's arith answers with their working take 15 on average.
const replyRoom = 16;

/** Thrown by the probe client to stop a flow at its first model call. */
class ProbeStop extends Error {}

// Planning starts nothing: a flow that asks for its sandbox or a pool before its first model call stops there.
const refuse = async (): Promise<never> => {
  throw new ProbeStop();
};
const planningResources: RunResources = {
  sandbox: { setting: { provider: "local" }, record: () => ({ provider: "local" }), openEnvironment: refuse, openPrograms: refuse },
  pool: refuse,
};

/** The messages of the first model call `cookbook` makes for `task`, or undefined when its flow stops before one. */
async function firstPrompt(cookbook: Cookbook, task: Task): Promise<ChatMessage[] | undefined> {
  let messages: ChatMessage[] | undefined;
  const probe: LlmClient = {
    model: "tiny",
    chat: async (request) => {
      messages ??= request.messages;
      throw new ProbeStop();
    },
  };
  const controller = new AbortController();
  try {
    await cookbook.flow(task, { client: probe, sampling: {}, attempt: 0, signal: controller.signal, ...planningResources });
  } catch {
    // ProbeStop, or a flow that failed before calling the model: either way `messages` says what was sent.
  } finally {
    controller.abort();
  }
  return messages;
}

/**
 * Throws a usage error when none of the first tasks' prompts leaves room for a reply in the embedded model's context:
 * every episode would be a model error or a reply cut short. The message says what to do instead (a real endpoint through --base-url and --model).
 */
export async function assertEmbeddedModelCanRun(benchmarkName: string, cookbook: Cookbook, tasks: readonly Task[]): Promise<void> {
  const { applyChatTemplate } = await import("../models/tiny/chat-template.js");
  const { SHIPPED_MODEL_CONFIG } = await import("../models/tiny/shipped-config.js");
  const context = SHIPPED_MODEL_CONFIG.contextLength;
  const lengths: number[] = [];
  for (const task of tasks.slice(0, probedTasks)) {
    const messages = await firstPrompt(cookbook, task);
    if (messages !== undefined) lengths.push(applyChatTemplate(messages).length);
  }
  if (lengths.length === 0 || lengths.some((length) => length + replyRoom <= context)) return;
  throw new InputError(
    `the embedded tiny model cannot run ${benchmarkName} (cookbook ${cookbook.name}): its context is ${context} tokens and ` +
      `the first ${lengths.length} prompts take ${Math.min(...lengths)}–${Math.max(...lengths)}, leaving no room for a ${replyRoom}-token reply, ` +
      `so every episode would be a model error or cut short. ` +
      `It answers arithmetic ("What is 12+7*3?": rllm eval arith). Point the run at a real model instead: ` +
      `--base-url http://localhost:8000/v1 --model <name> (any OpenAI-compatible endpoint: vLLM, SGLang, OpenAI...)`,
  );
}
