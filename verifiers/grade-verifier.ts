/** The contract `rllm grade --verifier <name>` runs: a row schema and a batch grading function returning Scores. */
import type { z } from "zod";
import type { EvaluatorContext, PoolDefinition, RegistryEntry, Score } from "rllm-ts/core";

export interface GradeOptions {
  /** Worker threads or sandboxes to run at once (default: all cores). */
  concurrency?: number;
  /** Verifier-specific flags from the command line, already validated by the verifier. */
  flags: Record<string, unknown>;
  /** Called after each row, for the progress line. */
  onProgress?: (done: number, total: number) => void;
}

export interface GradeVerifier<Row> {
  name: string;
  description: string;
  /** Schema of one input row; errors name the file, line and field. */
  rowSchema: z.ZodType<Row>;
  /**
   * Grades rows, returning one Score per row in the same order, on the run's pools (`context.pool`). A row nothing
   * can grade is unscored; one whose check failed for infrastructure reasons (a sandbox crash) is unscored with the
   * signal `infraError: 1`.
   */
  gradeRows(rows: Row[], options: GradeOptions, context: EvaluatorContext): Promise<Score[]>;
}

/** A verifier in the registry: how to load it, and what `rllm grade` may start before it loads it. */
export interface GradeVerifierEntry extends RegistryEntry<GradeVerifier<unknown>> {
  /**
   * The pool its grading runs on, from a module light enough to load first: `rllm grade` opens it as soon as its flags
   * parse, so the threads or sandbox slots start while the verifier's own modules load and the rows are read. `flags`
   * are the verifier's flags as `gradeRows` gets them: the pool is the one it will ask for (a time limit, a memory cap).
   */
  loadPool?: (flags: Record<string, unknown>) => Promise<PoolDefinition<unknown>>;
  /**
   * Its grading threads finish a run in a second or two, before most of what V8's optimizing compiler would compile
   * pays back: the CLI, which alone may set a process-wide V8 flag, defers that compiler before they start.
   */
  defersOptimizingCompiler?: boolean;
}
