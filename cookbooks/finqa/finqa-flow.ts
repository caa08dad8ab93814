/** The FinQA ReAct agent: up to 20 turns of tool calls over the company's tables, ending when the model answers without tools. */
import { episodeId, EpisodeSchema, InputError, type AgentFlow, type ChatMessage, type ChatRequest, type Episode, type Step, type Task, type TerminationReason, type ToolCall } from "rllm-ts/core";
import { stepFromChat } from "rllm-ts/llm";
import { companyTablesPool, TableSourceSchema } from "rllm-ts/benchmarks/finqa";
import { extractFinalAnswer } from "rllm-ts/verifiers/finqa";
import { finqaToolDefinitions, runFinqaTool, type ToolResult } from "./finqa-tools.js";
import { finqaSystemPrompt } from "./system-prompt.js";

/** rLLM's MAX_TURNS: model calls per episode. */
export const finqaMaxTurns = 20;

/** The artifacts a FinQA episode carries for the evaluator and the log. */
export interface FinqaArtifacts {
  /** The FINAL ANSWER block if present, else the last assistant message. */
  answer: string;
  /** Tables the agent described or queried (canonical names, lower-cased, in first-access order). */
  accessedTables: string[];
  turns: number;
  toolCalls: number;
  toolErrors: number;
}

/** Builds the flow; `maxTurns` bounds the model calls. */
export function createFinqaFlow(maxTurns: number = finqaMaxTurns): AgentFlow {
  if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new Error(`maxTurns must be a positive integer, got ${maxTurns}`);
  return async (task, context) => {
    const source = TableSourceSchema.safeParse(task.metadata.table_source);
    if (!source.success) throw new InputError(`task ${task.id}: metadata.table_source is missing or invalid (load tasks through the finqa benchmark)`);
    const messages: ChatMessage[] = [
      { role: "system", content: finqaSystemPrompt },
      { role: "user", content: task.instruction },
    ];
    const steps: Step[] = [];
    const accessed = new Set<string>();
    let toolCalls = 0;
    let toolErrors = 0;
    let lastReply = "";
    let termination: TerminationReason = "max_turns";
    for (let turn = 1; turn <= maxTurns; turn++) {
      const request: ChatRequest = { ...context.sampling, messages: [...messages], tools: finqaToolDefinitions, signal: context.signal };
      const response = await context.client.chat(request);
      const step = stepFromChat(request, response, 0);
      const choice = response.choices[0]!; // stepFromChat above throws when the reply has no choice 0
      steps.push(step);
      if (choice.text.trim() !== "") lastReply = choice.text;
      // An empty content beside tool calls is sent as null, which every OpenAI-compatible server accepts.
      const content = choice.text === "" && choice.toolCalls.length > 0 ? null : choice.text;
      messages.push({ role: "assistant", content, ...(choice.toolCalls.length ? { tool_calls: choice.toolCalls } : {}) });
      if (choice.toolCalls.length === 0) {
        termination = choice.finishReason === "length" ? "max_tokens" : "done";
        break;
      }
      // One call at a time, in order, so that an abort of the episode stops the calls not yet run.
      const tables = await context.pool(companyTablesPool);
      const results: { call: ToolCall; result: ToolResult }[] = [];
      for (const call of choice.toolCalls) results.push({ call, result: await runFinqaTool(call, tables, source.data, context.signal) });
      for (const { call, result } of results) {
        toolCalls++;
        if (result.isError) toolErrors++;
        if (result.accessedTable) accessed.add(result.accessedTable.toLowerCase());
        messages.push({ role: "tool", tool_call_id: call.id, content: result.content });
      }
      step.info = { toolResults: results.map(({ call, result }) => ({ name: call.function.name, isError: result.isError })) };
    }
    const artifacts: FinqaArtifacts = {
      answer: finalAnswerOf(lastReply),
      accessedTables: [...accessed],
      turns: steps.length,
      toolCalls,
      toolErrors,
    };
    return finqaEpisode(task, context.attempt, steps, artifacts, termination);
  };
}

/** The marked FINAL ANSWER block, or the whole reply when the model gave none. */
function finalAnswerOf(reply: string): string {
  const answer = extractFinalAnswer(reply);
  return answer.isMarked ? answer.text : reply.trim();
}

function finqaEpisode(task: Task, attempt: number, steps: Step[], artifacts: FinqaArtifacts, termination: TerminationReason): Episode {
  return EpisodeSchema.parse({
    id: episodeId(task.id, attempt),
    taskId: task.id,
    attempt,
    trajectories: [{ name: "solver", steps, output: artifacts.answer }],
    artifacts: { ...artifacts },
    terminationReason: termination,
  });
}
