/** Key order as written in JSON text: JSON.parse moves integer-like keys ("2015") to the front, which scrambles year columns. */

/** The keys of the top-level object of `json` in written order (of its first element, if it is an array of objects). */
export function jsonKeyOrder(json: string): string[] {
  let index = skipSpace(json, 0);
  if (json[index] === "[") index = skipSpace(json, index + 1);
  if (json[index] !== "{") return [];
  const keys: string[] = [];
  index++;
  for (;;) {
    index = skipSpace(json, index);
    if (json[index] !== '"') return keys;
    const end = endOfString(json, index);
    keys.push(JSON.parse(json.slice(index, end)) as string);
    index = skipSpace(json, end);
    if (json[index] !== ":") return keys;
    index = endOfValue(json, skipSpace(json, index + 1));
    index = skipSpace(json, index);
    if (json[index] !== ",") return keys;
    index++;
  }
}

function skipSpace(json: string, index: number): number {
  while (index < json.length && /\s/.test(json.charAt(index))) index++;
  return index;
}

/** Index just past the string starting at `index` (a `"`). */
function endOfString(json: string, index: number): number {
  for (let cursor = index + 1; cursor < json.length; cursor++) {
    if (json[cursor] === "\\") cursor++;
    else if (json[cursor] === '"') return cursor + 1;
  }
  return json.length;
}

/** Index just past the value starting at `index`, skipping nested objects and arrays. */
function endOfValue(json: string, index: number): number {
  if (json[index] === '"') return endOfString(json, index);
  let depth = 0;
  for (let cursor = index; cursor < json.length; cursor++) {
    const character = json[cursor];
    if (character === '"') cursor = endOfString(json, cursor) - 1;
    else if (character === "{" || character === "[") depth++;
    else if (character === "}" || character === "]") {
      if (depth === 0) return cursor;
      depth--;
      if (depth === 0) return cursor + 1;
    } else if (character === "," && depth === 0) return cursor;
  }
  return json.length;
}
