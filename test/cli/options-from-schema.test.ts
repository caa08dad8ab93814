import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { addCommand } from "../../src/cli/add-command.js";
import { defineCommand, noArguments, noFlags } from "../../src/cli/command-definition.js";
import { addSchemaOptions, optionFromField } from "../../src/cli/options-from-schema.js";
import { parseFlags } from "../../src/cli/parse-flags.js";
import { commaList, endpointFlags } from "../../src/cli/shared-flags.js";

const FlagsSchema = z.object({
  ...endpointFlags,
  attempts: z.coerce.number().int().positive().default(1).describe("attempts per task").meta({ short: "n", value: "n" }),
  limit: z.coerce.number().int().positive().optional().describe("first n tasks only").meta({ value: "n" }),
  kind: z.enum(["math", "code"]).default("math").describe("judge prompt").meta({ value: "kind" }),
  methods: commaList(z.enum(["v1", "random"])).prefault("v1").describe("comma list").meta({ value: "list" }),
  set: z.array(z.string()).default([]).describe("repeatable").meta({ value: "key=value" }),
  input: z.string().describe("required file").meta({ value: "file" }),
  resume: z.boolean().default(false).describe("finish the run"),
  progress: z.boolean().default(true).describe("hide the progress line"),
});

/** A command with the schema's options, exiting by exception instead of process.exit, its output captured. */
function commandFor(schema: z.ZodObject) {
  const output: string[] = [];
  const command = addSchemaOptions(new Command("try"), schema)
    .exitOverride()
    // Wide enough that no help line wraps, so the expectations can match one line each.
    .configureHelp({ helpWidth: 300 })
    .configureOutput({ writeOut: (text) => output.push(text), writeErr: (text) => output.push(text) });
  return { command, output };
}

/** Parses `args` with commander, then with the schema, as `rllm` does. */
function parse(args: string[]) {
  const { command } = commandFor(FlagsSchema);
  command.parse(args, { from: "user" });
  return parseFlags(FlagsSchema, command.opts(), command);
}

describe("options from a zod schema", () => {
  it("registers one option per field, spelt in kebab case with its value name, in the schema's order", () => {
    const { command } = commandFor(FlagsSchema);
    expect(command.options.map((option) => option.flags)).toEqual([
      "--endpoint <name>",
      "--model <name>",
      "--base-url <url>",
      "--api-key-env <VAR>",
      "-n, --attempts <n>",
      "--limit <n>",
      "--kind <kind>",
      "--methods <list>",
      "--set <key=value>",
      "--input <file>",
      "--resume",
      "--no-progress",
    ]);
  });

  it("prints each field's description, default and choices in help", () => {
    const { command, output } = commandFor(FlagsSchema);
    expect(() => command.parse(["--help"], { from: "user" })).toThrow();
    const help = output.join("");
    expect(help).toMatch(/--api-key-env <VAR>\s+environment variable holding the API key \(default OPENAI_API_KEY\)/);
    expect(help).toMatch(/-n, --attempts <n>\s+attempts per task \(default: 1\)/);
    expect(help).toMatch(/--kind <kind>\s+judge prompt \(choices: "math", "code", default: "math"\)/);
    expect(help).toMatch(/--methods <list>\s+comma list \(default: "v1"\)/);
    expect(help).not.toMatch(/--resume\s+finish the run \(default/);
  });

  it("gives the schema's defaults when no flag is typed", () => {
    expect(parse(["--input", "rows.jsonl"])).toEqual({
      attempts: 1,
      kind: "math",
      methods: ["v1"],
      set: [],
      input: "rows.jsonl",
      resume: false,
      progress: true,
    });
  });

  it("accepts the short alias and coerces the typed values", () => {
    const flags = parse(["--input", "f", "-n", "4", "--limit", "2", "--methods", "v1,random", "--resume"]);
    expect(flags).toMatchObject({ attempts: 4, limit: 2, methods: ["v1", "random"], resume: true });
  });

  it("turns a boolean that defaults to true off with --no-<name>", () => {
    expect(parse(["--input", "f", "--no-progress"]).progress).toBe(false);
  });

  it("collects a repeatable flag given several times, in order", () => {
    expect(parse(["--input", "f", "--set", "a=1", "--set", "b=2"]).set).toEqual(["a=1", "b=2"]);
  });

  it("refuses a missing required flag and a value outside the choices before the schema runs", () => {
    expect(() => parse([])).toThrow(/required option '--input <file>' not specified/);
    expect(() => parse(["--input", "f", "--kind", "prose"])).toThrow(/'--kind <kind>' argument 'prose' is invalid/);
  });

  it("names the flag, by both spellings when it has a short one, in a schema error", () => {
    expect(() => parse(["--input", "f", "-n", "0"])).toThrow(/^-n\/--attempts: Too small/);
    expect(() => parse(["--input", "f", "--limit", "x"])).toThrow(/^--limit: Invalid input: expected number/);
    expect(() => parse(["--input", "f", "--methods", "v1,best"])).toThrow(/^--methods: "v1,best": Invalid option/);
    expect(() => parse(["--input", "f", "--base-url", "not a url"])).toThrow(/^--base-url: Invalid URL/);
  });

  it("lets a command reword a shared field without losing its spelling", () => {
    const option = optionFromField("model", endpointFlags.model.describe("judge model"));
    expect(option.flags).toBe("--model <name>");
    expect(option.description).toBe("judge model");
  });

  it("spells a short-only flag from its meta", () => {
    const option = optionFromField("n", z.coerce.number().default(8).describe("candidates").meta({ flags: "-n <count>" }));
    expect(option.flags).toBe("-n <count>");
    expect(option.defaultValue).toBe(8);
  });

  it("throws for a field without a description or with a spelling that gives another key", () => {
    expect(() => optionFromField("limit", z.number().optional())).toThrow(/flag "limit": description/);
    expect(() => optionFromField("count", z.number().describe("x").meta({ flags: "--total <n>" }))).toThrow(/gives commander the key "total"/);
  });
});

describe("a command built from its definition", () => {
  it("parses the flags before loading its action, so a usage error loads nothing", async () => {
    let loads = 0;
    const calls: unknown[] = [];
    const definition = defineCommand({
      name: "try",
      description: "try it",
      arguments: z.tuple([z.string().describe("a name").meta({ value: "name" })]),
      flags: FlagsSchema,
      loadAction: async () => {
        loads += 1;
        return (flags, args) => {
          calls.push({ flags, args });
        };
      },
    });
    const program = new Command("rllm").exitOverride();
    addCommand(program, definition);
    await expect(program.parseAsync(["try", "x", "--input", "f", "-n", "0"], { from: "user" })).rejects.toThrow(/-n\/--attempts/);
    expect(loads).toBe(0);
    await program.parseAsync(["try", "x", "--input", "f", "-n", "3"], { from: "user" });
    expect(loads).toBe(1);
    expect(calls).toEqual([{ flags: expect.objectContaining({ attempts: 3, input: "f" }), args: ["x"] }]);
  });

  it("spells arguments from their schemas: <required>, [optional], <variadic...>, and hands a variadic over as one array", async () => {
    const calls: unknown[] = [];
    const definition = defineCommand({
      name: "try",
      description: "try it",
      arguments: z.tuple([
        z.string().describe("the first").meta({ value: "first" }),
        z.string().optional().describe("the second").meta({ value: "second" }),
      ]),
      flags: noFlags,
      loadAction: async () => (_flags, args) => {
        calls.push(args);
      },
    });
    const variadic = defineCommand({
      name: "many",
      description: "many",
      arguments: z.tuple([z.array(z.string()).describe("run folders").meta({ value: "run-dir" })]),
      flags: noFlags,
      loadAction: async () => (_flags, [directories]) => {
        calls.push(directories);
      },
    });
    const program = new Command("rllm").exitOverride();
    const command = addCommand(program, definition);
    addCommand(program, variadic);
    expect(command.registeredArguments.map((argument) => [argument.name(), argument.required, argument.description])).toEqual([
      ["first", true, "the first"],
      ["second", false, "the second"],
    ]);
    await program.parseAsync(["try", "a"], { from: "user" });
    await program.parseAsync(["many", "r1", "r2"], { from: "user" });
    expect(calls).toEqual([["a", undefined], ["r1", "r2"]]);
  });

  it("refuses, at compile time, an action whose arguments or flags do not match the schemas", () => {
    defineCommand({
      name: "typed",
      description: "typed",
      arguments: z.tuple([z.string().optional().describe("maybe").meta({ value: "maybe" })]),
      flags: noFlags,
      // @ts-expect-error: the argument is optional, so the action must accept undefined.
      loadAction: async () => (_flags: unknown, _args: [string]) => {},
    });
    defineCommand({
      name: "typed",
      description: "typed",
      arguments: noArguments,
      flags: FlagsSchema,
      // @ts-expect-error: `attempts` is a number once parsed.
      loadAction: async () => (_flags: { attempts: string }) => {},
    });
  });
});
