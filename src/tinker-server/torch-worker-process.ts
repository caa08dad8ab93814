/**
 * The torch worker (torch-worker/worker.py) as a child process: one JSON request per line on its stdin, one answer per
 * line on its stdout, answered in order. A request the worker refuses fails with its category (user or server); a
 * worker that dies fails every request in flight with the end of its stderr. A stdout line that is not JSON (a native
 * library writing to file descriptor 1 past Python's sys.stdout) is log output, kept with stderr's tail.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { FutureFailure } from "./future-table.js";

/** The worker script; build-dist.js copies the folder beside the compiled module. */
export const TORCH_WORKER_SCRIPT = fileURLToPath(new URL("./torch-worker/worker.py", import.meta.url));

const AnswerSchema = z.union([
  z.object({ id: z.number(), result: z.unknown() }),
  z.object({ id: z.number(), error: z.string(), category: z.enum(["user", "server"]) }),
]);

export interface TorchWorkerOptions {
  /** How long close waits for the worker to leave after its stdin ends before killing it (default 5 s). */
  closeGraceMs?: number;
}

// Long enough for a worker to finish writing an adapter; a worker stuck in an operation must not hold the server's close.
const DEFAULT_CLOSE_GRACE_MS = 5000;

export class TorchWorkerProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private count = 0;
  private stderrTail = "";
  private exited: Error | undefined;
  private readonly closeGraceMs: number;

  /** Starts `python worker.py`. */
  constructor(python: string, options: TorchWorkerOptions = {}) {
    this.closeGraceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    // No .pyc files beside the worker: an installed package's folder may be read-only, and a packed one should stay clean.
    this.child = spawn(python, [TORCH_WORKER_SCRIPT], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
    this.child.stderr.on("data", (chunk: Buffer) => this.keepLog(chunk.toString()));
    // A write to a worker that has just died fails with EPIPE; the exit handler fails the requests with its stderr.
    this.child.stdin.on("error", () => {});
    createInterface({ input: this.child.stdout }).on("line", (line) => this.answer(line));
    const fail = (why: string) => {
      this.exited = new FutureFailure(`the torch worker (${python}) ${why}: ${this.stderrTail.trim().split("\n").slice(-6).join("\n")}`, "server");
      for (const { reject } of this.waiting.values()) reject(this.exited);
      this.waiting.clear();
    };
    this.child.on("error", (error) => fail(`could not start (${error.message})`));
    this.child.on("exit", (code, signal) => fail(`exited (${signal ?? `code ${code}`})`));
  }

  /** Runs one operation; resolves with its result. */
  request(operation: string, parameters: Record<string, unknown> = {}): Promise<unknown> {
    if (this.exited) return Promise.reject(this.exited);
    const id = ++this.count;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ id, operation, arguments: parameters })}\n`);
    });
  }

  private answer(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.keepLog(`${line}\n`);
      return;
    }
    const parsed = AnswerSchema.safeParse(json);
    if (!parsed.success) {
      // An answer the worker wrote wrong is the server's fault; the request it names (if any) fails rather than waits forever.
      const id = typeof json === "object" && json !== null && "id" in json ? json.id : undefined;
      const waiter = typeof id === "number" ? this.waiting.get(id) : undefined;
      if (waiter) {
        this.waiting.delete(id as number);
        waiter.reject(new FutureFailure(`the torch worker wrote an unreadable answer: ${line.slice(0, 200)}`, "server"));
      } else this.keepLog(`${line}\n`);
      return;
    }
    const answer = parsed.data;
    const waiter = this.waiting.get(answer.id);
    if (!waiter) return;
    this.waiting.delete(answer.id);
    if ("error" in answer) waiter.reject(new FutureFailure(answer.error, answer.category));
    else waiter.resolve(answer.result);
  }

  /** Ends the worker: its stdin closes, so it leaves its loop; one still running after the grace period is killed. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin.end();
    const kill = setTimeout(() => this.child.kill("SIGKILL"), this.closeGraceMs);
    await exit;
    clearTimeout(kill);
  }

  private keepLog(text: string): void {
    this.stderrTail = (this.stderrTail + text).slice(-3000);
  }
}
