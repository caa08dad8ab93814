/** A small RFC 4180 CSV reader (quoted fields, doubled quotes, newlines inside quotes), enough for rLLM/finqa's question files. */

/** A parsed record and the 1-based line it starts on (for error messages). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Splits CSV text into records; throws on an unterminated quote, naming its line. */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0; // skip a byte-order mark
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === "")) records.push({ line: recordLine, fields });
    fields = [];
    field = "";
  };
  while (index < text.length) {
    const character = text[index];
    if (character === '"' && field === "") {
      const start = line;
      index++;
      for (;;) {
        if (index >= text.length) throw new Error(`line ${start}: unterminated quoted field`);
        if (text[index] === '"') {
          if (text[index + 1] === '"') {
            field += '"';
            index += 2;
            continue;
          }
          index++;
          break;
        }
        if (text[index] === "\n") line++;
        field += text[index++];
      }
      continue;
    }
    if (character === ",") {
      fields.push(field);
      field = "";
    } else if (character === "\n" || character === "\r") {
      if (character === "\r" && text[index + 1] === "\n") index++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += character;
    }
    index++;
  }
  if (field !== "" || fields.length > 0) endRecord();
  return records;
}
