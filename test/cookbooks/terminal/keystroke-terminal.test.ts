/**
 * The keystroke terminal against a recording fake sandbox: tmux sends each keystroke string as one send-keys argument
 * and reports the history after the previous capture (or the screen, once the history no longer extends it); without
 * tmux each line runs as a plain command and terminal keys are skipped.
 */
import { describe, expect, it } from "vitest";
import { openKeystrokeTerminal } from "../../../cookbooks/terminal/keystroke-terminal.js";
import type { ExecOptions, ExecResult, SandboxEnvironment } from "../../../src/core/sandbox-environment.js";

const result = (stdout: string, exitCode = 0): ExecResult => ({ exitCode, stdout, stderr: "", timedOut: false, truncated: false, durationMs: 1 });

/** A sandbox whose commands answer from `answer` and are recorded with their env. */
function fakeSandbox(answer: (command: string) => ExecResult) {
  const calls: { command: string; env?: Record<string, string> }[] = [];
  const sandbox = {
    exec: async (command: string, options: ExecOptions = {}) => {
      calls.push({ command, ...(options.env ? { env: options.env } : {}) });
      return answer(command);
    },
  } as unknown as SandboxEnvironment;
  return { sandbox, calls };
}

describe("keystroke terminal", () => {
  it("sends keystrokes through tmux and shows only the history after the previous capture", async () => {
    const captures = ["agent@sandbox:/app$ ls\na.txt\nagent@sandbox:/app$ \n\n\n", "agent@sandbox:/app$ ls\na.txt\nagent@sandbox:/app$ cat a.txt\nhello\nagent@sandbox:/app$\n\n"];
    const { sandbox, calls } = fakeSandbox((command) => (command.includes("capture-pane") ? result(captures.shift()!) : result("")));
    const terminal = await openKeystrokeTerminal(sandbox);
    expect(terminal.kind).toBe("tmux");
    expect(await terminal.send([{ keystrokes: "ls\n", durationSec: 0 }])).toBe("Current Terminal Screen:\nagent@sandbox:/app$ ls\na.txt\nagent@sandbox:/app$");
    expect(await terminal.send([{ keystrokes: "cat a.txt\n", durationSec: 0 }, { keystrokes: "C-c", durationSec: 0 }])).toBe("New Terminal Output:\n cat a.txt\nhello\nagent@sandbox:/app$");
    expect(calls.filter((call) => call.command.includes("send-keys")).map((call) => call.env?.RLLM_KEYS)).toEqual(["ls\n", "cat a.txt\n", "C-c"]);
  });

  it("shows the screen alone when the history is too long to arrive whole", async () => {
    const { sandbox } = fakeSandbox((command) => {
      if (command.includes("capture-pane -p -J -S -")) return { ...result("line 1\nline 2\n"), truncated: true };
      return command.includes("capture-pane") ? result("agent@sandbox:/app$ \n") : result("");
    });
    const terminal = await openKeystrokeTerminal(sandbox);
    expect(await terminal.send([])).toBe("Current Terminal Screen:\nagent@sandbox:/app$");
    expect(await terminal.send([])).toBe("Current Terminal Screen:\nagent@sandbox:/app$");
  });

  it("sends long keystrokes in pieces tmux accepts, cut between whole characters", async () => {
    const { sandbox, calls } = fakeSandbox(() => result(""));
    const terminal = await openKeystrokeTerminal(sandbox);
    const text = `${"é".repeat(5000)}${"x".repeat(9000)}\n`;
    await terminal.send([{ keystrokes: text, durationSec: 0 }]);
    const sent = calls.filter((call) => call.command.includes("send-keys")).map((call) => call.env!.RLLM_KEYS!);
    expect(sent.map((piece) => Buffer.byteLength(piece))).toEqual([8000, 8000, 3001]);
    expect(sent.join("")).toBe(text);
  });

  it("shows the screen again when the history no longer extends the previous capture (a clear)", async () => {
    const captures = ["agent@sandbox:/app$ ls\na.txt\n", "agent@sandbox:/app$\n"];
    const { sandbox } = fakeSandbox((command) => (command.includes("capture-pane") ? result(captures.shift()!) : result("")));
    const terminal = await openKeystrokeTerminal(sandbox);
    await terminal.send([]);
    expect(await terminal.send([{ keystrokes: "clear\n", durationSec: 0 }])).toBe("Current Terminal Screen:\nagent@sandbox:/app$");
  });

  it("runs each line as a plain command and skips terminal keys when the sandbox has no tmux", async () => {
    const { sandbox, calls } = fakeSandbox((command) => (command.includes("tmux") ? result("", 127) : result(`ran ${command}\n`)));
    const terminal = await openKeystrokeTerminal(sandbox);
    expect(terminal.kind).toBe("plain");
    const screen = await terminal.send([{ keystrokes: "ls\n", durationSec: 5 }, { keystrokes: "C-c", durationSec: 0 }, { keystrokes: "\n", durationSec: 0 }]);
    expect(screen).toBe("New Terminal Output:\n$ ls\nran ls\n\n[exit code 0]\n[C-c is a terminal key; without tmux commands run one at a time, so it was skipped]");
    expect(calls.map((call) => call.command).slice(1)).toEqual(["ls"]);
  });
});
