/**
 * Chunking: exact spans on every fixture, boundaries (paragraph, sentence, word, heading, page),
 * sizes, pages and determinism, plus the same invariants on seeded random documents.
 */
import assert from "node:assert/strict";
import {
  chunkText,
  HEADING_BREAK_CHARS,
  MAX_CHUNK_CHARS,
  MIN_CHUNK_CHARS,
  pageOf,
} from "./chunk.ts";
import { extractDocument } from "./documents.ts";
import type { Chunk, ExtractedDocument } from "./types.ts";

const FIXTURES = new URL("../../fixtures/grounding/", import.meta.url);
const FIXTURE_NAMES = [
  "northwind-data-engineer.md",
  "bluefjord-warehouse-associate.txt",
  "bluefjord-data-engineer.docx",
  "harbor-valley-registered-nurse.pdf",
];

async function fixtureDoc(name: string): Promise<ExtractedDocument> {
  return await extractDocument(await Deno.readFile(new URL(name, FIXTURES)), name, null);
}

const plain = (text: string, page_starts = [0]): ExtractedDocument => ({
  content_type: "text/plain",
  text,
  page_starts,
});
const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/** The invariants every chunking must keep; `maxChars` as used. */
function assertInvariants(doc: ExtractedDocument, chunks: Chunk[], maxChars = MAX_CHUNK_CHARS) {
  const { text } = doc;
  let covered = 0;
  for (const [i, chunk] of chunks.entries()) {
    assert.equal(chunk.ordinal, i);
    assert.equal(text.slice(chunk.start_char, chunk.end_char), chunk.text);
    assert.ok(chunk.text.length > 0 && chunk.text.trim() === chunk.text, `chunk ${i} untrimmed`);
    assert.ok(chunk.text.length <= maxChars, `chunk ${i} has ${chunk.text.length} chars`);
    assert.equal(chunk.page, pageOf(doc.page_starts, chunk.start_char));
    // Everything between chunks is whitespace: no text is lost.
    assert.equal(text.slice(covered, chunk.start_char).trim(), "", `text lost before chunk ${i}`);
    covered = chunk.end_char;
    // A chunk lies on one page.
    const nextPage = doc.page_starts.find((s) => s > chunk.start_char);
    if (nextPage !== undefined) assert.ok(chunk.end_char <= nextPage, `chunk ${i} spans pages`);
  }
  assert.equal(text.slice(covered).trim(), "");
}

/** Whether no chunk starts or ends inside a word (true for text without overlong words). */
function assertWholeWords(doc: ExtractedDocument, chunks: Chunk[]) {
  for (const c of chunks) {
    assert.ok(c.start_char === 0 || isSpace(doc.text[c.start_char - 1]), `chunk ${c.ordinal}`);
    assert.ok(c.end_char === doc.text.length || isSpace(doc.text[c.end_char]), `${c.ordinal}`);
  }
}

Deno.test("every fixture: exact spans, trimmed, bounded, whole words, nothing lost", async () => {
  for (const name of FIXTURE_NAMES) {
    const doc = await fixtureDoc(name);
    const chunks = chunkText(doc);
    assert.ok(chunks.length >= 2, `${name} gave ${chunks.length} chunks`);
    assertInvariants(doc, chunks);
    assertWholeWords(doc, chunks);
  }
});

Deno.test("every fixture: a short chunk is followed by a heading, a page or nothing", async () => {
  for (const name of FIXTURE_NAMES) {
    const doc = await fixtureDoc(name);
    const chunks = chunkText(doc);
    for (const [i, chunk] of chunks.entries()) {
      const next = chunks[i + 1];
      if (chunk.text.length >= MIN_CHUNK_CHARS || next === undefined) continue;
      const headed = doc.content_type === "text/markdown" && /^#{1,6} /.test(next.text);
      assert.ok(headed || doc.page_starts.includes(next.start_char), `${name} chunk ${i}`);
    }
  }
});

Deno.test("Markdown: each section of the fixture starts a chunk; no chunk ends on a heading", async () => {
  const doc = await fixtureDoc("northwind-data-engineer.md");
  const chunks = chunkText(doc);
  assert.deepEqual(chunks.map((c) => c.text.split("\n")[0]), [
    "# Senior Data Engineer",
    "## What you will do",
    "## What you bring",
    "## Nice to have",
  ]);
  for (const c of chunks) assert.doesNotMatch(c.text.split("\n").at(-1)!, /^#{1,6} /);
  // As plain text the same words are cut by size, not by heading.
  const asPlain = chunkText({ ...doc, content_type: "text/plain" });
  assert.ok(asPlain.length < chunks.length);
  assertInvariants(doc, asPlain);
});

Deno.test("Markdown: a heading right after a short opening stays with what follows", () => {
  const body = "Body sentence number one is here. ".repeat(12).trim();
  const text = `# Title\n\nIntro.\n\n## First\n\n${body}\n\n## Second\n\n${body}`;
  const doc: ExtractedDocument = { content_type: "text/markdown", text, page_starts: [0] };
  const chunks = chunkText(doc);
  assert.ok(text.indexOf("## First") < HEADING_BREAK_CHARS);
  assert.deepEqual(chunks.map((c) => c.text.split("\n")[0]), ["# Title", "## Second"]);
  assertInvariants(doc, chunks);
});

Deno.test("Markdown: a cut never leaves a heading as a chunk's last line", () => {
  const para = (n: number) => `Paragraph ${n} covers Airflow and Kubernetes. `.repeat(15).trim();
  const text = `${para(1)}\n\n## Requirements\n\n${para(2)}\n\n## Benefits\n\n${para(3)}`;
  const doc: ExtractedDocument = { content_type: "text/markdown", text, page_starts: [0] };
  // Headings never force a cut here, so only the heading rule keeps them off chunk ends.
  const chunks = chunkText(doc, { headingBreakChars: 10_000 });
  assert.ok(chunks.length >= 3);
  for (const c of chunks) assert.doesNotMatch(c.text.split("\n").at(-1)!, /^#{1,6} /);
  assertInvariants(doc, chunks);
});

Deno.test("PDF fixture: pages of chunks follow page_starts, page 2 holds the benefits", async () => {
  const doc = await fixtureDoc("harbor-valley-registered-nurse.pdf");
  const chunks = chunkText(doc);
  assert.deepEqual([...new Set(chunks.map((c) => c.page))], [1, 2]);
  const second = chunks.filter((c) => c.page === 2);
  assert.equal(second[0].start_char, doc.page_starts[1]);
  assert.ok(second[0].text.startsWith("Benefits"));
  for (const c of chunks.filter((c) => c.page === 1)) assert.ok(c.end_char < doc.page_starts[1]);
  assert.ok(chunks.some((c) => c.page === 1 && c.text.includes("patient assessment")));
  assert.ok(chunks.some((c) => c.page === 2 && /night-shift\s+differential/.test(c.text)));
});

Deno.test("chunking is deterministic", async () => {
  for (const name of FIXTURE_NAMES) {
    const doc = await fixtureDoc(name);
    assert.deepEqual(chunkText(doc), chunkText(structuredClone(doc)));
  }
});

Deno.test("paragraph breaks are preferred over sentence and word breaks", () => {
  const paragraph = (n: number) => `Paragraph ${n} talks about Apache Spark. `.repeat(9).trim();
  const text = [1, 2, 3, 4, 5, 6].map(paragraph).join("\n\n");
  const chunks = chunkText(plain(text));
  assertInvariants(plain(text), chunks);
  for (const c of chunks.slice(0, -1)) {
    assert.equal(text.slice(c.end_char, c.end_char + 2), "\n\n");
    assert.ok(c.text.length >= MIN_CHUNK_CHARS);
  }
});

Deno.test("without paragraphs, chunks end at sentence ends", () => {
  const text = Array.from({ length: 60 }, (_, i) => `Sentence ${i} mentions SQL and Python.`)
    .join(" ");
  const chunks = chunkText(plain(text));
  assert.ok(chunks.length >= 3);
  for (const c of chunks) {
    assert.ok(c.text.endsWith("."));
    assert.ok(c.text.length >= MIN_CHUNK_CHARS || c === chunks.at(-1));
  }
  assertInvariants(plain(text), chunks);
});

Deno.test("without punctuation, chunks end between words within the size window", () => {
  const text = Array.from({ length: 900 }, (_, i) => `word${i % 37}`).join(" ");
  const doc = plain(text);
  const chunks = chunkText(doc);
  assertInvariants(doc, chunks);
  assertWholeWords(doc, chunks);
  for (const c of chunks.slice(0, -1)) assert.ok(c.text.length >= MIN_CHUNK_CHARS);
});

Deno.test("an overlong word is cut at the maximum, never inside a surrogate pair", () => {
  // 2,601 UTF-16 code units and no whitespace; the odd "x" puts a maximum cut mid-pair.
  const word = "x" + "😀".repeat(1_300);
  const doc = plain(`Start ${word} end`);
  const chunks = chunkText(doc);
  assertInvariants(doc, chunks);
  assert.equal(chunks.map((c) => c.text).join("").replaceAll(/\s/g, ""), `Start${word}end`);
  for (const c of chunks) {
    assert.ok(c.text.isWellFormed());
    assert.ok(c.text.length <= MAX_CHUNK_CHARS);
  }
});

Deno.test("blank and whitespace-only documents give no chunks; short ones give one", () => {
  assert.deepEqual(chunkText(plain("")), []);
  assert.deepEqual(chunkText(plain(" \n\n\t ")), []);
  assert.deepEqual(chunkText(plain("\n\n  Forklift operator.  \n")), [
    { ordinal: 0, start_char: 4, end_char: 22, page: 1, text: "Forklift operator." },
  ]);
});

Deno.test("options change the sizes and are validated", () => {
  const text = Array.from({ length: 200 }, (_, i) => `Item ${i} is listed.`).join(" ");
  const chunks = chunkText(plain(text), { minChars: 100, maxChars: 200 });
  assertInvariants(plain(text), chunks, 200);
  for (const c of chunks.slice(0, -1)) assert.ok(c.text.length >= 100);
  assert.throws(() => chunkText(plain(text), { maxChars: 1 }), RangeError);
  assert.throws(() => chunkText(plain(text), { minChars: 0 }), RangeError);
  assert.throws(() => chunkText(plain(text), { maxChars: 10.5 }), RangeError);
});

Deno.test("pageOf: the last page start at or before the offset", () => {
  assert.equal(pageOf([0], 500), 1);
  assert.equal(pageOf([0, 10, 20], 0), 1);
  assert.equal(pageOf([0, 10, 20], 9), 1);
  assert.equal(pageOf([0, 10, 20], 10), 2);
  assert.equal(pageOf([0, 10, 20], 25), 3);
});

/** A small deterministic PRNG (mulberry32) for the random documents. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test("random documents keep every invariant", () => {
  const words = ["Python", "SQL", "Spark", "forklift", "nurse", "e.g.", "5+", "years", "x"];
  const seps = [" ", " ", " ", ". ", "! ", "\n", "\n\n", "\n\n\n", "\t", "  \n \n"];
  for (let seed = 1; seed <= 60; seed++) {
    const next = random(seed);
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
    const pages: string[] = [];
    const pageCount = 1 + Math.floor(next() * 4);
    for (let p = 0; p < pageCount; p++) {
      let page = "";
      const length = Math.floor(next() * 3000);
      while (page.length < length) {
        if (next() < 0.03) page += `\n## Heading ${page.length}\n`;
        page += pick(words) + pick(seps);
      }
      pages.push(page.trim());
    }
    const page_starts: number[] = [];
    let text = "";
    for (const [i, page] of pages.entries()) {
      if (i > 0) text += "\n\n";
      page_starts.push(text.length);
      text += page;
    }
    const doc: ExtractedDocument = {
      content_type: seed % 2 ? "text/markdown" : "application/pdf",
      text,
      page_starts,
    };
    const chunks = chunkText(doc);
    assertInvariants(doc, chunks);
    assertWholeWords(doc, chunks);
  }
});
