/** Turns a table cell as FinQA prints it ("$ 5735", "-32 ( 32 )", "4.7%", "( 1,234 )") into a SQL value. */

/** A stored cell: a number when the text is one, else the trimmed text; blanks and dashes are NULL. */
export type CellValue = number | string | null;

export interface ParsedCell {
  value: CellValue;
  /** The cell carried a `%` (its number is in percent units). */
  isPercent: boolean;
}

const blankCells = new Set(["", "-", "—", "–", "n/a", "na", "nm", "none", "null", "nan"]);

/** Parses one cell of any JSON type. */
export function parseCell(raw: unknown): ParsedCell {
  if (raw === null || raw === undefined) return { value: null, isPercent: false };
  if (typeof raw === "number") return { value: Number.isFinite(raw) ? raw : null, isPercent: false };
  if (typeof raw === "boolean") return { value: raw ? 1 : 0, isPercent: false };
  const text = String(raw).trim();
  if (blankCells.has(text.toLowerCase())) return { value: null, isPercent: false };
  // Currency, thousands separators and the spaces FinQA's tokenizer put everywhere carry no value.
  const compact = text.replace(/[$€£¥,\s]/g, "").replace(/[−–—]/g, "-");
  const isPercent = compact.endsWith("%");
  const body = isPercent ? compact.slice(0, -1) : compact;
  const number = /^[-+]?(\d+\.?\d*|\.\d+)$/.test(body)
    ? Number(body)
    : // FinQA writes negatives twice, "-32(32)", and accounting style "(32)".
      /^-(\d+\.?\d*)\(\1\)$/.test(body)
      ? -Number(body.slice(1, body.indexOf("(")))
      : /^\((\d+\.?\d*|\.\d+)\)$/.test(body)
        ? -Number(body.slice(1, -1))
        : undefined;
  return number === undefined ? { value: text, isPercent: false } : { value: number, isPercent };
}
