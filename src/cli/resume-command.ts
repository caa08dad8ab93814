/** The command that finishes an interrupted run: the one that was typed, pointed at its run folder with --resume. */
import { runnableRllmCommand } from "./runnable-rllm-command.js";

/**
 * `rllm <argv> --out <directory> --resume`, with any --out and --resume of `argv` replaced: `--resume` refuses a
 * config that differs from the saved one, so every flag that was typed must be typed again, as it was. `rllm` is
 * spelt as the user can run it from here (`npx rllm` in a checkout; runnable-rllm-command.ts).
 */
export function resumeCommand(argv: readonly string[], directory: string): string {
  const kept: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--resume" || argument.startsWith("--out=")) continue;
    if (argument === "--out") {
      index += 1;
      continue;
    }
    kept.push(argument);
  }
  return runnableRllmCommand([...kept, "--out", directory, "--resume"]);
}
