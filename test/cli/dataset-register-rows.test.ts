// `rllm dataset register` reports every bad row of the file in one error: lines that are not JSON, rows the schema
// refuses and repeated ids together, so one edit of the file fixes them all.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerDataset } from "../../src/cli/commands/dataset.js";

const home = mkdtempSync(path.join(os.tmpdir(), "rllm-register-"));
const previousHome = process.env.RLLM_HOME;
beforeAll(() => {
  process.env.RLLM_HOME = home;
});
afterAll(() => {
  if (previousHome === undefined) delete process.env.RLLM_HOME;
  else process.env.RLLM_HOME = previousHome;
  rmSync(home, { recursive: true, force: true });
});

describe("rllm dataset register", () => {
  it("names the unreadable line, the bad field and the repeated ids of one file at once, and registers nothing", async () => {
    const file = path.join(home, "rows.jsonl");
    const row = (id: string) => JSON.stringify({ id, question: "1+1", ground_truth: "2" });
    writeFileSync(file, [row("a"), "{not json", row("a"), JSON.stringify({ id: "c", ground_truth: "2" }), row("b"), row("b")].join("\n") + "\n");
    const message = await registerDataset({ file, split: "train", force: false }, ["mine"]).then(
      () => "registered",
      (error: Error) => error.message,
    );
    expect(message).toContain(`4 bad row(s) in ${file}:\n${file}:2: not valid JSON`);
    expect(message).toContain(`${file}:3: field "id": duplicate id "a" (first used on line 1)`);
    expect(message).toContain(`${file}:4: field "question"`);
    expect(message).toContain(`${file}:6: field "id": duplicate id "b" (first used on line 5)`);
    expect(existsSync(path.join(home, "datasets", "mine"))).toBe(false);
  });

  it("names repeated ids of a JSON array by row", async () => {
    const file = path.join(home, "rows.json");
    writeFileSync(file, JSON.stringify(["a", "b", "a"].map((id) => ({ id, question: "q", ground_truth: "1" }))));
    await expect(registerDataset({ file, split: "train", force: false }, ["mine"])).rejects.toThrow(`${file}: row 3: field "id": duplicate id "a" (first used on row 1)`);
  });
});
