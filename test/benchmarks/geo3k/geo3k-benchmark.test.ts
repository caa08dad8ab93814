import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { geo3kBenchmark } from "../../../benchmarks/geo3k/index.js";
import { geo3kInstruction } from "../../../benchmarks/geo3k/geo3k-instruction.js";
import { geo3kHubRow } from "../../../benchmarks/geo3k/geo3k-row.js";

const home = mkdtempSync(path.join(os.tmpdir(), "rllm-geo3k-"));
const png = "data:image/png;base64,AAA";

describe("geo3k benchmark", () => {
  it("loads the bundled 10-problem sample with one diagram each and the answer as ground truth", async () => {
    const tasks = await geo3kBenchmark.loadTasks({ home });
    expect(tasks).toHaveLength(10);
    const first = tasks[0]!;
    expect(first.id).toBe("11");
    expect(first.metadata).toMatchObject({ ground_truth: "80", answer: "80", choices: ["30", "40", "60", "80"] });
    expect(Array.isArray(first.instruction)).toBe(true);
    const blocks = first.instruction as Exclude<typeof first.instruction, string>;
    expect(blocks[0]).toMatchObject({ type: "image_url" });
    expect(blocks[0]!.type === "image_url" && blocks[0]!.image_url.url.startsWith("data:image/png;base64,iVBORw0KGgo")).toBe(true);
    expect(blocks[1]).toMatchObject({ type: "text" });
    expect(tasks.find((task) => task.id === "15")?.metadata.ground_truth).toBe("5 \\sqrt { 3 }");
  });

  it("refuses a split that is neither pulled nor bundled", async () => {
    await expect(geo3kBenchmark.loadTasks({ home, split: "train" })).rejects.toThrow(/rllm dataset pull geo3k/);
  });

  it("reads a --data file and names the line and field of a bad row", async () => {
    const file = path.join(home, "rows.jsonl");
    writeFileSync(file, `${JSON.stringify({ id: 1, problem: "<image>Find x.", answer: 13, images: [png] })}\n${JSON.stringify({ id: 2, problem: "Find y." })}\n`);
    await expect(geo3kBenchmark.loadTasks({ home, dataFile: file })).rejects.toThrow(`${file}:2: field "answer"`);
    writeFileSync(file, `${JSON.stringify({ id: 1, problem: "<image>Find x.", answer: 13, images: [png] })}\n`);
    const [task] = await geo3kBenchmark.loadTasks({ home, dataFile: file });
    expect(task).toMatchObject({ id: "1", metadata: { ground_truth: "13" } });
  });

  it("points at the hiyouga/geometry3k parquet files and turns image bytes into data URIs", () => {
    expect(geo3kBenchmark.hub?.repo).toBe("hiyouga/geometry3k");
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const row = geo3kHubRow({ images: [{ bytes, path: null }], problem: "<image>Find x.", answer: "27" }, 4, "test");
    expect(row).toEqual({ id: "test-4", problem: "<image>Find x.", answer: "27", images: [`data:image/jpeg;base64,${Buffer.from(bytes).toString("base64")}`] });
  });
});

describe("geo3kInstruction", () => {
  it("puts each image at its <image> marker, between text blocks", () => {
    expect(geo3kInstruction("Look <image> and <image> then answer.", ["data:a", "data:b"])).toEqual([
      { type: "text", text: "Look" },
      { type: "image_url", image_url: { url: "data:a" } },
      { type: "text", text: "and" },
      { type: "image_url", image_url: { url: "data:b" } },
      { type: "text", text: "then answer." },
    ]);
  });

  it("puts images that no marker refers to first, and turns bare base64 into a data URI", () => {
    const blocks = geo3kInstruction("Find x.", ["iVBORw0KGgoAAAANSUhEUg=="]);
    expect(blocks).toEqual([
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==" } },
      { type: "text", text: "Find x." },
    ]);
  });
});
