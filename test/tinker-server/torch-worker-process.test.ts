import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TorchWorkerProcess } from "../../src/tinker-server/torch-worker-process.js";

// Stand-ins for `python worker.py`: shell scripts (the script path argument is ignored) that speak the worker's wire
// format, one JSON answer per stdout line, with the faults a real worker or a library inside it can produce.
const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-torch-worker-test-"));
function fakePython(name: string, body: string): string {
  const file = path.join(directory, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const workers: TorchWorkerProcess[] = [];
function start(python: string, options?: { closeGraceMs?: number }): TorchWorkerProcess {
  const worker = new TorchWorkerProcess(python, options);
  workers.push(worker);
  return worker;
}
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close();
});

describe("TorchWorkerProcess", () => {
  it("answers requests in order", async () => {
    const worker = start(fakePython("echo-ids", `while read line; do id=$(echo "$line" | sed 's/.*"id":\\([0-9]*\\).*/\\1/'); echo "{\\"id\\":$id,\\"result\\":$id}"; done`));
    expect(await Promise.all([worker.request("a"), worker.request("b")])).toEqual([1, 2]);
  });

  it("takes a line that is not JSON on its stdout (a native library's print) as log output, not as a crash", async () => {
    const worker = start(fakePython("noisy", `read line; echo "ggml: loading model"; echo '{"id":1,"result":"done"}'; read line`));
    await expect(worker.request("load")).resolves.toBe("done");
  });

  it("fails a request whose answer has the wrong shape, with the answer in the message", async () => {
    const worker = start(fakePython("bad-shape", `read line; echo '{"id":1,"error":"boom","category":"nobody"}'; read line`));
    await expect(worker.request("load")).rejects.toThrow(/unreadable answer.*nobody/);
  });

  it("fails the requests of a worker that exits at once, without an unhandled write error", async () => {
    const worker = start(fakePython("exits", "echo 'no torch here' >&2; exit 3"));
    const failures = Array.from({ length: 20 }, (_, index) => worker.request(`operation-${index}`).catch((error: Error) => error.message));
    for (const message of await Promise.all(failures)) expect(message).toMatch(/torch worker .* exited \(code 3\)/);
  });

  it("close ends a worker that does not leave on end of input", async () => {
    const worker = start(fakePython("stubborn", `trap '' TERM; exec sleep 600`), { closeGraceMs: 200 });
    await worker.close();
    await expect(worker.request("load")).rejects.toThrow(/exited/);
  });
});
