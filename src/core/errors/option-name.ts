/**
 * Options named inside error messages, spelt for whoever made the call: a library caller reads `resume: true` and
 * `maxCost`, the command line reads `--resume` and `--max-cost`. The CLI prints an InputError's `flagMessage`.
 */

/** One option: as a library caller sets it, and as the flag the CLI maps it to. */
export class OptionName {
  constructor(
    /** `resume: true`, `maxCost`: what a library caller writes. */
    readonly option: string,
    /** `--resume`, `--max-cost`: what the command line takes. */
    readonly flag: string,
  ) {}
}

/**
 * The option `name` (an eval option's field), whose flag is its kebab-case form (`maxCost` → `--max-cost`) unless
 * `flag` says otherwise. A boolean option that must be switched on is `optionName("resume", { on: true })`: `resume:
 * true` to a library caller, `--resume` on the command line.
 */
export function optionName(name: string, settings: { flag?: string; on?: boolean } = {}): OptionName {
  const flag = settings.flag ?? `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
  return new OptionName(settings.on ? `${name}: true` : name, flag);
}

/** A message in both spellings. */
export interface UsageMessage {
  /** For library callers: options by their names. */
  library: string;
  /** For the command line: options by their flags. */
  flags: string;
}

/** A tagged template: usageMessage`pass ${optionName("resume", { on: true })} to finish it` renders both spellings. */
export function usageMessage(strings: TemplateStringsArray, ...values: unknown[]): UsageMessage {
  const render = (spell: (name: OptionName) => string) =>
    strings.reduce((text, part, index) => {
      const value = values[index];
      return text + part + (index >= values.length ? "" : value instanceof OptionName ? spell(value) : String(value));
    }, "");
  return { library: render((name) => name.option), flags: render((name) => name.flag) };
}
