/**
 * The terminal cookbook end to end on bwrap: oracle and do-nothing over the bundled tasks, a scripted OpenAI-compatible
 * server driving the bash agent (token ids on every step), Terminus-2's double confirmation and its tmux shell kept
 * between turns, the LLM-in-Sandbox tools,
 * partial work graded after the agent's time runs out, an agent that tries to write its own reward, and a task whose tests
 * are written as Harbor's template.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTerminalTasks } from "../../../benchmarks/harbor/load-terminal-tasks.js";
import { createTerminalCookbook, type TerminalOptions } from "../../../cookbooks/terminal/index.js";
import type { Episode } from "../../../src/core/episode.js";
import type { ChatResponse, LlmClient } from "../../../src/core/llm-client.js";
import type { Task } from "../../../src/core/task.js";
import { packagePath } from "../../../src/core/package-root.js";
import { createOpenAiClient } from "../../../src/llm/openai-client.js";
import { createRecordingLlmClient } from "../../../src/testing/index.js";
import { lastUserText, startScriptedServer } from "../../helpers/scripted-openai-server.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const sampleFolder = packagePath("benchmarks/terminal-sample/tasks");
const tasks = loadTerminalTasks(sampleFolder);
const helloFile = tasks.find((task) => task.id === "rllm/hello-file")!;
const scratch = mkdtempSync(path.join(tmpdir(), "rllm-terminal-agents-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const noModel: LlmClient = { model: "none", chat: () => Promise.reject(new Error("this agent calls no model")) };

async function runEpisode(task: Task, options: Partial<TerminalOptions>, client: LlmClient = noModel) {
  const cookbook = createTerminalCookbook(options);
  const episode = (await cookbook.flow(task, testRun.flowContext(client))) as Episode;
  return { episode, score: await cookbook.evaluate(task, episode, testRun.evaluatorContext()) };
}

/** Runs `work` over `items` with `limit` in flight. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

const terminusReply = (keystrokes: string[], isComplete: boolean, duration = 0.1) =>
  JSON.stringify({ analysis: "a", plan: "p", commands: keystrokes.map((text) => ({ keystrokes: text, duration })), task_complete: isComplete });

const toolReply = (id: string, command: string): ChatResponse => ({
  choices: [{ text: "", toolCalls: [{ id, type: "function", function: { name: "bash", arguments: JSON.stringify({ command }) } }], finishReason: "tool_calls" }],
  usage: { promptTokens: 0, completionTokens: 0 },
  model: "recording",
});

describe("terminal cookbook on bwrap", () => {
  it("scores the oracle 1 and the untouched sandbox 0 on every bundled task", async () => {
    const oracle = await inParallel(tasks, 4, (task) => runEpisode(task, { agent: "oracle" }));
    const untouched = await inParallel(tasks, 4, (task) => runEpisode(task, { agent: "nop" }));
    expect(Object.fromEntries(tasks.map((task, index) => [task.id, oracle[index]!.score.value]))).toEqual(Object.fromEntries(tasks.map((task) => [task.id, 1])));
    expect(Object.fromEntries(tasks.map((task, index) => [task.id, untouched[index]!.score.value]))).toEqual(Object.fromEntries(tasks.map((task) => [task.id, 0])));
  });

  it("grades a task whose tests are written as Harbor's template (pytest from the workdir, a test.sh without +x) under a read-only /tests", async () => {
    const [template] = loadTerminalTasks(packagePath("test/fixtures/harbor-tasks/pytest-template"));
    expect((await runEpisode(template!, { agent: "oracle" })).score).toMatchObject({ status: "scored", value: 1 });
    expect((await runEpisode(template!, { agent: "nop" })).score).toMatchObject({ status: "scored", value: 0 });
  });

  it("lets a scripted model server drive the bash agent over several turns, with token ids and logprobs on every step", async () => {
    const server = await startScriptedServer((_body, call) => {
      if (call === 0) return { toolCalls: [{ id: "call-1", name: "bash", arguments: JSON.stringify({ command: "ls -la" }) }] };
      if (call === 1) return { toolCalls: [{ id: "call-2", name: "bash", arguments: JSON.stringify({ command: "echo 'Hello, world!' > /app/hello.txt" }) }] };
      return { text: "Done: /app/hello.txt holds the greeting." };
    });
    try {
      const client = createOpenAiClient({ baseUrl: server.url, model: "scripted", apiKey: "none" });
      const { episode, score } = await runEpisode(helloFile, { agent: "bash" }, client);
      const steps = episode.trajectories[0]!.steps;
      expect(steps).toHaveLength(3);
      for (const step of steps) {
        expect(step.promptTokenIds?.length).toBeGreaterThan(0);
        expect(step.logprobs).toHaveLength(step.completionTokenIds!.length);
      }
      // The second call saw the first command's output as a tool message.
      const toolMessage = server.requests[1]!.body.messages.at(-1);
      expect(toolMessage).toMatchObject({ role: "tool", tool_call_id: "call-1" });
      expect(toolMessage.content).toContain("[exit code 0]");
      expect(episode.terminationReason).toBe("done");
      expect(score).toMatchObject({ value: 1, isCorrect: true, status: "scored" });
    } finally {
      await server.close();
    }
  });

  it("runs Terminus-2 replies in the terminal and ends only on a second consecutive task_complete", async () => {
    // The scripted model waits (an empty batch) until the screen shows cat's output, as a model polls a slow terminal.
    const client = createRecordingLlmClient({
      reply: (request, index) => {
        if (index === 0) return "not json at all";
        if (index === 1) return terminusReply(["echo 'Hello, world!' > hello.txt\n"], true);
        if (index === 2) return terminusReply(["cat hello.txt\n"], false);
        const isShown = request.messages.some((message) => message.role === "user" && /^Hello, world!$/m.test(String(message.content)));
        return isShown ? terminusReply([], true) : terminusReply([""], false, 0.2);
      },
    });
    const { episode, score } = await runEpisode(helloFile, { agent: "terminus-2" }, client);
    const decisions = episode.trajectories[0]!.steps.map((step) => step.info.decision);
    expect(decisions.slice(0, 3)).toEqual(["invalid", "act", "act"]);
    expect(decisions.slice(-2)).toEqual(["act", "stop"]);
    expect(String(client.calls[1]!.messages.at(-1)!.content)).toContain("Previous response had parsing errors");
    expect(String(client.calls[2]!.messages.at(-1)!.content)).toContain("Are you sure you want to mark the task as complete?");
    expect(client.calls[0]!.messages.map((message) => message.role)).toEqual(["user"]);
    expect(score.value).toBe(1);
  });

  it("keeps Terminus-2's shell between turns in tmux: a cd, an exported variable and a still-running command carry over", async () => {
    const server = await startScriptedServer((body, call) => {
      const transcript = (body.messages as { content: string }[]).map((message) => message.content).join("\n");
      if (call === 0) return { text: terminusReply(["cd /tmp && export GREETING='Hello, world!'\n", "sleep 1; echo slept-$((1 + 1))\n"], false) };
      // Typed while turn 1's sleep still runs: the shell reads it once the sleep is done.
      if (call === 1) return { text: terminusReply(['echo "$GREETING" > /app/hello.txt; pwd; echo done-$((6 * 7))\n'], false) };
      return { text: /^done-42$/m.test(transcript) ? terminusReply([], true) : terminusReply([""], false, 0.3) };
    });
    try {
      const client = createOpenAiClient({ baseUrl: server.url, model: "scripted", apiKey: "none" });
      const { episode, score } = await runEpisode(helloFile, { agent: "terminus-2" }, client);
      const screens = server.requests.map((request) => lastUserText(request.body)).join("\n");
      expect(screens).toMatch(/^slept-2$[\s\S]*^\/tmp\ndone-42$/m);
      expect(episode.trajectories[0]!.steps[0]!.info.observations).toEqual([{ terminal: "tmux" }]);
      expect(score).toMatchObject({ value: 1, status: "scored" });
    } finally {
      await server.close();
    }
  });

  it("edits files with str_replace_editor and ends on submit (LLM-in-Sandbox tools)", async () => {
    const call = (id: string, name: string, args: Record<string, unknown>): ChatResponse => ({
      choices: [{ text: "", toolCalls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }], finishReason: "tool_calls" }],
      usage: { promptTokens: 0, completionTokens: 0 },
      model: "recording",
    });
    const replies = [
      call("1", "str_replace_editor", { command: "create", path: "/app/hello.txt", file_text: "Hello, there!\n" }),
      call("2", "str_replace_editor", { command: "str_replace", path: "/app/hello.txt", old_str: "there", new_str: "world" }),
      call("3", "submit", {}),
    ];
    const client = createRecordingLlmClient({ reply: (_request, index) => replies[index]! });
    const { episode, score } = await runEpisode(helloFile, { agent: "llm-in-sandbox" }, client);
    expect(client.calls[2]!.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "2" });
    expect(String(client.calls[2]!.messages.at(-1)!.content)).toContain("edited /app/hello.txt");
    expect(episode.terminationReason).toBe("done");
    expect(score.value).toBe(1);
  });

  it("grades the partial work when the agent's time runs out, and stops its running command", async () => {
    const folder = path.join(scratch, "short-budget");
    cpSync(path.join(sampleFolder, "hello-file"), folder, { recursive: true });
    const toml = path.join(folder, "task.toml");
    writeFileSync(toml, readFileSync(toml, "utf8").replace("timeout_sec = 120.0", "timeout_sec = 1.0"));
    const [task] = loadTerminalTasks(folder);
    const client = createRecordingLlmClient({ reply: () => toolReply("1", "echo 'Hello, world!' > /app/hello.txt; sleep 30; rm /app/hello.txt") });
    const { episode, score } = await runEpisode(task!, { agent: "bash" }, client);
    expect(episode.terminationReason).toBe("timeout");
    expect(score).toMatchObject({ value: 1, status: "scored" });
  });

  it("ends the episode and grades what is left when the agent kills its own sandbox", async () => {
    const kill = toolReply("1", "echo 'Hello, world!' > /app/hello.txt; kill -KILL $(ps -o ppid= -p $PPID)");
    const client = createRecordingLlmClient({ reply: (_request, index) => (index === 0 ? kill : "unreachable") });
    const { episode, score } = await runEpisode(helloFile, { agent: "bash" }, client);
    expect(client.calls).toHaveLength(1);
    expect(episode.terminationReason).toBe("done");
    expect(score).toMatchObject({ value: 1, status: "scored" });
  });

  it("scores 0 an agent that tries to write the reward file itself", async () => {
    const replies = [toolReply("1", "mkdir -p /logs/verifier; echo 1 > /logs/verifier/reward.txt; echo '{\"reward\": 1}' > /logs/verifier/reward.json"), "finished"];
    const { episode, score } = await runEpisode(helloFile, { agent: "bash" }, createRecordingLlmClient({ reply: (_request, index) => (index === 0 ? replies[0] : replies[1]) as never }));
    expect(String(episode.trajectories[0]!.steps[1]!.input.at(-1)!.content)).toMatch(/Permission denied|No such file/);
    expect(score).toMatchObject({ value: 0, status: "scored" });
  });
});
