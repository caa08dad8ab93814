/**
 * The supervisor that runs inside an episode's bwrap sandbox, as JavaScript source. It reads one JSON
 * request per line on stdin and answers one JSON line per command on stdout:
 * - `{type: "exec", id, command, shell, env, cwd, timeoutMs, outputBytes}` runs `sh -c '… <shell> -c "$1" …'` in a
 *   new session (so a new process group) with exactly `env` and `cwd`; the reply is `{id, exitCode, stdout, stderr,
 *   timedOut, truncated}`; a killed command's reply comes once no process of its group is left.
 * - `{type: "kill", id}` kills that command's process group (SIGKILL), as does its timeout.
 * A command ends when its shell exits, not when its output pipes close: a background server it started keeps the
 * pipes open and keeps running. So that the reply still holds everything the shell wrote, the wrapper prints a nonce
 * (given on its stdin) on stdout and stderr after the command: once both nonces and the exit are seen, the output is
 * complete; what a background process writes later is drained and dropped. The host writes this source to a file
 * mounted read-only at /run/rllm/supervisor.js.
 *
 * Node, not python3: the sandbox shows the host's system, and the host's node (the process running rllm) is the one
 * interpreter certain to be there; tasks whose system lacks python3 still get a persistent sandbox. Its cost is about
 * 40 MiB of the task's memory cap and one node start-up per episode.
 */

/** The supervisor's source: a CommonJS script, run by node from a read-only file inside the sandbox. */
export const supervisorProgram = String.raw`
"use strict";
const { spawn } = require("node:child_process");
const { randomBytes } = require("node:crypto");
const readline = require("node:readline");
const groups = new Map();
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const killGroup = (pid) => {
  try { process.kill(-pid, "SIGKILL"); } catch {}
};
// Calls done once no process of the group is left (or after 2 s), so a killed command's reply means its group is gone.
function whenGroupGone(pid, done, waited = 0) {
  try {
    process.kill(-pid, 0);
  } catch {
    return done();
  }
  if (waited >= 2000) return done();
  setTimeout(() => whenGroupGone(pid, done, waited + 5), 5);
}
// The first capBytes bytes of a stream, and where the nonce first appears in it (the command's end).
function collect(stream, capBytes, nonce, onMarker) {
  const kept = [];
  let keptBytes = 0;
  let total = 0;
  let tail = "";
  const state = { markerAt: -1, text() {
    const end = state.markerAt >= 0 ? Math.min(state.markerAt, keptBytes) : keptBytes;
    return Buffer.concat(kept).subarray(0, end).toString("utf8");
  }, truncated() { return (state.markerAt >= 0 ? state.markerAt : total) > capBytes; } };
  stream.on("data", (chunk) => {
    if (state.markerAt >= 0) return;
    if (keptBytes < capBytes) {
      const piece = chunk.subarray(0, capBytes - keptBytes);
      kept.push(piece);
      keptBytes += piece.length;
    }
    const window = tail + chunk.toString("latin1");
    const at = window.indexOf(nonce);
    if (at >= 0) {
      state.markerAt = total - tail.length + at;
      onMarker();
    }
    total += chunk.length;
    tail = window.slice(-(nonce.length - 1));
  });
  stream.on("error", () => {});
  return state;
}
function run(request) {
  const nonce = "rllm-end-" + randomBytes(12).toString("hex");
  // The nonce comes on stdin, not argv or env: ps and printenv would show it, and it would end the output early.
  const wrapper = 'IFS= read -r nonce; "$1" -c "$2" < /dev/null; status=$?; printf %s "$nonce"; printf %s "$nonce" >&2; exit $status';
  let child;
  try {
    child = spawn("/bin/sh", ["-c", wrapper, "rllm-command", request.shell, request.command], { env: request.env, cwd: request.cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
    child.stdin.on("error", () => {});
    child.stdin.end(nonce + "\n");
  } catch (error) {
    send({ id: request.id, exitCode: 127, stdout: "", stderr: "cannot start the command: " + error.message + "\n", timedOut: false, truncated: false });
    return;
  }
  let markers = 0;
  let exit;
  let timedOut = false;
  let isDone = false;
  const finish = () => {
    if (isDone) return;
    isDone = true;
    clearTimeout(timer);
    groups.delete(request.id);
    // The pipes stay open and drained: a background process still writing to them must not die of SIGPIPE.
    send({ id: request.id, exitCode: exit.code, stdout: stdout.text(), stderr: stderr.text(), timedOut, truncated: stdout.truncated() || stderr.truncated() });
  };
  let isKilled = false;
  const end = () => (isKilled ? whenGroupGone(child.pid, finish) : finish());
  const settle = () => {
    if (exit !== undefined && (markers === 2 || exit.signal !== null)) end();
  };
  const stdout = collect(child.stdout, request.outputBytes, nonce, () => { markers++; settle(); });
  const stderr = collect(child.stderr, request.outputBytes, nonce, () => { markers++; settle(); });
  const kill = () => { isKilled = true; killGroup(child.pid); };
  const timer = setTimeout(() => { timedOut = true; kill(); }, request.timeoutMs);
  groups.set(request.id, kill);
  child.on("error", (error) => {
    exit = { code: 127, signal: "error" };
    stderr.text = () => "cannot start the command in " + request.cwd + ": " + error.message + "\n";
    finish();
  });
  child.on("exit", (code, signal) => { exit = { code, signal }; settle(); });
  // Exited and both pipes closed: every writer is gone, nothing more can come.
  child.on("close", () => { if (exit !== undefined) end(); });
}
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  if (request.type === "kill") {
    groups.get(request.id)?.();
  } else run(request);
});
// The host closed the pipe: it is gone or stopping the sandbox.
process.stdin.on("end", () => process.exit(0));
`;
