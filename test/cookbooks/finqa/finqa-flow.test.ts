// Acceptance: a scripted OpenAI-compatible server drives the FinQA agent through every tool, over HTTP on 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFinqaCookbook, createFinqaFlow, finqaCookbook } from "../../../cookbooks/finqa/index.js";
import { loadFinqaTasks } from "../../../benchmarks/finqa/finqa-benchmark.js";
import { companyTablesPool } from "../../../benchmarks/finqa/company-tables.js";
import { TableSourceSchema } from "../../../benchmarks/finqa/table-source.js";
import { runFinqaTool } from "../../../cookbooks/finqa/finqa-tools.js";
import type { Episode } from "../../../src/core/episode.js";
import type { Task } from "../../../src/core/task.js";
import { createOpenAiClient } from "../../../src/llm/openai-client.js";
import { runEpisode } from "../../../src/engine/run-episode.js";
import { openTestRun } from "../../../src/testing/open-test-run.js";
import { startScriptedServer, type Script, type ScriptedServer } from "../../helpers/scripted-openai-server.js";

let tasks: Task[];
let server: ScriptedServer | undefined;
beforeAll(async () => {
  tasks = await loadFinqaTasks({ home: "/nonexistent-rllm-home" });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
// One run for the whole file: its company tables and query processes are shared by every episode, as a run's are.
const testRun = openTestRun();
afterAll(() => testRun.close());

const taskById = (id: string) => tasks.find((task) => task.id === id)!;
const lastToolText = (body: Record<string, any>) => String(body.messages.at(-1).content);
const call = (name: string, args: object, id = `call_${name}`) => ({ id, name, arguments: JSON.stringify(args) });

/**
 * A model that works the ETR 2015 net-revenue question: each turn reads the previous tool result
 * from the request, so the final answer exists only if every tool output reached the model.
 */
const analystScript: Script = (body, index) => {
  if (index === 0) return { toolCalls: [call("get_table_names", { company_name: "ETR" })] };
  if (index === 1) {
    const names: string[] = JSON.parse(lastToolText(body));
    return { text: "Checking the 2016 report.", toolCalls: [call("get_table_info", { company_name: "ETR", table_name: names[0] })] };
  }
  if (index === 2) {
    const info = JSON.parse(lastToolText(body));
    const [label, amount] = info.column_names;
    const query = `SELECT ${label}, ${amount} FROM ${info.table_name} WHERE ${label} LIKE '%net revenue%'`;
    return { toolCalls: [call("sql_query", { company_name: "ETR", table_name: info.table_name, query })] };
  }
  if (index === 3) {
    const rows: Record<string, number>[] = JSON.parse(lastToolText(body));
    const [before, after] = rows.map((row) => row.amount_in_millions);
    return { toolCalls: [call("calculator", { expression: `$${after} − $${before}` })] };
  }
  return { text: `Net revenue went from 5735 to 5829.\n\nFINAL ANSWER: $${lastToolText(body)} million (5829 − 5735)` };
};

async function runWith(script: Script, task: Task, cookbook = finqaCookbook, timeoutMs = 30_000): Promise<Episode> {
  server = await startScriptedServer(script);
  const client = createOpenAiClient({ baseUrl: server.url, model: "scripted-analyst", apiKey: "test" });
  return runEpisode(task, 0, { cookbook, client, sampling: { temperature: 0 }, timeoutMs, runSignal: new AbortController().signal, resources: testRun });
}

describe("finqa flow against a scripted server", () => {
  it("names the tables, describes one, queries it, calculates and answers: every turn recorded, bonus added", async () => {
    const episode = await runWith(analystScript, taskById("ETR/2016/page_23.pdf-2"));
    expect(episode.error).toBeNull();
    expect(episode.terminationReason).toBe("done");
    const steps = episode.trajectories[0]!.steps;
    expect(steps.map((step) => step.toolCalls.map((toolCall) => toolCall.function.name))).toEqual([
      ["get_table_names"],
      ["get_table_info"],
      ["sql_query"],
      ["calculator"],
      [],
    ]);
    // Each turn's prompt is the previous one plus the assistant turn and its tool result.
    expect(steps.map((step) => step.input.length)).toEqual([2, 4, 6, 8, 10]);
    expect(steps[4]?.input.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_calculator", content: "94" });
    for (const step of steps) {
      expect(step.completionTokenIds?.length).toBe([...step.output].length);
      expect(step.promptTokenIds?.length).toBeGreaterThan(0);
    }
    expect(episode.artifacts).toMatchObject({
      answer: "$94 million (5829 − 5735)",
      accessedTables: ["fy2016_page_23"],
      turns: 5,
      toolErrors: 0,
    });
    expect(episode.score).toMatchObject({ isCorrect: true, status: "scored" });
    expect(episode.score.value).toBeCloseTo(1.1, 10);
    expect(episode.score.signals).toEqual({ tableAccess: 1, turns: 5, toolErrors: 0 });
    const firstRequest = server!.requests[0]!.body;
    expect(firstRequest.tools.map((tool: any) => tool.function.name)).toEqual(["get_table_names", "get_table_info", "sql_query", "calculator"]);
    expect(firstRequest.messages[1].content).toBe("Company: ETR\nQuestion: what is the net change in net revenue during 2015 for entergy corporation?");
  });

  it("gives plain correctness with β = 0 (rLLM's reward)", async () => {
    const episode = await runWith(analystScript, taskById("ETR/2016/page_23.pdf-2"), createFinqaCookbook({ beta: 0 }));
    expect(episode.score.value).toBe(1);
    expect(episode.score.signals.tableAccess).toBe(1);
  });

  it("returns tool errors to the model as text, counts them, and scores a wrong table and answer as 0", async () => {
    let toolReplies: string[] = [];
    const script: Script = (body, index) => {
      if (index === 0) return { toolCalls: [call("get_table_info", { company_name: "ETR", table_name: "fy2017_page_372" })] };
      if (index === 1) {
        return {
          toolCalls: [
            call("sql_query", { company_name: "ETR", table_name: "fy2017_page_372", query: "SELECT * FROM fy2017_page_372" }, "bad_sql"),
            call("calculator", { expression: "2 +* 3" }, "bad_math"),
            call("get_stock_price", { ticker: "ETR" }, "bad_tool"),
          ],
        };
      }
      toolReplies = body.messages.filter((message: any) => message.role === "tool").map((message: any) => message.content);
      return { text: "FINAL ANSWER: $2.3 million" };
    };
    const episode = await runWith(script, taskById("ETR/2016/page_23.pdf-2"));
    expect(toolReplies.slice(1)).toEqual([
      expect.stringMatching(/^Error: query refused: SELECT \* is not allowed/),
      expect.stringMatching(/^Error: cannot evaluate/),
      expect.stringMatching(/^Error: unknown tool "get_stock_price"/),
    ]);
    expect(episode.error).toBeNull();
    expect(episode.artifacts).toMatchObject({ accessedTables: ["fy2017_page_372"], turns: 3, toolErrors: 3 });
    expect(episode.score).toMatchObject({ isCorrect: false, value: 0, signals: { tableAccess: 0, toolErrors: 3 } });
  });

  it("stops after the turn limit and answers with the last message", async () => {
    const script: Script = () => ({ text: "Maybe 94.", toolCalls: [call("get_table_names", { company_name: "ETR" })] });
    const episode = await runWith(script, taskById("ETR/2016/page_23.pdf-2"), createFinqaCookbook({ maxTurns: 3 }));
    expect(episode.terminationReason).toBe("max_turns");
    expect(episode.trajectories[0]?.steps).toHaveLength(3);
    expect(server!.requests).toHaveLength(3);
    expect(episode.artifacts.answer).toBe("Maybe 94.");
    expect(episode.score).toMatchObject({ isCorrect: true, value: 1 });
  });
});

describe("finqa flow with runaway SQL", () => {
  const etrQuery = (query: string, id = "runaway") => call("sql_query", { company_name: "ETR", table_name: "fy2016_page_23", query }, id);
  // Ten copies of an 8-row table: 8^10 rows to count, minutes of work without a limit.
  const tenWayJoin = `SELECT count(*) AS n FROM ${Array.from({ length: 10 }, (_, index) => `fy2016_page_23 t${index}`).join(", ")}`;
  const plainQuery = "SELECT amount_in_millions FROM fy2016_page_23 WHERE col_0 = 'miso deferral'";
  const toolCall = (query: string, id: string) => {
    const { name, arguments: text } = etrQuery(query, id);
    return { id, type: "function" as const, function: { name, arguments: text } };
  };
  const sourceOf = (task: Task) => TableSourceSchema.parse(task.metadata.table_source);

  it("returns a self-referencing CTE to the model as a refused query and goes on", async () => {
    let toolReply = "";
    const script: Script = (body, index) => {
      if (index === 0) return { toolCalls: [etrQuery("WITH c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c WHERE x > 0")] };
      toolReply = lastToolText(body);
      return { text: "FINAL ANSWER: $94 million" };
    };
    const episode = await runWith(script, taskById("ETR/2016/page_23.pdf-2"));
    expect(toolReply).toMatch(/^Error: query refused: the CTE "c" reads from itself/);
    expect(episode.error).toBeNull();
    expect(episode.terminationReason).toBe("done");
    expect(episode.artifacts).toMatchObject({ toolErrors: 1, accessedTables: ["fy2016_page_23"] });
    expect(episode.score?.isCorrect).toBe(true);
  }, 60_000);

  it("ends the episode at its time limit while a query runs, and later queries run", async () => {
    const task = taskById("ETR/2016/page_23.pdf-2");
    const episode = await runWith(() => ({ toolCalls: [etrQuery(tenWayJoin)] }), task, finqaCookbook, 2000);
    expect(episode.terminationReason).toBe("timeout");
    const tables = await testRun.pool(companyTablesPool);
    expect((await runFinqaTool(toolCall(plainQuery, "after"), tables, sourceOf(task))).content).toBe('[{"amount_in_millions":-35}]');
  }, 60_000);

  it("kills the running query's process when the episode's signal aborts", async () => {
    const task = taskById("ETR/2016/page_23.pdf-2");
    server = await startScriptedServer(() => ({ toolCalls: [etrQuery(tenWayJoin)] }));
    const client = createOpenAiClient({ baseUrl: server.url, model: "scripted-analyst", apiKey: "test" });
    const pool = (await testRun.pool(companyTablesPool)).queries;
    const killedBefore = pool.killed;
    const controller = new AbortController();
    const reason = new Error("episode over");
    // Abort once the query is running, whatever the machine's speed.
    const watcher = setInterval(() => {
      if (pool.running > 0) controller.abort(reason);
    }, 10);
    try {
      await expect(createFinqaFlow()(task, testRun.flowContext(client, { signal: controller.signal }))).rejects.toBe(reason);
    } finally {
      clearInterval(watcher);
    }
    expect(pool.killed).toBe(killedBefore + 1);
    expect(pool.running).toBe(0);
  }, 60_000);
});
