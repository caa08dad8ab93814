/**
 * The bwrap terminal sandbox against hostile commands: reading and writing outside it, network, a fork bomb, a memory
 * bomb, a daemon that outlives its command, a command past its timeout, the reward file; and its persistence (a
 * background process lives on into the next command, until killAll). One sandbox is shared (start-up is the slow
 * part); each check leaves it usable for the next.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBwrapEnvironment } from "../../../src/sandbox/local/bwrap-environment.js";
import type { SandboxEnvironment } from "../../../src/core/sandbox-environment.js";

/** Host processes whose command line contains `marker`. */
function hostProcesses(marker: string): string[] {
  return execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

let sandbox: SandboxEnvironment;
beforeAll(() => {
  sandbox = createBwrapEnvironment({ memoryMb: 256, processes: 64, outputBytes: 64 * 1024 });
});
afterAll(async () => {
  await sandbox.close();
});

describe("bwrap sandbox", () => {
  it("keeps files between commands in the workdir, /tmp and /logs/agent", async () => {
    await sandbox.exec("echo kept > note.txt && echo tmp > /tmp/t && echo log > /logs/agent/l");
    expect((await sandbox.exec("cat note.txt /tmp/t /logs/agent/l")).stdout).toBe("kept\ntmp\nlog\n");
  });

  it("cannot read the host's files outside the read-only system", async () => {
    const result = await sandbox.exec(`cat ${process.cwd()}/package.json; ls /root /home; cat /etc/shadow`);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/No such file or directory|Permission denied/);
  });

  it("cannot write outside its own folders", async () => {
    const result = await sandbox.exec("touch /usr/rllm-escape /etc/rllm-escape /rllm-escape; echo $?");
    expect(result.stdout.trim()).not.toBe("0");
    expect(existsSync("/usr/rllm-escape") || existsSync("/etc/rllm-escape")).toBe(false);
  });

  it("has no network unless allowed, and has it when allowed", async () => {
    const connections: number[] = [];
    const server = net.createServer((socket) => {
      connections.push(1);
      socket.on("error", () => {}); // the probe closes with data unread: a reset, expected
      socket.end("hello\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const probe = `python3 -c "import socket; print(socket.create_connection(('127.0.0.1', ${port}), 2).recv(5))"`;
    try {
      const denied = await sandbox.exec(probe);
      expect(denied.exitCode).not.toBe(0);
      expect(connections).toHaveLength(0);
      const open = createBwrapEnvironment({ allowNetwork: true });
      try {
        expect((await open.exec(probe)).stdout).toContain("hello");
      } finally {
        await open.close();
      }
    } finally {
      server.close();
    }
  });

  it("contains a fork bomb, and killAll clears it", async () => {
    // Counted with shell builtins only: under the cap, a counting process could not be forked.
    const bomb = await sandbox.exec("bwrapbomb() { bwrapbomb | bwrapbomb & }; bwrapbomb; sleep 1; n=0; for entry in /proc/[0-9]*; do n=$((n + 1)); done; echo $n", { timeoutMs: 5000 });
    if (!bomb.timedOut) expect(Number(bomb.stdout.trim().split("\n").at(-1))).toBeLessThanOrEqual(64 + 8);
    // Its processes outlive the command, as any background process does, until the sandbox's processes are killed.
    await sandbox.killAll();
    expect(hostProcesses("bwrapbomb")).toEqual([]);
    expect((await sandbox.exec("echo alive")).stdout).toBe("alive\n");
  });

  it("holds a busy loop to the task's CPU share", async () => {
    const limited = createBwrapEnvironment({ cpus: 0.2 });
    try {
      // CPU seconds per wall second of a one-second busy loop: about 0.2 under the quota, whatever the load.
      const result = await limited.exec('python3 -c "import time\nt = time.time(); c = time.process_time()\nwhile time.time() - t < 1: pass\nprint((time.process_time() - c) / (time.time() - t))"');
      expect(Number(result.stdout)).toBeLessThan(0.3);
    } finally {
      await limited.close();
    }
  });

  it("kills a memory bomb at the memory cap and stays usable", async () => {
    const bomb = await sandbox.exec('python3 -c "x = bytearray(700 * 1024 * 1024); print(len(x))"');
    expect(bomb.exitCode).not.toBe(0);
    expect(bomb.stdout).toBe("");
    expect((await sandbox.exec("echo alive")).stdout).toBe("alive\n");
  });

  it("keeps a command's background processes for the next command, and ends them, a setsid daemon too, at killAll", async () => {
    const started = await sandbox.exec("sleep 71242 & echo $! > /tmp/sleeper; setsid nohup sleep 71243 > /dev/null 2>&1 & echo started");
    expect(started.stdout).toBe("started\n");
    const next = await sandbox.exec("kill -0 $(cat /tmp/sleeper) && echo alive; ps -eo args");
    expect(next.stdout).toMatch(/^alive\n/);
    expect(next.stdout).toContain("sleep 71243");
    expect(hostProcesses("sleep 71242")).toHaveLength(1);
    await sandbox.killAll();
    expect(hostProcesses("sleep 7124")).toEqual([]);
    expect((await sandbox.exec("cat /tmp/sleeper > /dev/null && echo sleepers=$(pgrep -c -x sleep)")).stdout).toBe("sleepers=0\n");
  });

  it("returns when the command's shell exits, with all its output, while a background process keeps writing to its pipes", async () => {
    const result = await sandbox.exec("(while true; do echo tick; sleep 0.1; done) & echo $! > /tmp/ticker; for line in 1 2 3; do echo out-$line; echo err-$line >&2; done; exit 7");
    expect(result).toMatchObject({ exitCode: 7, stderr: "err-1\nerr-2\nerr-3\n", timedOut: false });
    expect(result.stdout.replaceAll("tick\n", "")).toBe("out-1\nout-2\nout-3\n");
    // Still writing to the old command's stdout, it lives on (its writes are drained, not a broken pipe).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await sandbox.exec("kill -0 $(cat /tmp/ticker) && echo ticking")).stdout).toBe("ticking\n");
    await sandbox.killAll();
  });

  it("kills the whole process group of a command past its timeout", async () => {
    const result = await sandbox.exec("sleep 71343 & sleep 71343", { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(hostProcesses("sleep 71343")).toEqual([]);
  });

  it("caps a command's output", async () => {
    const result = await sandbox.exec("head -c 200000 /dev/zero | tr '\\0' x");
    expect(result.truncated).toBe(true);
    expect(result.stdout).toHaveLength(64 * 1024);
  });

  it("never lets the agent see the tests or write the reward file, and gives the verifier no more of the host than the agent", async () => {
    const result = await sandbox.exec("mkdir -p /logs/verifier; echo 1 > /logs/verifier/reward.txt; (sleep 1; echo 1 > /logs/verifier/reward.txt) & sleep 71545 & echo done");
    expect(result.stderr).toMatch(/Permission denied|No such file|Read-only/);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await sandbox.readText("/logs/verifier/reward.txt")).toBeUndefined();
    expect((await sandbox.exec("ls /tests")).stderr).toMatch(/No such file/);
    // The verifier's sandbox starts only once the agent's is gone: no agent process runs beside it.
    const verifier = await sandbox.exec("echo 0.5 > /logs/verifier/reward.txt && cat note.txt && ls -d /tests && echo sleepers=$(pgrep -c -x sleep); cat /etc/shadow", { role: "verifier" });
    expect(verifier.stdout).toBe("kept\n/tests\nsleepers=0\n");
    expect(hostProcesses("sleep 71545")).toEqual([]);
    expect(verifier.stderr).toMatch(/Permission denied/); // test code may run the agent's code: it gets no more than the agent
    expect(await sandbox.readText("/logs/verifier/reward.txt")).toBe("0.5\n");
  });

  it("fails commands with a clear error, never a hang, once its supervisor is killed", async () => {
    const own = createBwrapEnvironment();
    try {
      await own.exec("kill -KILL $(ps -o ppid= -p $PPID)").catch(() => undefined);
      await expect(own.exec("echo unreachable")).rejects.toThrow(/supervisor died/);
      expect(own.isAlive()).toBe(false);
    } finally {
      await own.close();
    }
  });

  it("leaves no process, a setsid daemon included, after close", async () => {
    const own = createBwrapEnvironment();
    expect((await own.exec("setsid nohup sleep 71445 > /dev/null 2>&1 & echo started")).stdout).toBe("started\n");
    const running = own.exec("sleep 71444");
    expect(hostProcesses("sleep 71445")).toHaveLength(1);
    await own.close();
    await running;
    expect(hostProcesses("sleep 7144")).toEqual([]);
    expect(own.isAlive()).toBe(false);
    await expect(own.exec("true")).rejects.toThrow(/closed/);
  });
});
