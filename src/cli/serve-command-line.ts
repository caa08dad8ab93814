/** The command that serves a trained tiny-model checkpoint, printed at the end of `rllm train` and `rllm sft`. */

/** `rllm serve --model tiny --checkpoint <folder>` for a checkpoint of the local backend. */
export function serveCommand(checkpoint: string): string {
  return `rllm serve --model tiny --checkpoint ${/^[\w@%+=:,./-]+$/.test(checkpoint) ? checkpoint : `'${checkpoint.replace(/'/g, `'\\''`)}'`}`;
}
