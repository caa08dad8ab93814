/** The `rllm` command line: builds the commander program from every registered subcommand and maps errors to exit codes. */
import { Command, CommanderError } from "commander";
import { commands } from "./commands/index.js";
import { InputError } from "../core/errors/input-error.js";

const program = new Command("rllm")
  .description(
    "Evaluate, verify, rerank and train language-model agents.\n" +
      "With no --base-url, commands use the embedded tiny model that ships with the package (offline).",
  )
  .version("0.1.0")
  // `npx rllm` outside a project that installs rllm-ts runs an unrelated registry package of that name.
  .addHelpText(
    "after",
    "\nRunning it: inside a project that depends on rllm-ts, `npx rllm <command>`; anywhere else,\n" +
      "`npx -p rllm-ts rllm <command>` or `npm i -g rllm-ts` then `rllm <command>` (plain `npx rllm` there\n" +
      "fetches an unrelated registry package named rllm).",
  )
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

// `rllm eval ...` (and `rllm help eval`) loads only eval's definition. Anything else (the command list, a typo) loads no
// command module: each command is listed by its summary, which is all the list and commander's suggestions need.
const requested = process.argv[2] === "help" ? process.argv[3] : process.argv[2];
for (const name of commands.names()) {
  // Imported here: building options from schemas needs zod, which the command list does not.
  if (name === requested) (await import("./add-command.js")).addCommand(program, await commands.load(name));
  else program.command(name).summary(commands.get(name).summary);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
}

/** 0 success, 1 a run that failed, 2 bad usage; prints a one-line reason. */
function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    // commander already printed its message; help and version exit 0.
    return error.exitCode === 0 ? 0 : 2;
  }
  if (error instanceof InputError) {
    // Library code names options as a caller of the API writes them; here they are the flags that set them.
    console.error(`rllm: ${error.flagMessage}`);
    return 2;
  }
  const message = error instanceof Error ? error.message : String(error);
  console.error(`rllm: ${message}`);
  if (process.env.RLLM_DEBUG && error instanceof Error) console.error(error.stack);
  return 1;
}
