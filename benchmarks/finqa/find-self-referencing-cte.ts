/**
 * Finds a common table expression whose body reads from itself. SQLite runs such a CTE recursively
 * whether or not the query says RECURSIVE, and `WITH c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)`
 * never ends, so the SQL guard refuses it before it runs.
 */

interface Token {
  /** Lower-cased identifier or keyword (unquoted), or the punctuation character. */
  text: string;
  isName: boolean;
  /** An unquoted word: only these can be keywords. */
  isBare: boolean;
}

// In the masked query a quoted name keeps its quotes and is blank inside; the original gives its text.
const tokenPattern = /"[^"]*"|`[^`]*`|\[[^\]]*\]|'[^']*'|[A-Za-z_][\w$]*|[(),.]/g;
// A CTE definition: `WITH name [(columns)] AS [NOT] [MATERIALIZED] (`, or the same after a comma.
const definitionPattern = /(\bwith|,)(\s*)("[^"]*"|`[^`]*`|\[[^\]]*\]|[A-Za-z_][\w$]*)\s*(\([^()]*\))?\s*as\s*(not\s+)?(materialized\s+)?\(/gi;
// Words that start a clause: a name after one of these (before any FROM/JOIN) is not a table.
const clauseWords = new Set(["select", "where", "on", "using", "group", "order", "having", "limit", "offset", "union", "intersect", "except", "values", "window"]);

/** The name of the first CTE in `sql` that reads itself, or undefined. `masked` is `sql` with quoted text blanked (same length). */
export function findSelfReferencingCte(sql: string, masked: string): string | undefined {
  for (const match of masked.matchAll(definitionPattern)) {
    // definitionPattern's first three groups are not optional, so every match has them.
    const nameStart = match.index + match[1]!.length + match[2]!.length;
    const name = unquote(sql.slice(nameStart, nameStart + match[3]!.length));
    const bodyStart = match.index + match[0].length;
    const bodyEnd = closingParenthesis(masked, bodyStart);
    const tokens = tokenize(sql.slice(bodyStart, bodyEnd), masked.slice(bodyStart, bodyEnd));
    if (tokens.some((token, index) => token.isName && token.text === name && isTablePosition(tokens, index))) return name;
  }
  return undefined;
}

function unquote(written: string): string {
  return (/^["`[]/.test(written) ? written.slice(1, -1) : written).toLowerCase();
}

/** Index of the `)` that closes the group opened just before `start` (the end of the text when unbalanced). */
function closingParenthesis(masked: string, start: number): number {
  let depth = 1;
  for (let index = start; index < masked.length; index++) {
    if (masked[index] === "(") depth++;
    if (masked[index] === ")" && --depth === 0) return index;
  }
  return masked.length;
}

function tokenize(original: string, masked: string): Token[] {
  const tokens: Token[] = [];
  for (const match of masked.matchAll(tokenPattern)) {
    if (match[0].startsWith("'")) continue;
    const written = original.slice(match.index, match.index + match[0].length);
    const isName = /^[\w"`[]/.test(written);
    tokens.push({ text: isName ? unquote(written) : written, isName, isBare: /^\w/.test(written) });
  }
  return tokens;
}

/** Whether the name at `index` sits in a FROM list or after JOIN: the nearest clause word before it, at its depth, is FROM or JOIN. */
function isTablePosition(tokens: Token[], index: number): boolean {
  let depth = 0;
  for (let back = index - 1; back >= 0; back--) {
    const token = tokens[back]!;
    if (token.text === ")") depth++;
    else if (token.text === "(") {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0 && token.isBare) {
      if (token.text === "from" || token.text === "join") return true;
      if (clauseWords.has(token.text)) return false;
    }
  }
  return false;
}
