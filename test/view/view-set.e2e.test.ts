// `rllm view <set-folder>`: the comparison table of an eval set made by the real CLI against a scripted server,
// opened in Debian's Chromium from the file, with a link to each cell's report that opens that cell's page.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launchChromium, openWatchedPage } from "../helpers/report-browser.js";
import { runCli } from "../helpers/run-cli.js";
import { viewAction } from "../../src/cli/commands/view.js";
import { InputError } from "../../src/core/errors/input-error.js";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const answers = new Map(
  readFileSync(new URL("../../benchmarks/qa/sample.jsonl", import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { question: string; ground_truth: string })
    .map((row) => [row.question, row.ground_truth]),
);
/** Screenshots land here (kept out of git); docs/images holds the ones the docs show. */
const screenshots = fileURLToPath(new URL("../../test-results/view", import.meta.url));
const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-view-set-"));
const set = path.join(directory, "set");
let server: ScriptedServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} not found: install Debian's chromium (apt-get install chromium), as .ci/run does`);
  mkdirSync(screenshots, { recursive: true });
  // The "knowing" model answers every qa question; "guessing" never does.
  server = await startScriptedServer((body) => ({ text: body.model === "knowing" ? `\\boxed{${answers.get(lastUserText(body)) ?? "0"}}` : "\\boxed{nothing}" }));
  const config = path.join(directory, "evalset.yaml");
  const prices = "prices: { input: 1000, output: 2000 }";
  writeFileSync(
    config,
    [
      "concurrency: 4",
      "models:",
      `  - { name: knowing, baseUrl: "${server.url}", model: knowing, sampling: { temperature: 0 }, ${prices} }`,
      `  - { name: guessing, baseUrl: "${server.url}", model: guessing, sampling: { temperature: 0 }, ${prices} }`,
      "benchmarks:",
      "  - { benchmark: qa, limit: 3, attempts: 2 }",
    ].join("\n"),
  );
  const made = await runCli(["eval", "--config", config, "--out", set]);
  if (made.code !== 0) throw new Error(`rllm eval --config exited ${made.code}:\n${made.stderr}`);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("rllm view <set-folder> in Chromium", () => {
  it("shows the comparison table of set-summary.json and links each cell to its run report", async () => {
    const result = await runCli(["view", set]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/report → .*report\.html .*eval set of 2 cells, 2 cell reports/);
    expect(existsSync(path.join(set, "knowing__qa", "report.html"))).toBe(true);

    const watched = await openWatchedPage(browser);
    await watched.page.goto(pathToFileURL(path.join(set, "report.html")).href);
    const rows = watched.page.locator("#set-table tbody tr");
    await expect.poll(() => rows.count()).toBe(2);
    const cells = (row: number) => rows.nth(row).locator("td").allTextContents();
    const summary = JSON.parse(readFileSync(path.join(set, "set-summary.json"), "utf8"));
    const cost = (row: number) => `$${summary.cells[row].cost.toFixed(4)}`;
    expect(await cells(0)).toEqual(["knowing", "qa", "100.0% ± 0.0% (6)", "pass@2 100.0%", cost(0), "complete", "knowing__qa"]);
    expect(await cells(1)).toEqual(["guessing", "qa", "0.0% ± 0.0% (6)", "pass@2 0.0%", cost(1), "complete", "guessing__qa"]);
    expect(await watched.page.locator("#set-table thead th").allTextContents()).toEqual(["model", "benchmark", "accuracy ± stderr (n)", "pass@k", "cost", "status", "report"]);

    await watched.page.screenshot({ path: path.join(screenshots, "view-set.png") });

    // The link opens the cell's own report.
    const link = rows.nth(1).locator("a");
    expect(await link.getAttribute("href")).toBe("guessing__qa/report.html");
    await link.click();
    // The report's shell names its first page in the hash once its script has run (report-shell.js), so the URL settles on
    // report.html#summary; waiting for that state, not for the moment before it, is what makes this check race-free.
    await expect.poll(() => watched.page.url(), { timeout: 15_000 }).toMatch(/guessing__qa\/report\.html#summary$/);
    await expect.poll(() => watched.page.locator("#summary-figures").textContent(), { timeout: 15_000 }).toContain("0.0% ± 0.0%");
    expect(watched.errors).toEqual([]);
    expect(watched.requests.filter((url) => !url.startsWith("file://"))).toEqual([]);
    await watched.page.close();
  });

  it("refuses --serve on a set folder and a set that has not finished, saying what to do", async () => {
    // In process: the refusals are input errors thrown before anything is written or served.
    const flags = { serve: true, port: 0, host: "127.0.0.1" };
    await expect(viewAction(flags, [set])).rejects.toThrow(InputError);
    await expect(viewAction(flags, [set])).rejects.toThrow("serve a cell's folder");
    rmSync(path.join(set, "set-summary.json"));
    await expect(viewAction({ ...flags, serve: false }, [set])).rejects.toThrow(/set-summary\.json not found: the eval set has not finished .*--resume/);
  });
});
