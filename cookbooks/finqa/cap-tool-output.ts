/** Keeps tool output within the context budget: head and tail kept, the middle replaced by a marker (as rLLM). */

/** rLLM's cap on one tool result, in characters. */
const maxToolOutputCharacters = 8000;

/** `text` if short enough, else its first and last halves around an "omitted" marker, within `limit` characters. */
export function capToolOutput(text: string, limit: number = maxToolOutputCharacters): string {
  if (text.length <= limit) return text;
  const markerFor = (omitted: number) => `\n…[${omitted} characters omitted]…\n`;
  let marker = markerFor(text.length - limit);
  // The marker's own length changes how much is omitted; two passes settle it (digit counts differ by at most one).
  for (let pass = 0; pass < 2; pass++) marker = markerFor(text.length - Math.max(0, limit - marker.length));
  const keep = Math.max(0, limit - marker.length);
  const head = Math.ceil(keep / 2);
  return text.slice(0, head) + marker + text.slice(text.length - (keep - head));
}
