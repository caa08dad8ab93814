/**
 * The words of a unit removed from the end of an answer (`4 cents`, `12 \text{ sq units}`), as one comparable key:
 * a unit written on both sides that the physical-unit table (physical-unit.ts) does not know is compared by these
 * words, never dropped, so `4 cents` is not `4 dollars` (docs/math-verifier.md, "Units").
 */

/**
 * The key of the unit words in `removed` (the pieces removed from the end of an answer, in order): lower case, without
 * `\text{}`-like wrappers, each word singular, `square x` and `x^2` alike; undefined when they hold no unit (a remark
 * in parentheses, `12\text{ (rounded)}`, is none).
 */
export function spelledUnit(removed: readonly string[]): string | undefined {
  const words = removed
    .filter((piece) => !/\(/.test(piece))
    .join(" ")
    .replace(/\\(?:text|mbox|mathrm|textrm)\s*\{([^{}]*)\}/g, " $1 ")
    .replace(/[{}]/g, " ")
    .toLowerCase()
    .replace(/\s*\^\s*([23])/g, "^$1")
    .replace(/\.(?=\s|$)/g, " ")
    .trim()
    .split(/\s+/)
    .filter((word) => /^[a-z]/.test(word));
  if (words.length === 0) return undefined;
  const key = words.map(singular).join(" ");
  // `square feet`, `sq ft`, `cubic units` are `feet^2`, `ft^2`, `unit^3`.
  return key.replace(/^(?:square|sq) (.+)$/, "$1^2").replace(/^cubic (.+)$/, "$1^3");
}

/**
 * `cents` → `cent`, `boxes` → `box`, `inches` → `inch`, `apples/s` → `apple/s`; a word not ending in a plural `s` is
 * left as it is.
 */
function singular(word: string): string {
  if (word.includes("/")) return word.split("/").map((part) => (part === "" ? part : singular(part))).join("/");
  const [name, power = ""] = word.split("^") as [string, string?];
  const one = /(?:x|ch|sh|ss)es$/.test(name) ? name.slice(0, -2) : /[^s]s$/.test(name) && name.length > 2 ? name.slice(0, -1) : name;
  return power === "" ? one : `${one}^${power}`;
}
