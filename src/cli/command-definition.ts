/**
 * A subcommand as data: its name, help text, arguments and flag schemas, and a loader for the code that runs it. Help
 * needs only the definition; the action module, with its heavy imports, is loaded once the flags have parsed.
 */
import type { Command } from "commander";
import { z } from "zod";
import { InputError } from "../core/errors/input-error.js";
import { parseFlags } from "./parse-flags.js";

/**
 * A command's positional arguments, in order: each item's `.meta({ value })` is its name in help, `.describe()` its
 * help text. A string is `<name>`, an optional string `[name]`, an array of strings `<name...>` (commander hands the
 * values over as one array).
 */
export type ArgumentsSchema = z.ZodTuple<z.ZodType[], null>;

/** Runs a command with its parsed flags, its parsed positional arguments, and the work its `start` began. */
export type CommandAction<Flags, Args, Started = undefined> = (flags: Flags, args: Args, command: Command, started: Started) => Promise<void> | void;

/** Work a command's `start` began for its action, which owns it (and closes it). */
export interface StartedWork {
  close(): Promise<void>;
}

/** One subcommand as `addCommand` sees it: help text, schemas, and either a `run` or subcommands. */
export interface CommandDefinition {
  name: string;
  description: string;
  arguments?: ArgumentsSchema;
  flags?: z.ZodObject;
  /**
   * Parses commander's raw option values and positional values with the schemas above, loads the action module and
   * runs it. Built by `defineCommand`, where the schemas' types are still known, so the list of definitions holds no
   * types to erase.
   */
  run?: (rawFlags: Record<string, unknown>, rawArguments: readonly unknown[], command: Command) => Promise<void>;
  subcommands?: readonly CommandDefinition[];
}

/** A runnable command as written in a `<name>-command.ts` file. */
export interface CommandSpec<Flags extends z.ZodObject, Args extends ArgumentsSchema, Started extends StartedWork | undefined = undefined> {
  name: string;
  description: string;
  /** `noArguments` for a command that takes none. */
  arguments: Args;
  /** `noFlags` for a command that takes none. */
  flags: Flags;
  /**
   * Slow work the action will need, begun as soon as the flags and arguments have parsed, before the action module
   * loads (`rllm grade`'s pool: its grading threads or sandbox slots start while the action's modules load). What it
   * returns is the action's last argument; it is closed here only when the action cannot be loaded.
   */
  start?: (flags: z.infer<Flags>) => Started;
  /** Loads the action module; called only when the command runs, never for help. */
  loadAction: () => Promise<CommandAction<z.infer<Flags>, z.infer<Args>, Started>>;
}

/** The flags of a command that has none. */
export const noFlags = z.object({});
/** The positional arguments of a command that takes none. */
export const noArguments = z.tuple([]);

/** A runnable command: its action is typed by the two schemas, and `run` parses with them before the action loads. */
export function defineCommand<Flags extends z.ZodObject, Args extends ArgumentsSchema, Started extends StartedWork | undefined = undefined>(
  spec: CommandSpec<Flags, Args, Started>,
): CommandDefinition {
  const { loadAction, start, ...definition } = spec;
  return {
    ...definition,
    run: async (rawFlags, rawArguments, command) => {
      // Both are checked before the action module loads, so a usage error costs no heavy import.
      const flags = parseFlags(spec.flags, rawFlags, command);
      const args = parseArguments(spec.arguments, rawArguments);
      // `Started` is `undefined` exactly when the spec has no `start` (its default), so this is the action's type.
      const started = start?.(flags) as Started;
      let action: CommandAction<z.infer<Flags>, z.infer<Args>, Started>;
      try {
        action = await loadAction();
      } catch (error) {
        await started?.close();
        throw error;
      }
      await action(flags, args, command, started);
    },
  };
}

/** A command that only groups subcommands (`rllm dataset list`). */
export function defineCommandGroup(group: { name: string; description: string; subcommands: readonly CommandDefinition[] }): CommandDefinition {
  return group;
}

/** The name an argument has in help and in messages (`run-dir`). */
export function argumentName(schema: z.ZodType, position: number): string {
  const value = schema.meta()?.value;
  return typeof value === "string" ? value : `argument ${position + 1}`;
}

/** The parsed positional arguments, or an InputError naming the argument. */
function parseArguments<Args extends ArgumentsSchema>(schema: Args, raw: readonly unknown[]): z.infer<Args> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new InputError(
    parsed.error.issues
      .map((issue) => {
        const position = Number(issue.path[0] ?? 0);
        const item = schema.def.items[position];
        return `${item ? argumentName(item, position) : "arguments"}: ${issue.message}`;
      })
      .join("; "),
  );
}
