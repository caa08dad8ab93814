/** The command that finishes an interrupted run: the one that was typed, pointed at its run folder with --resume. */

/**
 * `rllm <argv> --out <directory> --resume`, with any --out and --resume of `argv` replaced: `--resume` refuses a
 * config that differs from the saved one, so every flag that was typed must be typed again, as it was.
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
  return ["rllm", ...kept, "--out", directory, "--resume"].map(shellQuote).join(" ");
}

// Single quotes keep a shell from expanding anything; a quote inside is closed, escaped and reopened.
function shellQuote(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, `'\\''`)}'`;
}
