/**
 * `rllm view` at 10,000 episodes: report size, time to open in Chromium (until the tasks table is drawn) and the
 * latency of filtering, searching and sorting (until the rows are laid out and painted). Goals: < 2 s and < 200 ms.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { EpisodeSchema } from "../../src/core/episode.js";
import { createRng } from "../../src/core/random.js";
import { slimEpisode, type RunData } from "../../src/view/run-data.js";
import { renderReport, reportAssets } from "../../src/view/render-report.js";
import { launchChromium } from "../helpers/report-browser.js";

const episodeCount = 10_000;
const attempts = 4;
const random = createRng(7);

// Arith-like episodes with a system prompt and a reasoning reply (about 1 KB each once slimmed), a tenth unscored
// or failed, so that every filter has work to do.
const episodes = Array.from({ length: episodeCount }, (_, index) => {
  const taskId = `task-${String(Math.floor(index / attempts)).padStart(5, "0")}`;
  const a = Math.floor(random() * 1000);
  const b = Math.floor(random() * 1000);
  const isCorrect = random() < 0.6;
  const roll = random();
  const answer = String(isCorrect ? a + b : a + b + 1 + Math.floor(random() * 9));
  return slimEpisode(
    EpisodeSchema.parse({
      id: `${taskId}:${index % attempts}`,
      taskId,
      attempt: index % attempts,
      target: String(a + b),
      trajectories: [
        {
          name: "solver",
          steps: [
            {
              input: [
                { role: "system", content: "You are a careful calculator. Show your work step by step, then give the final answer as \\boxed{n}." },
                { role: "user", content: `What is ${a}+${b}? Show each step, then give the final answer as \\boxed{n}.` },
              ],
              output: `First add the units, then the tens, then the hundreds, carrying where needed. ${a} + ${b}: ... so the sum is \\boxed{${answer}}.`,
              usage: { promptTokens: 40, completionTokens: 60 },
              finishReason: "stop",
            },
          ],
          reward: isCorrect ? 1 : 0,
        },
      ],
      score:
        roll < 0.05
          ? { value: 0, isCorrect: false, status: "unscored", explanation: "unscored: no boxed answer", signals: {} }
          : { value: isCorrect ? 1 : 0, isCorrect, status: "scored", answer, explanation: isCorrect ? "boxed: equal rationals" : "boxed: different rationals", signals: { timedOut: roll > 0.98 ? 1 : 0 } },
      errorClass: roll > 0.95 && roll < 0.97 ? "model_error" : null,
      error: roll > 0.95 && roll < 0.97 ? "reply cut at max_tokens" : null,
      timings: { flowMs: 100 + random() * 900, evaluateMs: 1, totalMs: 101 + random() * 900 },
      usage: { promptTokens: 40, completionTokens: 60 },
    }),
  );
});
const run: RunData = { directory: "runs/bench-10k", kind: "eval", config: { formatVersion: 2, benchmark: "arith", model: "bench" }, summary: null, episodes, tournaments: [], training: [] };

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-view-perf-"));
const file = path.join(directory, "report.html");
let started = performance.now();
const html = renderReport({ kind: "run", run, live: null });
const renderMs = performance.now() - started;
writeFileSync(file, html);
const assets = reportAssets();
const codeBytes = Buffer.byteLength(assets.script) + Buffer.byteLength(assets.style);
console.log(
  `report: ${episodeCount} episodes → ${(Buffer.byteLength(html) / 1024 / 1024).toFixed(1)} MB (${Math.round(codeBytes / 1024)} KB code + ` +
    `${((Buffer.byteLength(html) - codeBytes) / 1024 / 1024).toFixed(1)} MB data), rendered in ${Math.round(renderMs)} ms`,
);

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const openTimes: number[] = [];
  for (let round = 0; round < 5; round++) {
    started = performance.now();
    await page.goto(`${pathToFileURL(file).href}#tasks`);
    await page.waitForSelector("#task-rows .row");
    openTimes.push(performance.now() - started);
    if (round < 4) await page.goto("about:blank");
  }
  console.log(`open (navigation → tasks table drawn): median ${Math.round(median(openTimes))} ms over 5 loads (${openTimes.map(Math.round).join(", ")}) · goal < 2000 ms`);

  // One change of a control, timed in the page until the next frame is painted after the synchronous re-filter.
  const timeChange = (selector: string, value: string, event: "input" | "change" | "click") =>
    page.evaluate(
      ({ selector, value, event }) =>
        new Promise<number>((resolve) => {
          const control = document.querySelector(selector) as HTMLInputElement;
          const start = performance.now();
          if (event === "click") control.click();
          else {
            control.value = value;
            control.dispatchEvent(new Event(event));
          }
          void document.body.offsetHeight;
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
        }),
      { selector, value, event },
    );
  const cases: [string, string, string, "input" | "change" | "click"][] = [
    ["filter verdict = wrong", "#filter-status", "wrong", "change"],
    ["filter verdict = all", "#filter-status", "all", "change"],
    ["filter signal timedOut ≠ 0", "#filter-signal", "timedOut", "change"],
    ["filter signal any", "#filter-signal", "", "change"],
    ["search \"77\"", "#search", "77", "input"],
    ["search cleared", "#search", "", "input"],
    ["sort by answer", '[data-sort="answer"]', "", "click"],
  ];
  for (const [label, selector, value, event] of cases) {
    const times: number[] = [];
    for (let round = 0; round < 5; round++) times.push(await timeChange(selector, value, event));
    console.log(`${label.padEnd(30)} median ${median(times).toFixed(1)} ms (max ${Math.max(...times).toFixed(1)}) · goal < 200 ms · ${await page.textContent("#task-count")}`);
  }
} finally {
  await browser.close();
  rmSync(directory, { recursive: true, force: true });
}
