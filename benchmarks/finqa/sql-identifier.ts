/** SQL-safe names for tables and columns taken from financial documents. */

/** A table name: lower-case letters, digits and `_`; a leading digit gets a `t_` prefix; empty becomes `fallback`. */
export function sqlIdentifier(name: string, fallback: string): string {
  const cleaned = cleanName(name);
  if (cleaned === "") return fallback;
  return /^\d/.test(cleaned) ? `t_${cleaned}` : cleaned;
}

/**
 * Column names from a header row: cleaned like table names but a year stays a year ("2015", to be
 * double-quoted in SQL), `col_<i>` for blank headers (as rLLM), and `_2`, `_3`... for repeats.
 */
export function uniqueColumnNames(headers: readonly string[]): string[] {
  const used = new Set<string>();
  return headers.map((header, index) => {
    const base = cleanName(header) || `col_${index}`;
    let name = base;
    for (let suffix = 2; used.has(name); suffix++) name = `${base}_${suffix}`;
    used.add(name);
    return name;
  });
}

function cleanName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
