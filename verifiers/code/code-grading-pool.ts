/**
 * The code verifier's pool as it is open (code-pool.ts defines it): the run's program sandbox (local slots, or the
 * hosts of a remote one), opened once per run by the run's services and shared by every grader the run makes. Under a
 * remote sandbox, assert tests (whose expected values the program must not be able to read) and problems no service
 * could run go to local slots, opened on the first such problem and closed with the pool.
 */
import type { ProgramSandbox, ProgramSandboxOptions } from "rllm-ts/core";
import { CodeGrader, type CodeGradingOptions } from "./code-grader.js";
import type { ProgramGrader } from "./program-grader.js";
import { RemoteCodeGrader } from "./remote/remote-code-grader.js";

/** A run's program sandbox, and the graders made on it. */
export class CodeGradingPool {
  private local: Promise<CodeGrader> | undefined;

  /** The pool on `programs`, which it closes; `options` are what they were opened with. */
  constructor(
    /** Where programs run. */
    readonly programs: ProgramSandbox,
    private readonly options: ProgramSandboxOptions = {},
  ) {}

  /** A grader on this pool's programs; it holds nothing of its own, so it needs no closing. */
  grader(options: CodeGradingOptions = {}): ProgramGrader {
    if (this.programs.kind === "local") return new CodeGrader(this.programs, options);
    const { timeoutSeconds = 6, runAllTests = false, floatTolerance } = options;
    return new RemoteCodeGrader(this.programs, {
      timeoutSeconds,
      runAllTests,
      ...(floatTolerance !== undefined ? { floatTolerance } : {}),
      openLocal: () => this.localGrader(options),
    });
  }

  /** What config.json records: where programs run and how many at once. */
  describe(): Record<string, unknown> {
    return this.programs.kind === "local"
      ? { sandbox: "local", slots: this.programs.concurrency, ...(this.programs.notice ? { notice: this.programs.notice } : {}) }
      : { sandbox: "remote", concurrency: this.programs.concurrency, hosts: this.programs.statistics };
  }

  /** Closes the programs and any local slots opened for assert tests. */
  async close(): Promise<void> {
    const local = this.local;
    await Promise.all([this.programs.close(), local?.then((grader) => grader.close(), () => undefined)]);
  }

  // The local slots of a remote pool, opened once: a failure is kept, so every later assert problem says the same.
  private async localGrader(options: CodeGradingOptions): Promise<ProgramGrader> {
    this.local ??= CodeGrader.create({ ...(this.options.limits ? { limits: this.options.limits } : {}) });
    return new CodeGrader((await this.local).programs, options);
  }
}
