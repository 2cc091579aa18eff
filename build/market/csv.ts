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

/** The parser's state between chunks: a record may span chunks. */
class CsvReader {
  #field = "";
  #fields: string[] = [];
  #quoted = false; // inside a quoted field
  #afterQuote = false; // a quote was just seen inside a quoted field
  #line = 1;
  #recordLine = 1;
  #first = true;
  #any = false; // the current record has content

  constructor(readonly delimiter: string) {}

  /** The records that a chunk completes. */
  feed(chunk: string): CsvRecord[] {
    if (this.#first) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      this.#first = false;
    }
    const records: CsvRecord[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (this.#quoted) {
        if (this.#afterQuote) {
          this.#afterQuote = false;
          if (ch === '"') {
            this.#field += '"';
            continue;
          }
          this.#quoted = false; // the quote closed the field; fall through to handle ch
        } else if (ch === '"') {
          this.#afterQuote = true;
          continue;
        } else {
          if (ch === "\n") this.#line++;
          this.#field += ch;
          continue;
        }
      }
      if (ch === '"' && this.#field === "") {
        this.#quoted = true;
        this.#any = true;
      } else if (ch === this.delimiter) {
        this.#fields.push(this.#field);
        this.#field = "";
        this.#any = true;
      } else if (ch === "\n") {
        const last = this.#field.endsWith("\r") ? this.#field.slice(0, -1) : this.#field;
        if (this.#any || last !== "") {
          this.#fields.push(last);
          records.push({ line: this.#recordLine, fields: this.#fields });
        }
        this.#fields = [];
        this.#field = "";
        this.#any = false;
        this.#line++;
        this.#recordLine = this.#line;
      } else {
        this.#field += ch;
        if (ch !== "\r") this.#any = true; // a bare CR before LF is a line end, not content
      }
    }
    return records;
  }

  /** The last record, when the text does not end with a line end. */
  finish(): CsvRecord | null {
    if (this.#quoted && this.#afterQuote) this.#quoted = false;
    const last = this.#field.endsWith("\r") ? this.#field.slice(0, -1) : this.#field;
    if (!this.#any && last === "") return null;
    this.#fields.push(last);
    return { line: this.#recordLine, fields: this.#fields };
  }
}

/** Parses CSV text arriving in chunks; one record at a time, never the whole file. */
export async function* parseCsv(
  chunks: AsyncIterable<string>,
  delimiter = ",",
): AsyncGenerator<CsvRecord> {
  const reader = new CsvReader(delimiter);
  for await (const chunk of chunks) yield* reader.feed(chunk);
  const last = reader.finish();
  if (last) yield last;
}

/** The same parser over text already in memory (small files): each record's fields. */
export function parseCsvText(text: string, delimiter = ","): string[][] {
  const reader = new CsvReader(delimiter);
  const records = reader.feed(text);
  const last = reader.finish();
  if (last) records.push(last);
  return records.map((r) => r.fields);
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
