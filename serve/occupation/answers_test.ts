import assert from "node:assert/strict";
import { AnswerBook } from "./answers.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function bookOf(entries: [string, string, string][]): AnswerBook {
  const bodies = entries.flatMap(([, summary, profile]) => [summary, profile]).map((t) =>
    encoder.encode(t)
  );
  const offsets = new Int32Array(bodies.length + 1);
  bodies.forEach((b, i) => offsets[i + 1] = offsets[i] + b.length);
  const bytes = new Uint8Array(offsets[bodies.length]);
  bodies.forEach((b, i) => bytes.set(b, offsets[i]));
  return new AnswerBook(entries.map(([code]) => code), offsets, bytes);
}

Deno.test("answer book: each code's summary and profile, null for another code", () => {
  const book = bookOf([
    ["11-1011.00", '{"s":1}', '{"p":1,"x":"é"}'],
    ["15-1252.00", "{}", '{"p":2}'],
  ]);
  assert.equal(decoder.decode(book.summary("11-1011.00")!), '{"s":1}');
  assert.equal(decoder.decode(book.profile("11-1011.00")!), '{"p":1,"x":"é"}');
  assert.equal(decoder.decode(book.summary("15-1252.00")!), "{}");
  assert.equal(decoder.decode(book.profile("15-1252.00")!), '{"p":2}');
  assert.equal(book.summary("99-9999.99"), null);
  assert.equal(book.profile(""), null);
  // Views on the one buffer, not copies.
  assert.equal(book.profile("15-1252.00")!.buffer, book.bytes.buffer);
});

Deno.test("answer book: offsets that do not fit the codes or the bytes are refused", () => {
  const bytes = encoder.encode("abcdef");
  assert.throws(() => new AnswerBook(["a"], Int32Array.of(0, 3), bytes), /match the codes/);
  assert.throws(() => new AnswerBook(["a"], Int32Array.of(0, 4, 2), bytes), /backwards/);
  assert.throws(() => new AnswerBook(["a"], Int32Array.of(0, 3, 5), bytes), /end of the bytes/);
  assert.throws(() => new AnswerBook(["a"], Int32Array.of(1, 3, 6), bytes), /match the codes/);
  assert.doesNotThrow(() => new AnswerBook(["a"], Int32Array.of(0, 3, 6), bytes));
});
