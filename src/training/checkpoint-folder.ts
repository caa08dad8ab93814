/** The one name of a training checkpoint folder, shared by `rllm train` and `rllm sft`. */

/** `checkpoints/step-0010`'s last part: zero-padded, so a listing sorts by step. */
export function checkpointFolder(step: number): string {
  return `step-${String(step).padStart(4, "0")}`;
}

/** The step of a checkpoint folder name, `step-0010` or the unpadded `step-10` of older sft runs; undefined for others. */
export function checkpointStep(folderName: string): number | undefined {
  const match = /^step-(\d+)$/.exec(folderName);
  return match ? Number(match[1]) : undefined;
}
