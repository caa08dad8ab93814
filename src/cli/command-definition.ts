/**
 * A subcommand as data: its name, help text, arguments and flag schema, and a loader for the code that runs it. Help
 * needs only the definition; the action module, with its heavy imports, is loaded once the flags have parsed.
 */
import type { Command } from "commander";
import type { z } from "zod";

/** A positional argument: `<name>` (required) or `[name]` (optional), as commander spells it. */
export interface ArgumentDefinition {
  name: string;
  description: string;
}

/** Runs a command with its parsed flags and its positional arguments. */
export type CommandAction<Flags, Args extends string[]> = (flags: Flags, args: Args, command: Command) => Promise<void> | void;

/** One subcommand: either runnable (flags and action) or a group of subcommands (`rllm dataset list`). */
export interface CommandDefinition<Flags extends z.ZodObject = z.ZodObject, Args extends string[] = string[]> {
  name: string;
  description: string;
  arguments?: readonly ArgumentDefinition[];
  flags?: Flags;
  /** Loads the action module; called only when the command runs, never for help. */
  loadAction?: () => Promise<CommandAction<z.infer<Flags>, Args>>;
  subcommands?: readonly CommandDefinition[];
}

/** Checks a definition against its own flag schema, then forgets the schema's type so definitions fit in one list. */
export function defineCommand<Flags extends z.ZodObject, Args extends string[] = string[]>(definition: CommandDefinition<Flags, Args>): CommandDefinition {
  return definition as unknown as CommandDefinition;
}
