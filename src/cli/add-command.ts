/** Builds a commander subcommand from its definition: options from the flag schema, and an action that loads its module only to run. */
import type { Command } from "commander";
import type { CommandDefinition } from "./command-definition.js";
import { addSchemaOptions } from "./options-from-schema.js";
import { parseFlags } from "./parse-flags.js";

/** Adds `definition` (and its subcommands) to `parent`. */
export function addCommand(parent: Command, definition: CommandDefinition): Command {
  const command = parent.command(definition.name).description(joinProseLines(definition.description));
  for (const argument of definition.arguments ?? []) command.argument(argument.name, argument.description);
  if (definition.flags) addSchemaOptions(command, definition.flags);
  for (const subcommand of definition.subcommands ?? []) addCommand(command, subcommand);
  const { flags: schema, loadAction } = definition;
  if (loadAction) {
    command.action(async (...values: unknown[]) => {
      // commander passes the arguments, then the options object, then the command.
      const args = values.slice(0, -2) as string[];
      // Flags are checked before the action module loads, so a usage error costs no heavy import.
      const flags = schema ? parseFlags(schema, command.opts(), command) : {};
      const action = await loadAction();
      await action(flags, args, command);
    });
  }
  return command;
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
