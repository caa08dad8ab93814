// A fork server that breaks its protocol (issue #29): the job fails as the infrastructure's, the grader's process
// lives on (a throw inside the stream listener used to be an uncaught exception), and the next job gets a fresh sandbox.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SandboxSlot, type SlotJob } from "../../../src/sandbox/local/sandbox-slot.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-slot-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

// A stand-in fork server: ready, then per job one reply line. Its first start answers `reply`; later starts answer
// a proper done message (the marker file tells them apart).
const fakeForkServer = `
import json, os, sys
marker = sys.argv[1]
first = not os.path.exists(marker)
open(marker, "a").close()
print(json.dumps({"type": "ready", "python": "3", "error": None}), flush=True)
for line in sys.stdin:
    if json.loads(line).get("stop"):
        continue
    if first:
        print(sys.argv[2], flush=True)
    else:
        print(json.dumps({"type": "done", "exit_code": 0, "signal": None, "timed_out": False, "output_exceeded": False, "stopped": False,
                          "wall_ms": 1, "stderr": "", "checker_stderr": "", "stdout_bytes": 2}) + "\\n" + "ok", end="", flush=True)
`;
const job: SlotJob = { mode: "stdio", program: "print(1)", idleMs: 5000, deadlineMs: 5000, cpuSeconds: 5, outputBytes: 1024, stderrBytes: 1024 };

function slotAnswering(name: string, reply: string): SandboxSlot {
  return new SandboxSlot({ file: "python3", args: ["-c", fakeForkServer, path.join(directory, name), reply], env: { PATH: process.env.PATH ?? "" } }, undefined);
}

describe("a fork server that breaks its protocol", () => {
  it.each([
    ["a line that is not JSON", "not json {", /fork server sent a line that is not JSON: not json \{/],
    ["a message of an unknown type", JSON.stringify({ type: "surprise" }), /fork server sent a malformed message/],
    ["a done message with a missing field", JSON.stringify({ type: "done", exit_code: 0 }), /fork server sent a malformed message/],
  ])("fails the job on %s and starts a fresh sandbox for the next", async (name, reply, reason) => {
    const slot = slotAnswering(name.replaceAll(" ", "-"), reply);
    try {
      await expect(slot.run(job, undefined)).rejects.toThrow(reason);
      const next = await slot.run(job, undefined);
      expect(next).toMatchObject({ exitCode: 0, sandboxFailure: null });
      expect(next.stdout.toString()).toBe("ok");
    } finally {
      await slot.close();
    }
  });
});
