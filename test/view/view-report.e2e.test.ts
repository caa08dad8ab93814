// `rllm view` and `rllm compare` reports of real runs made by the real CLI (the embedded model and scripted servers),
// opened in Debian's Chromium: filters, search, transcripts, tournaments, training curves and the live view.
// The page must make no request beyond its own file (or, live, its own server) and log no console error.
import type { ChildProcess } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launchChromium, openWatchedPage, type WatchedPage } from "../helpers/report-browser.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import { readRunDirectory } from "../../src/view/read-run-directory.js";
import { renderReport } from "../../src/view/render-report.js";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const repository = fileURLToPath(new URL("../..", import.meta.url));
/** Screenshots land here (kept out of git); docs/images holds the ones the docs show. */
const screenshots = path.join(repository, "test-results/view");
const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-view-e2e-"));
const runs = { arith: "", finqa: "", geo3k: "", deepcoder: "", training: "" };
const servers: ScriptedServer[] = [];
let browser: Browser;

const deepcoderSample = readFileSync(path.join(repository, "benchmarks/deepcoder/sample.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { question: string; reference_solution: string });

// FinQA: list the tables, open the first, then answer (wrongly): two tool turns and a final reply.
async function finqaServer() {
  return startScriptedServer((body) => {
    const company = /Company: (\S+)/.exec(lastUserText(body))?.[1] ?? "";
    const toolResults = (body.messages as { role: string; content: string }[]).filter((message) => message.role === "tool");
    if (toolResults.length === 0) return { toolCalls: [{ id: "names", name: "get_table_names", arguments: JSON.stringify({ company_name: company }) }] };
    if (toolResults.length === 1) {
      const [first] = JSON.parse(toolResults[0]!.content) as string[];
      return { toolCalls: [{ id: "info", name: "get_table_info", arguments: JSON.stringify({ company_name: company, table_name: first }) }] };
    }
    return { text: "FINAL ANSWER: -123456789" };
  });
}

// Deepcoder: attempt 0 sends the reference solution, attempt 1 a program that fails every test.
async function deepcoderServer() {
  const seen = new Set<string>();
  return startScriptedServer((body) => {
    const prompt = lastUserText(body);
    const problem = deepcoderSample.find((row) => prompt.includes(row.question));
    const isFirstAttempt = !seen.has(prompt);
    seen.add(prompt);
    return { text: isFirstAttempt && problem ? `\`\`\`python\n${problem.reference_solution}\n\`\`\`` : "```python\nprint('no')\n```" };
  });
}

async function run(args: string[]): Promise<void> {
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(`rllm ${args.join(" ")} exited ${result.code}:\n${result.stderr}`);
}

beforeAll(async () => {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} not found: install Debian's chromium (apt-get install chromium), as .ci/run does`);
  mkdirSync(screenshots, { recursive: true });
  const [finqa, geo3k, deepcoder] = await Promise.all([finqaServer(), startScriptedServer(() => ({ text: "The answer is \\boxed{13}." })), deepcoderServer()]);
  servers.push(finqa, geo3k, deepcoder);
  for (const name of Object.keys(runs) as (keyof typeof runs)[]) runs[name] = path.join(directory, name);
  const trainConfig = path.join(directory, "train.json");
  writeFileSync(trainConfig, JSON.stringify({ steps: 2, tasksPerStep: 2, groupSize: 4, sampling: { maxTokens: 24 }, validation: { tasks: 4, every: 1 }, concurrency: 4 }));
  await Promise.all([
    run(["eval", "arith", "--model", "tiny", "--limit", "4", "-n", "4", "--rerank", "v1,adaptive-duel", "--budget", "2", "--out", runs.arith]),
    run(["eval", "finqa", "--base-url", finqa.url, "--model", "scripted", "--limit", "2", "--out", runs.finqa]),
    run(["eval", "geo3k", "--base-url", geo3k.url, "--model", "vision", "--limit", "3", "--out", runs.geo3k]),
    run(["eval", "deepcoder", "--base-url", deepcoder.url, "--model", "scripted", "--limit", "1", "--attempts", "2", "--concurrency", "1", "--out", runs.deepcoder]),
    run(["train", "arith", "--config", trainConfig, "--out", runs.training]),
  ]);
  // One report through the CLI; the others in process, which spares four Node start-ups on a 2-core machine.
  await run(["view", runs.arith]);
  for (const runDirectory of [runs.finqa, runs.geo3k, runs.deepcoder, runs.training]) {
    writeFileSync(path.join(runDirectory, "report.html"), renderReport({ kind: "run", run: readRunDirectory(runDirectory).run, live: null }));
  }
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  rmSync(directory, { recursive: true, force: true });
});

/** Opens a run's report.html from the file, on a tab. */
async function openReport(runDirectory: string, tab: string): Promise<WatchedPage> {
  const watched = await openWatchedPage(browser);
  await watched.page.goto(`${pathToFileURL(path.join(runDirectory, "report.html")).href}#${tab}`);
  return watched;
}

/** The page fetched nothing but `allowedPrefix` and logged no error; then it is closed. */
async function expectQuietPage(watched: WatchedPage, allowedPrefix = "file://"): Promise<void> {
  expect(watched.errors).toEqual([]);
  expect(watched.requests.filter((url) => !url.startsWith(allowedPrefix))).toEqual([]);
  await watched.page.close();
}

const shot = (watched: WatchedPage, name: string) => watched.page.screenshot({ path: path.join(screenshots, `${name}.png`) });

describe("rllm view in Chromium", () => {
  it("arith with rerank: summary figures, filters, search, a transcript and the tournaments with slot-A win rate and McNemar against v1", async () => {
    const watched = await openReport(runs.arith, "summary");
    const { page } = watched;
    await expect.poll(() => page.locator("#summary-figures").textContent()).toContain("rerank@1 [v1]");
    await expect.poll(() => page.locator("#summary-figures").textContent()).toContain("pass@4");
    // The infra-error rate sits next to the count (issue #29).
    await expect.poll(() => page.locator("#summary-figures").textContent()).toMatch(/errors\d+ infra \(\d+\.\d% of episodes, not scored\)/);
    await shot(watched, "summary");

    await page.click('nav button[data-tab="tasks"]');
    await expect.poll(() => page.locator("#task-count").textContent()).toBe("16 of 16 episodes");
    const episodes = readFileSync(path.join(runs.arith, "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const correct = episodes.filter((episode) => episode.score.isCorrect).length;
    await page.selectOption("#filter-status", "correct");
    await expect.poll(() => page.locator("#task-count").textContent()).toBe(`${correct} of 16 episodes`);
    expect(await page.locator("#task-rows .row .status-wrong").count()).toBe(0);
    await page.selectOption("#filter-status", "all");
    const question = /What is ([^?]+)\?/.exec(episodes[0].trajectories[0].steps[0].input[0].content)![1]!;
    await page.fill("#search", question);
    await expect.poll(() => page.locator("#task-count").textContent()).toBe(`4 of 16 episodes`);
    await page.locator("#task-rows .row").first().click();
    await expect.poll(() => page.locator("#transcript").textContent()).toContain(`What is ${question}?`);
    await expect.poll(() => page.locator("#transcript").textContent()).toContain("prompt +");
    await expect.poll(() => page.locator("#transcript-score").textContent()).toContain("explanation");
    await shot(watched, "tasks");

    await page.click('nav button[data-tab="tournaments"]');
    await expect.poll(() => page.locator("#tournament-methods").textContent()).toContain("v1");
    await expect.poll(() => page.locator("#tournament-methods").textContent()).toMatch(/\d+\.\d% \(\d+ A \/ \d+ B\)/);
    // adaptive-duel's row is paired with v1's on the same 4 tasks: discordant counts and an exact McNemar p.
    await expect.poll(() => page.locator("#tournament-methods").textContent()).toMatch(/adaptive-duel\d+[\d.]+%\d+[\d.]+\d+ \/ \d+ · p [\d.]+/);
    await expect.poll(() => page.locator(".pair-graph circle").count()).toBe(4);
    expect(await page.locator("#tournament-pairs tbody tr").count()).toBeGreaterThan(0);
    await shot(watched, "tournaments");
    await expectQuietPage(watched);
  });

  it("finqa: tool calls, tool results and the tables accessed", async () => {
    const watched = await openReport(runs.finqa, "tasks");
    const { page } = watched;
    await page.locator("#task-rows .row").first().click();
    await expect.poll(() => page.locator("#transcript").textContent()).toContain("→ get_table_names");
    await expect.poll(() => page.locator("#transcript").textContent()).toContain("→ get_table_info");
    await expect.poll(() => page.locator("#transcript .role-tool").first().textContent()).toContain("tool result");
    await expect.poll(() => page.locator("#transcript-score").textContent()).toContain("tables accessed");
    await expect.poll(() => page.locator("#transcript-score").textContent()).toContain("tableAccess");
    await shot(watched, "transcript-finqa");
    await expectQuietPage(watched);
  });

  it("geo3k: the diagram inline in the transcript", async () => {
    const watched = await openReport(runs.geo3k, "tasks");
    const { page } = watched;
    await page.locator("#task-rows .row").first().click();
    const image = page.locator("#transcript img.inline-image").first();
    expect(await image.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
    await shot(watched, "transcript-geo3k");
    await expectQuietPage(watched);
  });

  it("deepcoder: the code verifier's per-test verdicts of a failed program", async () => {
    const watched = await openReport(runs.deepcoder, "tasks");
    const { page } = watched;
    await page.selectOption("#filter-status", "wrong");
    await expect.poll(() => page.locator("#task-count").textContent()).toBe("1 of 2 episodes");
    await page.locator("#task-rows .row").first().click();
    expect(await page.locator("#test-verdicts tbody tr").count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator("#test-verdicts").textContent()).toMatch(/runtime_error|wrong_answer/);
    // The header names where the programs ran, the interpreter and the code pool, from config.json.
    expect(await page.locator("header").textContent()).toMatch(/sandbox local \(bubblewrap, seccomp and cgroups\) · python 3\.\d+\.\d+, .* · pools: code sandbox local slots \d+/);
    await shot(watched, "transcript-deepcoder");
    await expectQuietPage(watched);
  });

  it("training run: uPlot curves of reward, validation pass@1, advantages and groups; rollouts by step", async () => {
    const watched = await openReport(runs.training, "training");
    const { page } = watched;
    for (const id of ["chart-reward", "chart-validation", "chart-advantage", "chart-groups"]) await expect.poll(() => page.locator(`#${id} canvas`).count()).toBe(1);
    await expect.poll(() => page.locator("#chart-validation").textContent()).toContain("pass@1");
    await shot(watched, "training");
    await page.click('nav button[data-tab="tasks"]');
    await expect.poll(() => page.locator("#task-count").textContent()).toBe("16 of 16 episodes");
    await page.click('nav button[data-tab="summary"]');
    await expect.poll(() => page.locator("#summary-figures").textContent()).toMatch(/validation pass@1 \(step 2\)\d+\.\d% ± /);
    await expectQuietPage(watched);
  });

  it("--serve follows a run as episodes are appended, and waits for a torn last line to be finished", async () => {
    const live = path.join(directory, "live");
    mkdirSync(live);
    cpSync(path.join(runs.arith, "config.json"), path.join(live, "config.json"));
    const lines = readFileSync(path.join(runs.arith, "episodes.jsonl"), "utf8").trim().split("\n");
    writeFileSync(path.join(live, "episodes.jsonl"), `${lines.slice(0, 10).join("\n")}\n`);
    const server = spawnCli(["view", live, "--serve", "--port", "0"]);
    try {
      const origin = await serverOrigin(server);
      const watched = await openWatchedPage(browser);
      const { page } = watched;
      await page.goto(`${origin}/#tasks`);
      await expect.poll(() => page.locator("#task-count").textContent()).toBe("10 of 10 episodes");
      appendFileSync(path.join(live, "episodes.jsonl"), `${lines[10]}\n${lines[11]}\n${lines[12]!.slice(0, 40)}`);
      await expect.poll(() => page.locator("#task-count").textContent(), { timeout: 10_000 }).toBe("12 of 12 episodes");
      await expect.poll(() => page.locator("#live-badge").textContent()).toBe("live · 12 episodes");
      appendFileSync(path.join(live, "episodes.jsonl"), `${lines[12]!.slice(40)}\n`);
      await expect.poll(() => page.locator("#task-count").textContent(), { timeout: 10_000 }).toBe("13 of 13 episodes");
      await shot(watched, "live");
      await expectQuietPage(watched, origin);
    } finally {
      server.kill("SIGINT");
      await new Promise((resolve) => server.once("close", resolve));
    }
  });

  it("rllm compare --html: the paired figures and the tasks each run alone solved", async () => {
    // Run B: the arith run with the first task's verdicts flipped, so that exactly one task changes sides.
    const other = path.join(directory, "arith-flipped");
    cpSync(runs.arith, other, { recursive: true });
    const episodes = readFileSync(path.join(runs.arith, "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const firstTask = episodes[0].taskId;
    const flipped = episodes.map((episode) => (episode.taskId === firstTask ? { ...episode, score: { ...episode.score, isCorrect: !episode.score.isCorrect } } : episode));
    writeFileSync(path.join(other, "episodes.jsonl"), flipped.map((episode) => JSON.stringify(episode)).join("\n") + "\n");
    const page = path.join(directory, "compare.html");
    const result = await runCli(["compare", runs.arith, other, "--html", page]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/shared tasks\s+4/);
    const watched = await openWatchedPage(browser);
    await watched.page.goto(pathToFileURL(page).href);
    await expect.poll(() => watched.page.locator("#compare-figures").textContent()).toContain("McNemar");
    await expect.poll(() => watched.page.locator("#solved-only-a li, #solved-only-b li").count()).toBe(1);
    await expect.poll(() => watched.page.locator("#solved-only-a, #solved-only-b").filter({ hasText: firstTask }).count()).toBe(1);
    await shot(watched, "compare");
    await expectQuietPage(watched);
  });
});

/** The origin `rllm view --serve` prints once it listens. */
function serverOrigin(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const match = /rllm view on (http:\/\/[\d.:]+)\//.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("close", (code) => reject(new Error(`rllm view --serve exited ${code} before listening: ${output}`)));
  });
}
