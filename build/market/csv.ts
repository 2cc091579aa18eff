/**
 * A streaming RFC 4180 CSV reader: quoted fields with doubled quotes, newlines inside quotes,
 * CRLF or LF line ends, and a UTF-8 byte-order mark. Yields each record with the physical
 * line it started on, so bad records can be reported as `<file> line <n>`.
 */

/** One parsed CSV record and the 1-based line it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Parses CSV text arriving in chunks; one record at a time, never the whole file. */
export async function* parseCsv(
  chunks: AsyncIterable<string>,
  delimiter = ",",
): AsyncGenerator<CsvRecord> {
  let field = "";
  let fields: string[] = [];
  let quoted = false; // inside a quoted field
  let afterQuote = false; // a quote was just seen inside a quoted field
  let line = 1;
  let recordLine = 1;
  let first = true;
  let any = false; // the current record has content
  for await (let chunk of chunks) {
    if (first) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
    }
    const records: CsvRecord[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (quoted) {
        if (afterQuote) {
          afterQuote = false;
          if (ch === '"') {
            field += '"';
            continue;
          }
          quoted = false; // the quote closed the field; fall through to handle ch
        } else if (ch === '"') {
          afterQuote = true;
          continue;
        } else {
          if (ch === "\n") line++;
          field += ch;
          continue;
        }
      }
      if (ch === '"' && field === "") {
        quoted = true;
        any = true;
      } else if (ch === delimiter) {
        fields.push(field);
        field = "";
        any = true;
      } else if (ch === "\n") {
        const last = field.endsWith("\r") ? field.slice(0, -1) : field;
        if (any || last !== "") {
          fields.push(last);
          records.push({ line: recordLine, fields });
        }
        fields = [];
        field = "";
        any = false;
        line++;
        recordLine = line;
      } else {
        field += ch;
        if (ch !== "\r") any = true; // a bare CR before LF is a line end, not content
      }
    }
    yield* records;
  }
  if (quoted && afterQuote) quoted = false;
  const last = field.endsWith("\r") ? field.slice(0, -1) : field;
  if (any || last !== "") {
    fields.push(last);
    yield { line: recordLine, fields };
  }
}

/** Reads a file (gzip when it ends in .gz) as a stream of text chunks. */
export async function* readTextChunks(path: string): AsyncGenerator<string> {
  const file = await Deno.open(path, { read: true });
  let stream: ReadableStream<Uint8Array> = file.readable;
  if (path.endsWith(".gz")) {
    stream = stream.pipeThrough(
      new DecompressionStream("gzip") as TransformStream<
        Uint8Array,
        Uint8Array
      >,
    );
  }
  const decoded = stream.pipeThrough(new TextDecoderStream());
  for await (const chunk of decoded) yield chunk;
}

/** Splits text chunks into lines (without their line ends). */
export async function* readLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of chunks) {
    const text = rest + chunk;
    const parts = text.split("\n");
    rest = parts.pop()!;
    for (const part of parts) yield part.endsWith("\r") ? part.slice(0, -1) : part;
  }
  if (rest !== "") yield rest.endsWith("\r") ? rest.slice(0, -1) : rest;
}
