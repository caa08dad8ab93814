/**
 * Commander options generated from a zod object schema, so that each flag's name, type, default, choices and help text
 * are written once: on the schema field, with `.describe()` and `.meta({ short, value, flags })`.
 */
import { Option, type Command } from "commander";
import { z } from "zod";

/** How a field is spelt on the command line; everything else comes from the field's schema. */
const FlagMetaSchema = z.object({
  description: z.string().min(1),
  /** One-letter alias: `short: "n"` gives `-n, --attempts`. */
  short: z.string().length(1).optional(),
  /** The value's name in help: `value: "n"` gives `--limit <n>`; ignored for booleans. */
  value: z.string().min(1).optional(),
  /** A full commander spelling, for a flag that has no long form (`-n <count>`). */
  flags: z.string().min(1).optional(),
});
/** A flag field's metadata, as `.describe()` and `.meta()` record it. */
export type FlagMeta = z.infer<typeof FlagMetaSchema>;

/** What a field's schema says about its flag, read through `.optional()`, `.default()`, `.prefault()` and transforms. */
interface FieldShape {
  meta: Record<string, unknown>;
  isOptional: boolean;
  hasDefault: boolean;
  defaultValue: unknown;
  isBoolean: boolean;
  isRepeatable: boolean;
  choices?: readonly string[];
}

/** `maxTokens` → `max-tokens`. */
export const kebabCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** Unwraps a field, merging the metadata found on every layer (the outer layer wins, so `.describe()` can override a shared piece's). */
function fieldShape(field: z.ZodType): FieldShape {
  const shape: FieldShape = { meta: {}, isOptional: false, hasDefault: false, defaultValue: undefined, isBoolean: false, isRepeatable: false };
  let current: z.ZodType = field;
  for (;;) {
    shape.meta = { ...(current.meta() ?? {}), ...shape.meta };
    if (current instanceof z.ZodOptional) {
      shape.isOptional = true;
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodDefault || current instanceof z.ZodPrefault) {
      if (!shape.hasDefault) shape.defaultValue = current.def.defaultValue;
      shape.hasDefault = true;
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else break;
  }
  shape.isBoolean = current instanceof z.ZodBoolean;
  shape.isRepeatable = current instanceof z.ZodArray;
  if (current instanceof z.ZodEnum) shape.choices = current.options.map(String);
  return shape;
}

function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The commander option for one schema field; throws (a programmer error) when the field has no description. */
export function optionFromField(key: string, field: z.ZodType): Option {
  const shape = fieldShape(field);
  const parsedMeta = FlagMetaSchema.safeParse(shape.meta);
  if (!parsedMeta.success) throw new Error(`flag "${key}": ${parsedMeta.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  const meta = parsedMeta.data;
  // A boolean that defaults to true can only be turned off, so it is spelt `--no-<name>`.
  const isNegated = shape.isBoolean && shape.defaultValue === true;
  const long = `--${isNegated ? "no-" : ""}${kebabCase(key)}`;
  const value = shape.isBoolean ? "" : ` <${meta.value ?? "value"}>`;
  const flags = meta.flags ?? `${meta.short ? `-${meta.short}, ` : ""}${long}${value}`;
  const option = new Option(flags, meta.description);
  if (option.attributeName() !== key) throw new Error(`flag "${key}": the spelling "${flags}" gives commander the key "${option.attributeName()}"`);
  if (shape.choices) option.choices(shape.choices);
  if (shape.isRepeatable) option.argParser(collect);
  // Defaults are shown in help and handed to the schema, which parses them like typed values; false is implied by a
  // boolean flag's absence and true by the `--no-` spelling, so neither is printed.
  if (shape.hasDefault && !shape.isBoolean) option.default(shape.defaultValue);
  if (!shape.isOptional && !shape.hasDefault && !shape.isBoolean) option.makeOptionMandatory();
  return option;
}

/** Adds one commander option per field of `schema`, in the schema's order. */
export function addSchemaOptions(command: Command, schema: z.ZodObject): Command {
  for (const [key, field] of Object.entries(schema.shape)) command.addOption(optionFromField(key, field as z.ZodType));
  return command;
}
