// The report's charts and tables read right, in Debian's Chromium, on run data built here (no CLI run): tick labels that
// keep their sign and precision, a reward line that is not hidden under the accuracy line, full episode ids as
// tooltips, and rows in task order rather than completion order (issue 35, items 3 and 4).
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EpisodeSchema } from "../../src/core/episode.js";
import { compareRuns } from "../../src/view/compare-runs.js";
import { renderReport, type ReportPayload } from "../../src/view/render-report.js";
import type { RunData, TrainingRecord } from "../../src/view/run-data.js";
import { launchChromium, openWatchedPage, type WatchedPage } from "../helpers/report-browser.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-report-charts-"));
let browser: Browser;
const pages: WatchedPage[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  // No page logged an error.
  expect(pages.flatMap((watched) => watched.errors)).toEqual([]);
  await browser?.close();
});

const episode = (taskId: string, attempt: number, isCorrect = true) =>
  EpisodeSchema.parse({ id: `${taskId}:${attempt}`, taskId, attempt, score: { value: isCorrect ? 1 : 0, isCorrect, status: "scored", answer: "4" } });

const run = (episodes: ReturnType<typeof episode>[], training: TrainingRecord[] = [], directoryName = "runs/a"): RunData => ({
  directory: directoryName,
  kind: training.length > 0 ? "training" : "eval",
  config: { formatVersion: 2, benchmark: "arith", model: "m" },
  summary: null,
  episodes,
  tournaments: [],
  training,
});

async function open(payload: ReportPayload, name: string, tab: string): Promise<Page> {
  const file = path.join(directory, `${name}.html`);
  writeFileSync(file, renderReport(payload));
  const watched = await openWatchedPage(browser);
  await watched.page.goto(`${pathToFileURL(file).href}#${tab}`);
  pages.push(watched);
  return watched.page;
}

const trainRecord = (step: number, reward: number, accuracy: number, loss: number, mismatch: number): TrainingRecord => ({
  kind: "train",
  step,
  reward,
  accuracy,
  update: { loss, logprobMismatchMean: mismatch, logprobMismatchMax: 3 * mismatch },
});

/** The widest tick label of a chart's value axis as the page's canvas measures it, and the axis width uPlot was given. */
async function valueAxis(page: Page, id: string): Promise<{ ticks: string[]; size: number; widest: number }> {
  return page.locator(`#${id}`).evaluate((element: HTMLElement) => {
    const ticks = (element.dataset.yTicks ?? "").split(" ").filter((tick) => tick !== "");
    const context = document.createElement("canvas").getContext("2d")!;
    // uPlot's default axis font.
    context.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
    return { ticks, size: Number(element.dataset.yAxisSize), widest: Math.max(...ticks.map((tick) => context.measureText(tick).width)) };
  });
}

describe("training charts", () => {
  it("draws an SFT run's loss (top level of its records) and its validation loss", async () => {
    const sft: TrainingRecord[] = [
      { kind: "validation", step: 0, loss: 2.4, tokens: 120 },
      { kind: "train", step: 1, epoch: 1, loss: 2.3, tokens: 64, sequences: 4, learningRate: 1e-4, seconds: 0.1 },
      { kind: "train", step: 2, epoch: 1, loss: 1.9, tokens: 64, sequences: 4, learningRate: 1e-4, seconds: 0.2 },
      { kind: "validation", step: 2, loss: 2.0, tokens: 120 },
    ];
    const page = await open({ kind: "run", run: run([], sft), live: null }, "sft-loss", "training");
    await expect.poll(() => page.locator("#chart-loss canvas").count()).toBe(1);
    await expect.poll(() => page.locator("#chart-validation-loss canvas").count()).toBe(1);
    expect(await valueAxis(page, "chart-loss").then((axis) => axis.ticks.length)).toBeGreaterThan(1);
    await page.close();
  });

  it("keeps the minus sign of negative loss ticks, with an axis wide enough for the longest label", async () => {
    const page = await open({ kind: "run", run: run([episode("t1", 0)], [trainRecord(1, 1, 1, -0.005, 1e-7), trainRecord(2, 0.5, 0.5, 0.002, 3e-7)]), live: null }, "loss", "training");
    await expect.poll(() => page.locator("#chart-loss canvas").count()).toBe(1);
    const axis = await valueAxis(page, "chart-loss");
    expect(axis.ticks.some((tick) => tick.startsWith("-0.00"))).toBe(true);
    // The label sits right-aligned 15 px (tick and gap) from the plot: the axis must hold its whole width beside that.
    expect(axis.size).toBeGreaterThanOrEqual(axis.widest + 15);
    await page.close();
  });

  it("labels the logprob-mismatch ticks with distinct values, not 0 on every tick", async () => {
    const page = await open({ kind: "run", run: run([episode("t1", 0)], [trainRecord(1, 1, 1, 0.1, 1e-7), trainRecord(2, 0, 0, 0.2, 4e-7)]), live: null }, "mismatch", "training");
    await expect.poll(() => page.locator("#chart-mismatch canvas").count()).toBe(1);
    const { ticks } = await valueAxis(page, "chart-mismatch");
    expect(ticks.length).toBeGreaterThan(1);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.filter((tick) => tick !== "0").every((tick) => /^\d(\.\d+)?e-[67]$/.test(tick))).toBe(true);
    await page.close();
  });

  it("draws an async run's staleness and importance ratio, and leaves the staleness chart out of a synchronous run", async () => {
    const asyncStep = (step: number, mean: number, max: number, dropped: number): TrainingRecord => ({
      ...trainRecord(step, 0.5, 0.5, 0.1, 1e-3),
      update: { loss: 0.1, logprobMismatchMean: 1e-3, importanceRatioMean: 0.98, importanceRatioMax: 1.7, importanceRatioClippedShare: 0.02 },
      staleness: { mean, max, histogram: {}, oldestVersion: 0, droppedGroups: dropped, reweightedGroups: 0 },
    });
    const page = await open({ kind: "run", run: run([episode("t1", 0)], [asyncStep(1, 0, 0, 0), asyncStep(2, 0.75, 1, 2)]), live: null }, "async", "training");
    await expect.poll(() => page.locator("#chart-staleness canvas").count()).toBe(1);
    expect(await page.locator("#chart-staleness .u-legend").textContent()).toContain("stale groups dropped");
    await expect.poll(() => page.locator("#chart-importance-ratio canvas").count()).toBe(1);
    const sync = await open({ kind: "run", run: run([episode("t1", 0)], [asyncStep(1, 0, 0, 0), asyncStep(2, 0, 0, 0)]), live: null }, "sync", "training");
    await expect.poll(() => sync.locator("#chart-importance-ratio canvas").count()).toBe(1);
    expect(await sync.locator("#chart-staleness").count()).toBe(0);
  });

  it("draws one 'reward = accuracy' line when the two are equal, and two distinct lines when not", async () => {
    const same = await open({ kind: "run", run: run([episode("t1", 0)], [trainRecord(1, 1, 1, 0, 0), trainRecord(2, 0.5, 0.5, 0, 0)]), live: null }, "same", "training");
    await expect.poll(() => same.locator("#chart-reward").textContent()).toContain("reward = accuracy");
    await same.close();
    const distinct = await open({ kind: "run", run: run([episode("t1", 0)], [trainRecord(1, 0.8, 1, 0, 0), trainRecord(2, 0.4, 0.5, 0, 0)]), live: null }, "distinct", "training");
    await expect.poll(() => distinct.locator("#chart-reward .u-legend").textContent()).toContain("accuracy");
    const legend = await distinct.locator("#chart-reward .u-legend .u-label").allTextContents();
    expect(legend).toEqual(["step", "reward", "accuracy"]);
    await distinct.close();
  });
});

describe("tables", () => {
  it("orders episode rows by task id then attempt, not completion order, and shows the full id as a tooltip", async () => {
    const completionOrder = [episode("arith-test-00010", 1), episode("arith-test-00002", 0), episode("arith-test-00010", 0), episode("arith-test-00002", 1)];
    const page = await open({ kind: "run", run: run(completionOrder), live: null }, "tasks", "tasks");
    await expect.poll(() => page.locator("#task-rows .row").count()).toBe(4);
    const ids = await page.locator("#task-rows .row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-episode-id")));
    expect(ids).toEqual(["arith-test-00002:0", "arith-test-00002:1", "arith-test-00010:0", "arith-test-00010:1"]);
    expect(await page.locator("#task-rows .row").first().locator(".cell").first().getAttribute("title")).toBe("arith-test-00002:0");
    await page.close();
  });

  it("shows every episode id whole in the episode column, not cut to arith-test-000…", async () => {
    const episodes = [episode("arith-test-00002", 0), episode("arith-test-00099", 7), episode("deepcoder-lcbv5-train-01234", 3)];
    const page = await open({ kind: "run", run: run(episodes), live: null }, "ids", "tasks");
    await expect.poll(() => page.locator("#task-rows .row").count()).toBe(3);
    const cells = await page.locator("#task-rows .row").evaluateAll((rows) =>
      rows.map((row) => {
        const cell = row.querySelector(".cell") as HTMLElement;
        return { text: cell.textContent, cut: cell.scrollWidth > cell.clientWidth };
      }),
    );
    expect(cells).toEqual([
      { text: "arith-test-00002:0", cut: false },
      { text: "arith-test-00099:7", cut: false },
      { text: "deepcoder-lcbv5-train-01234:3", cut: false },
    ]);
    await page.close();
  });

  it("sorts the compare page's per-task table by task id", async () => {
    const a = run([episode("t10", 0), episode("t2", 0, false), episode("t1", 0)]);
    const b = run([episode("t2", 0), episode("t10", 0, false), episode("t1", 0)], [], "runs/b");
    const page = await open({ kind: "compare", compare: compareRuns(a, b, { force: false }) }, "compare", "");
    await expect.poll(() => page.locator("#compare-tasks tbody tr").count()).toBe(3);
    const tasks = await page.locator("#compare-tasks tbody tr td:first-child").allTextContents();
    expect(tasks).toEqual(["t1", "t2", "t10"]);
    await page.close();
  });
});
