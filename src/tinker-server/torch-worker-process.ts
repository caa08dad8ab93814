/**
 * The torch worker (torch-worker/worker.py) as a child process: one JSON request per line on its stdin, one answer per
 * line on its stdout, answered in order. A request the worker refuses fails with its category (user or server); a
 * worker that dies fails every request in flight with the end of its stderr.
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

export class TorchWorkerProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private count = 0;
  private stderrTail = "";
  private exited: Error | undefined;

  /** Starts `python worker.py`. */
  constructor(python: string) {
    // No .pyc files beside the worker: an installed package's folder may be read-only, and a packed one should stay clean.
    this.child = spawn(python, [TORCH_WORKER_SCRIPT], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-3000);
    });
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
    const parsed = AnswerSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`torch worker: unreadable answer ${line.slice(0, 200)}`);
    const answer = parsed.data;
    const waiter = this.waiting.get(answer.id);
    if (!waiter) return;
    this.waiting.delete(answer.id);
    if ("error" in answer) waiter.reject(new FutureFailure(answer.error, answer.category));
    else waiter.resolve(answer.result);
  }

  /** Ends the worker (its stdin closes, so it leaves its loop). */
  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin.end();
    await exit;
  }
}
