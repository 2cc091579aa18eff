/**
 * Deterministic chunking of an extracted document into retrieval units.
 *
 * Chunks hold at most MAX_CHUNK_CHARS characters and, unless a better boundary forces them
 * shorter, at least MIN_CHUNK_CHARS. Each cut is the latest boundary of the best kind found
 * between MIN and MAX characters from the chunk's start, in this order: a blank line (paragraph
 * or page break), the end of a sentence, a line break, then any whitespace. So a chunk never ends
 * mid-word, except when one "word" (no whitespace at all) is longer than MAX_CHUNK_CHARS: it is
 * cut at MAX (never inside a surrogate pair), so that no chunk grows without bound.
 *
 * Every page starts a new chunk, so a chunk's text lies on one page. In Markdown, a heading line
 * starts a new chunk once the current one holds HEADING_BREAK_CHARS characters (shorter sections
 * are kept together with the next one), and no cut leaves a heading as the last line of a chunk.
 * Fenced code blocks are not special.
 *
 * Chunks are trimmed: leading and trailing whitespace is outside every span, so
 * `doc.text.slice(chunk.start_char, chunk.end_char) === chunk.text` and no chunk is empty or
 * whitespace-only. Ordinals count from 0 in text order; `page` is the 1-based page holding
 * start_char (from doc.page_starts).
 */
import type { Chunk, ExtractedDocument } from "./types.ts";

/** Soft lower bound of a chunk's length (a heading or the document's end may cut sooner). */
export const MIN_CHUNK_CHARS = 600;
/** Hard upper bound of a chunk's length. */
export const MAX_CHUNK_CHARS = 1000;
/** A Markdown heading starts a new chunk once the current chunk is at least this long. */
export const HEADING_BREAK_CHARS = 200;

/** Size options of {@link chunkText}; the defaults are the constants above. */
export interface ChunkOptions {
  minChars?: number;
  maxChars?: number;
  headingBreakChars?: number;
}

/** Boundary kinds, best first: each regex's match end (or `at` group start) is a cut point. */
const BOUNDARIES: RegExp[] = [
  /[ \t]*\n[ \t]*\n/g, // blank line: cut before it
  /[.!?…]["'”’)\]]*(?=\s)/g, // sentence end: cut after it
  /[ \t]*\n/g, // line break: cut before it
  /\s+/g, // any whitespace: cut before it
];
/** Whether a boundary kind cuts at the match's end (sentence end) or its start (whitespace). */
const CUT_AT_END = [false, true, false, false];

const HEADING_LINE = /^#{1,6}[ \t]/;

/** Splits a document's text into chunks with exact character spans and pages. */
export function chunkText(doc: ExtractedDocument, options: ChunkOptions = {}): Chunk[] {
  const maxChars = options.maxChars ?? MAX_CHUNK_CHARS;
  const minChars = Math.min(options.minChars ?? MIN_CHUNK_CHARS, maxChars);
  // At least 1: a heading at the chunk's own start never cuts it.
  const headingChars = Math.max(1, options.headingBreakChars ?? HEADING_BREAK_CHARS);
  if (!Number.isInteger(maxChars) || maxChars < 2 || !Number.isInteger(minChars) || minChars < 1) {
    throw new RangeError("chunk sizes must be integers, maxChars >= 2 and minChars >= 1");
  }
  const { text } = doc;
  const markdown = doc.content_type === "text/markdown";
  const headings = markdown ? headingStarts(text) : [];
  const chunks: Chunk[] = [];
  let pos = skipSpace(text, 0);
  let nextHeading = 0;
  let nextPage = 0;
  while (pos < text.length) {
    while (nextHeading < headings.length && headings[nextHeading] < pos + headingChars) {
      nextHeading++;
    }
    while (nextPage < doc.page_starts.length && doc.page_starts[nextPage] <= pos) nextPage++;
    const forced = Math.min(
      headings[nextHeading] ?? Infinity,
      doc.page_starts[nextPage] ?? Infinity,
    );
    let cut: number;
    if (forced <= pos + maxChars) cut = forced;
    else if (trimEnd(text, pos, text.length) - pos <= maxChars) cut = text.length;
    else cut = findCut(text, pos, minChars, maxChars, markdown);
    const end = trimEnd(text, pos, cut);
    chunks.push({
      ordinal: chunks.length,
      start_char: pos,
      end_char: end,
      page: pageOf(doc.page_starts, pos),
      text: text.slice(pos, end),
    });
    pos = skipSpace(text, cut);
  }
  return chunks;
}

/** The best cut in (pos, pos + maxChars] for a chunk that cannot take the rest of the text. */
function findCut(
  text: string,
  pos: number,
  minChars: number,
  maxChars: number,
  markdown: boolean,
): number {
  const window = text.slice(pos, pos + maxChars + 1);
  for (const [kind, boundary] of BOUNDARIES.entries()) {
    let best = -1;
    boundary.lastIndex = 0;
    for (let m = boundary.exec(window); m !== null; m = boundary.exec(window)) {
      const at = CUT_AT_END[kind] ? m.index + m[0].length : m.index;
      if (at >= minChars && at <= maxChars && !(markdown && endsWithHeading(window, at))) {
        best = at;
      }
      if (m[0].length === 0) boundary.lastIndex++;
    }
    if (best > 0) return pos + best;
  }
  // No boundary between min and max: the latest whitespace before min, else a hard cut.
  const space = window.slice(0, minChars).search(/\s\S*$/);
  if (space > 0) return pos + space;
  let hard = pos + maxChars;
  const code = text.charCodeAt(hard - 1);
  if (code >= 0xd800 && code <= 0xdbff) hard -= 1; // keep a surrogate pair whole
  return hard;
}

/** Whether the line ending at `at` (in window) is a Markdown heading. */
function endsWithHeading(window: string, at: number): boolean {
  const lineStart = window.lastIndexOf("\n", at - 1) + 1;
  return HEADING_LINE.test(window.slice(lineStart, at));
}

/** Offsets of the Markdown heading lines of text, ascending. */
function headingStarts(text: string): number[] {
  const starts: number[] = [];
  for (const m of text.matchAll(/^#{1,6}[ \t]/gm)) starts.push(m.index);
  return starts;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at])) at++;
  return at;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && /\s/.test(text[end - 1])) end--;
  return end;
}

/** The 1-based page whose start is the last one at or before offset. */
export function pageOf(pageStarts: number[], offset: number): number {
  let lo = 0;
  let hi = pageStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pageStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
