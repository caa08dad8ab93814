/** Builds a commander subcommand from its definition: options from the flag schema, and an action that loads its module only to run. */
import type { Command } from "commander";
import { z } from "zod";
import { type ArgumentsSchema, argumentName, type CommandDefinition } from "./command-definition.js";
import { addSchemaOptions } from "./options-from-schema.js";

/** Adds `definition` (and its subcommands) to `parent`. */
export function addCommand(parent: Command, definition: CommandDefinition): Command {
  const command = parent.command(definition.name).description(joinProseLines(definition.description));
  if (definition.arguments) addSchemaArguments(command, definition.arguments);
  if (definition.flags) addSchemaOptions(command, definition.flags);
  for (const subcommand of definition.subcommands ?? []) addCommand(command, subcommand);
  const { run } = definition;
  // commander passes the arguments, then the options object, then the command.
  if (run) command.action((...values: unknown[]) => run(command.opts(), values.slice(0, -2), command));
  return command;
}

/** Declares one commander argument per item of `schema`: `<name>`, `[name]` when optional, `<name...>` for an array. */
function addSchemaArguments(command: Command, schema: ArgumentsSchema): void {
  schema.def.items.forEach((item, position) => {
    const name = argumentName(item, position);
    const isOptional = item.safeParse(undefined).success;
    let inner: z.ZodType = item;
    while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
    const spelling = `${name}${inner instanceof z.ZodArray ? "..." : ""}`;
    command.argument(isOptional ? `[${spelling}]` : `<${spelling}>`, item.description ?? "");
  });
}

/**
 * A help text with its prose lines joined into paragraphs, so commander wraps them at the terminal's width: broken by
 * hand at ~115 columns and wrapped again at 80, every other line was a stub. Indented lines (tables, lists) and the
 * line after one stay where they are.
 */
export function joinProseLines(text: string): string {
  const lines = text.split("\n");
  return lines.reduce((joined, line, index) => {
    if (index === 0) return line;
    const previous = lines[index - 1]!;
    const isProse = (candidate: string) => candidate !== "" && !/^\s/.test(candidate);
    return isProse(previous) && isProse(line) ? `${joined} ${line}` : `${joined}\n${line}`;
  }, "");
}
