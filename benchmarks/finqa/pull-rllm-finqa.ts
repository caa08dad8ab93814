/**
 * Downloads rLLM/finqa: the dataset is one `data.tar.gz` on the Hugging Face hub (CSV questions and
 * JSON tables), not parquet, so it cannot be a HubDatasetSource; this fetches and unpacks it instead.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { InfraError } from "rllm-ts/core";
import { datasetDirectory, downloadDatasetFile, type PullManifest, type PullOptions } from "rllm-ts/datasets";
import { parseCsv } from "./parse-csv.js";

/** The hub repo and file rLLM's prepare_finqa_data.py downloads. */
export const rllmFinqaRepo = "rLLM/finqa";
const archiveFile = "data.tar.gz";

/** The folder holding `<split>_finqa.csv` and `company_tables/` once pulled (the usual dataset cache folder). */
export function rllmFinqaFolder(home: string): string {
  return datasetDirectory(home, "finqa");
}

/**
 * Fetches the archive (HF_ENDPOINT selects a mirror), unpacks the folder that holds test_finqa.csv
 * into `rllmFinqaFolder(home)`, and writes the same manifest as a parquet pull. A failed download names the URL and
 * points to `bundledSample`, which works offline.
 */
export async function pullRllmFinqa(options: PullOptions, bundledSample?: string): Promise<PullManifest> {
  const endpoint = (options.endpoint ?? process.env.HF_ENDPOINT ?? "https://huggingface.co").replace(/\/$/, "");
  const url = `${endpoint}/datasets/${rllmFinqaRepo}/resolve/main/${archiveFile}`;
  const archive = await downloadDatasetFile(url, { name: "finqa", bundledSample }, options);
  const entries = readTarEntries(gunzipSync(Buffer.from(archive)));
  const marker = entries.find((entry) => path.posix.basename(entry.name) === "test_finqa.csv");
  if (!marker) throw new InfraError(`${url}: the archive has no test_finqa.csv`);
  const root = path.posix.dirname(marker.name);
  const folder = rllmFinqaFolder(options.home);
  const partial = `${folder}.partial`;
  rmSync(partial, { recursive: true, force: true });
  for (const entry of entries) {
    const relative = root === "." ? entry.name : entry.name.startsWith(`${root}/`) ? entry.name.slice(root.length + 1) : undefined;
    if (relative === undefined || relative === "") continue;
    const target = path.resolve(partial, relative);
    // An entry may not escape the folder (absolute names, "..").
    if (!target.startsWith(path.resolve(partial) + path.sep)) throw new InfraError(`${url}: unsafe path in archive: ${entry.name}`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, entry.content);
  }
  if (existsSync(folder)) rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
  const manifest: PullManifest = { repo: rllmFinqaRepo, pulledAt: new Date().toISOString(), splits: {} };
  for (const name of readdirSync(folder).filter((file) => file.endsWith("_finqa.csv")).sort()) {
    // Records minus the header row.
    const rows = parseCsv(readFileSync(path.join(folder, name), "utf8")).length - 1;
    manifest.splits[name.replace(/_finqa\.csv$/, "")] = { rows, files: [archiveFile] };
    options.onFile?.(name, rows);
  }
  writeFileSync(path.join(folder, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
}

interface TarEntry {
  name: string;
  content: Buffer;
}

/** Regular files of a ustar/GNU/pax tar archive (long names through GNU "L" and pax "path" records). */
export function readTarEntries(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(header[156] || 48);
    const prefix = field(header, 345, 155);
    const content = archive.subarray(offset + 512, offset + 512 + size);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    if (type === "L") longName = content.toString("utf8").replace(/\0+$/, "");
    else if (type === "x") longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(content.toString("utf8"))?.[1];
    else if (type === "0" || type === "7") entries.push({ name: name.replace(/^\.\//, ""), content: Buffer.from(content) });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

function field(header: Buffer, start: number, length: number): string {
  const bytes = header.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? length : end).toString("utf8");
}
