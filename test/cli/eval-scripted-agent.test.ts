// `rllm eval <terminal tasks> --agent oracle|nop` calls no model: no embedded model is started or announced, the run
// and its report are labelled with the agent (not "tiny"), and the report's question column shows the task's
// instruction (issue 35, item 8). Runs the bundled terminal sample on bwrap.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { renderReport } from "../../src/view/render-report.js";
import { readRunDirectory } from "../../src/view/read-run-directory.js";
import { launchChromium, openWatchedPage } from "../helpers/report-browser.js";
import { runCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-scripted-agent-"));
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("rllm eval --agent oracle", () => {
  it("starts no model, labels the run with the agent and fills the report's question column", async () => {
    const out = path.join(directory, "oracle");
    const result = await runCli(["eval", "terminal-sample", "--agent", "oracle", "--limit", "1", "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("embedded tiny model");
    expect(result.stdout).toContain("· agent oracle");
    expect(result.stdout).not.toContain("· tiny");
    expect(JSON.parse(readFileSync(path.join(out, "config.json"), "utf8"))).toMatchObject({ model: null, agent: "oracle" });

    const page = path.join(directory, "report.html");
    const { run } = readRunDirectory(out);
    writeFileSync(page, renderReport({ kind: "run", run, live: null }));
    const watched = await openWatchedPage(browser);
    await watched.page.goto(`${pathToFileURL(page).href}#tasks`);
    await expect.poll(() => watched.page.locator("header h1").textContent()).toContain("terminal-sample · agent oracle");
    await expect.poll(() => watched.page.locator("#task-rows .row").count()).toBe(1);
    // Columns: episode, verdict, value, question.
    const question = await watched.page.locator("#task-rows .row .cell").nth(3).textContent();
    const instruction = run.episodes[0]!.artifacts.instruction as string;
    expect(instruction.length).toBeGreaterThan(10);
    expect(question).toBe(instruction.slice(0, 200));
    expect(watched.errors).toEqual([]);
    await watched.page.close();
  });
});
