/** Unit tests of the streaming CSV reader: quoting, line ends, BOM, line numbers, chunking, gzip. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CsvRecord, parseCsv, readLines, readTextChunks } from "./csv.ts";

/** Yields `text` in chunks of 1, 2, 3, 1, 2, 3, ... characters (or whole when `sizes` is empty). */
async function* chunked(text: string, sizes: number[] = []): AsyncGenerator<string> {
  if (sizes.length === 0) {
    yield text;
    return;
  }
  for (let i = 0, k = 0; i < text.length; k++) {
    const size = sizes[k % sizes.length];
    yield text.slice(i, i + size);
    i += size;
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Chunkings every case runs under: whole, and records split at every possible boundary. */
const CHUNKINGS: number[][] = [[], [1], [2], [3], [1, 2, 3], [3, 1, 2], [2, 3, 1, 1]];

type Case = [name: string, input: string, expected: CsvRecord[]];

const CASES: Case[] = [
  ["plain LF", "a,b\n1,2\n", [{ line: 1, fields: ["a", "b"] }, { line: 2, fields: ["1", "2"] }]],
  ["plain CRLF", "a,b\r\n1,2\r\n", [{ line: 1, fields: ["a", "b"] }, {
    line: 2,
    fields: ["1", "2"],
  }]],
  ["no line end at the end", "a,b\n1,2", [{ line: 1, fields: ["a", "b"] }, {
    line: 2,
    fields: ["1", "2"],
  }]],
  ["doubled quotes inside quotes", 'x\n"say ""hi""",""""\n', [
    { line: 1, fields: ["x"] },
    { line: 2, fields: ['say "hi"', '"'] },
  ]],
  ["delimiter inside quotes", '"a,b",c\n', [{ line: 1, fields: ["a,b", "c"] }]],
  ["LF inside quotes, and the line each record starts on", 'h\n"one\ntwo\nthree",x\nnext\n', [
    { line: 1, fields: ["h"] },
    { line: 2, fields: ["one\ntwo\nthree", "x"] },
    { line: 5, fields: ["next"] },
  ]],
  ["CRLF inside quotes is kept as written", '"a\r\nb",c\r\nd,e\r\n', [
    { line: 1, fields: ["a\r\nb", "c"] },
    { line: 3, fields: ["d", "e"] },
  ]],
  ["a quoted last field before CRLF", 'a,"b"\r\n"c","d"\r\n', [
    { line: 1, fields: ["a", "b"] },
    { line: 2, fields: ["c", "d"] },
  ]],
  ["a quoted field closing at the end of input", 'a,"b\nc"', [
    { line: 1, fields: ["a", "b\nc"] },
  ]],
  ["a byte-order mark is dropped", "\ufeffid,name\n1,x\n", [
    { line: 1, fields: ["id", "name"] },
    { line: 2, fields: ["1", "x"] },
  ]],
  ["empty fields, quoted and not", 'a,,""\n,\n', [
    { line: 1, fields: ["a", "", ""] },
    { line: 2, fields: ["", ""] },
  ]],
  ["an empty trailing line (LF)", "a\nb\n\n", [{ line: 1, fields: ["a"] }, {
    line: 2,
    fields: ["b"],
  }]],
  ["an empty trailing line (CRLF)", "a\r\nb\r\n\r\n", [
    { line: 1, fields: ["a"] },
    { line: 2, fields: ["b"] },
  ]],
  ["blank lines in the middle are skipped but counted", "a\n\nb\r\n\r\nc", [
    { line: 1, fields: ["a"] },
    { line: 3, fields: ["b"] },
    { line: 5, fields: ["c"] },
  ]],
  ["a quote inside an unquoted field is literal", 'ab"c,d\n', [
    { line: 1, fields: ['ab"c', "d"] },
  ]],
  ["empty input", "", []],
];

Deno.test("parseCsv reads every case the same, whole or in 1-3 character chunks", async () => {
  for (const [name, input, expected] of CASES) {
    for (const sizes of CHUNKINGS) {
      const got = await collect(parseCsv(chunked(input, sizes)));
      assert.deepEqual(got, expected, `${name}, chunks [${sizes}]`);
    }
  }
});

Deno.test("parseCsv splits on the delimiter it is given", async () => {
  const input = 'a;"b;c";d,e\n';
  assert.deepEqual(await collect(parseCsv(chunked(input), ";")), [
    { line: 1, fields: ["a", "b;c", "d,e"] },
  ]);
  assert.deepEqual(await collect(parseCsv(chunked(input, [1]), "\t")), [
    { line: 1, fields: ['a;"b;c";d,e'] },
  ]);
});

Deno.test("readLines drops CR and LF, keeps empty lines, and joins lines split across chunks", async () => {
  const input = "one\r\ntwo\n\nthree\r\nlast";
  for (const sizes of CHUNKINGS) {
    assert.deepEqual(
      await collect(readLines(chunked(input, sizes))),
      ["one", "two", "", "three", "last"],
      `chunks [${sizes}]`,
    );
  }
  assert.deepEqual(await collect(readLines(chunked("a\n"))), ["a"]);
});

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

Deno.test("readTextChunks reads plain and gzip files, with a BOM and multi-byte text", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const text = '\ufeffid,name\n1,"Zoë\nMüller"\n2,東京\n';
    const expected = [
      { line: 1, fields: ["id", "name"] },
      { line: 2, fields: ["1", "Zoë\nMüller"] },
      { line: 4, fields: ["2", "東京"] },
    ];
    const plain = join(dir, "feed.csv");
    const packed = join(dir, "feed.csv.gz");
    await Deno.writeTextFile(plain, text);
    const bytes = await gzip(text);
    assert.deepEqual([...bytes.slice(0, 2)], [0x1f, 0x8b]); // really gzip
    await Deno.writeFile(packed, bytes);
    assert.deepEqual(await collect(parseCsv(readTextChunks(plain))), expected);
    assert.deepEqual(await collect(parseCsv(readTextChunks(packed))), expected);
    // Without the .gz suffix the bytes are not decompressed.
    const misnamed = join(dir, "packed.csv");
    await Deno.writeFile(misnamed, bytes);
    assert.notDeepEqual(await collect(parseCsv(readTextChunks(misnamed))), expected);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
