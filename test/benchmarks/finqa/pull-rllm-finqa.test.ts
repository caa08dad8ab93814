// Pulling rLLM/finqa: the data.tar.gz is fetched (here from an injected fetch), unpacked safely, and then used by the benchmark.
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadFinqaTasks } from "../../../benchmarks/finqa/finqa-benchmark.js";
import { pullRllmFinqa, readTarEntries } from "../../../benchmarks/finqa/pull-rllm-finqa.js";
import { readPullManifest } from "../../../src/datasets/dataset-cache.js";

/** A minimal ustar archive of `files` (name → text), as `tar -czf` would write it. */
function tarGz(files: Record<string, string>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, text] of Object.entries(files)) {
    const content = Buffer.from(text);
    const header = Buffer.alloc(512);
    header.write(name, 0, 100);
    header.write("0000644\0", 100);
    header.write(content.length.toString(8).padStart(11, "0") + "\0", 124);
    header.write("00000000000\0", 136);
    header.write("        ", 148);
    header.write("0", 156);
    header.write("ustar\u000000", 257);
    const checksum = header.reduce((sum, byte) => sum + byte, 0);
    header.write(checksum.toString(8).padStart(6, "0") + "\0 ", 148);
    blocks.push(header, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

const csv = "id,user_query,answer,company,table_name\nq1,What was revenue?,10,acme,['sales']\n";
const tables = JSON.stringify({ sales: { table: JSON.stringify({ item: { 0: "revenue" }, 2023: { 0: 10 } }) } });
const fetchOf = (archive: Buffer, requested: string[]) => async (url: string) => {
  requested.push(url);
  return new Response(new Uint8Array(archive));
};

describe("pullRllmFinqa", () => {
  it("unpacks the folder holding test_finqa.csv into <home>/datasets/finqa, where loadTasks finds it", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "finqa-home-"));
    const requested: string[] = [];
    const archive = tarGz({ "data/test_finqa.csv": csv, "data/company_tables/acme/tables.json": tables, "README.md": "not data" });
    const manifest = await pullRllmFinqa({ home, endpoint: "https://mirror.example", fetchFile: fetchOf(archive, requested) });
    expect(requested).toEqual(["https://mirror.example/datasets/rLLM/finqa/resolve/main/data.tar.gz"]);
    expect(manifest.splits).toEqual({ test: { rows: 1, files: ["data.tar.gz"] } });
    expect(readPullManifest(home, "finqa")?.repo).toBe("rLLM/finqa");
    expect(existsSync(path.join(home, "datasets", "finqa", "README.md"))).toBe(false);
    const tasks = await loadFinqaTasks({ home });
    expect(tasks.map((task) => [task.id, task.metadata.ground_truth, task.metadata.expected_tables])).toEqual([["q1", "10", ["sales"]]]);
  });

  it("refuses an archive entry that would escape the dataset folder", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "finqa-home-"));
    const archive = tarGz({ "data/test_finqa.csv": csv, "data/../../escape.txt": "x" });
    await expect(pullRllmFinqa({ home, fetchFile: fetchOf(archive, []) })).rejects.toThrow(/unsafe path/);
    expect(existsSync(path.join(home, "datasets", "finqa"))).toBe(false);
  });

  it("reads GNU long names", () => {
    const longName = `data/company_tables/${"x".repeat(120)}/t.json`;
    // A GNU long-name record ("L", whose content is the next entry's name) followed by the real file.
    const longNameRecord = gunzipSync(tarGz({ "././@LongLink": longName }));
    longNameRecord.write("L", 156);
    const file = gunzipSync(tarGz({ short: "content" }));
    const entries = readTarEntries(Buffer.concat([longNameRecord.subarray(0, longNameRecord.length - 1024), file]));
    expect(entries.map((entry) => [entry.name, entry.content.toString()])).toEqual([[longName, "content"]]);
  });
});
