/**
 * The bench's record of rllm-ts's math verdicts on the distinct suite rows (docs/results/math-verdicts.json), so that
 * each run says which verdicts changed since the last one: a speed-up must not change a single verdict.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";

const VerdictRecordSchema = z.array(
  z.object({
    response: z.unknown(),
    ground_truth: z.unknown(),
    /** null: unscored. */
    isCorrect: z.boolean().nullable(),
  }),
);
export type VerdictRecord = z.infer<typeof VerdictRecordSchema>;

/** A verdict that differs from the recorded one for the same (response, ground truth). */
export interface ChangedVerdict {
  row: number;
  response: unknown;
  groundTruth: unknown;
  before: boolean | null;
  after: boolean | null;
}

/** The recorded verdicts in `file`, or undefined when there is none yet. */
export function readVerdictRecord(file: string): VerdictRecord | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = VerdictRecordSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Writes `record` to `file`, one row a line so that a changed verdict shows as one changed line in a diff. */
export function writeVerdictRecord(file: string, record: VerdictRecord): void {
  writeFileSync(file, `[\n${record.map((row) => JSON.stringify(row)).join(",\n")}\n]\n`);
}

/** The rows of `current` whose verdict differs from `recorded`'s for the same input; rows only one side has are skipped. */
export function changedVerdicts(recorded: VerdictRecord, current: VerdictRecord): ChangedVerdict[] {
  const key = (row: VerdictRecord[number]) => JSON.stringify([row.response, row.ground_truth]);
  const before = new Map(recorded.map((row) => [key(row), row.isCorrect]));
  return current.flatMap((row, index) => {
    const previous = before.get(key(row));
    if (previous === undefined || previous === row.isCorrect) return [];
    return [{ row: index, response: row.response, groundTruth: row.ground_truth, before: previous, after: row.isCorrect }];
  });
}
