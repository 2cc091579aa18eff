/**
 * Document extraction for file ingestion: detects the type of an uploaded file by its content
 * (cross-checked with its name and declared type) and extracts its text.
 *
 * Accepted: plain text and Markdown (UTF-8), PDF with a text layer (unpdf) and DOCX (mammoth).
 * Everything else is refused with a typed {@link DocumentError} whose `reason` is safe to show and
 * store: it names limits and kinds of file, never the document's content, its name or a parser's
 * message. Nothing here logs.
 *
 * The content decides the type (magic bytes: `%PDF-` at offset 0; a ZIP holding word/document.xml
 * is DOCX; images, OLE (.doc), RTF, other ZIPs and other binaries are unsupported_media_type).
 * A file name extension or declared type naming a different accepted kind is refused
 * (unsupported_media_type); for text content, any extension or type other than .txt, .text, .md,
 * .markdown, text/plain and text/markdown (e.g. .html, .svg, .csv, image/svg+xml) is refused too,
 * since sniffing cannot tell those from prose. application/octet-stream says nothing and is
 * ignored. Text is Markdown when the extension is .md/.markdown or the type text/markdown.
 *
 * Text rules (plain text and Markdown uploads):
 * - the bytes must be valid UTF-8 (a UTF-8 BOM is stripped; UTF-16/32 is invalid_encoding);
 * - a NUL byte marks the file as binary: unsupported_media_type;
 * - CRLF and lone CR become LF; form feed and vertical tab become LF; the other C0 controls and
 *   DEL are stripped (tab and LF are kept). Text from PDF and DOCX is normalised the same way
 *   (there NUL is stripped too, since Postgres text cannot hold it).
 */
import { Buffer } from "node:buffer";
import type { ExtractedDocument } from "./types.ts";
import { DocumentError } from "./document_error.ts";
import { readDocxParts } from "./docx_zip.ts";

export { DocumentError, type DocumentErrorCode } from "./document_error.ts";

/** Largest accepted upload: 10 MiB (the route should refuse larger bodies before buffering). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Largest extracted text of one document, in UTF-16 code units (about 500 dense pages). */
export const MAX_TEXT_CHARS = 2_000_000;
/** Most pages read from one PDF; more is file_too_large. */
export const MAX_PDF_PAGES = 500;
/**
 * Fewest non-whitespace characters per page, on average, for a PDF to count as having a text
 * layer: a scan whose only text is page numbers or a stamp is no_extractable_text, not a success.
 */
export const MIN_PDF_CHARS_PER_PAGE = 16;

export const PDF_TYPE = "application/pdf";
export const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

type Kind = "pdf" | "docx" | "text";

const KIND_LABEL: Record<Kind, string> = { pdf: "a PDF", docx: "a DOCX", text: "text" };

/** Extensions and declared types that say which kind a file claims to be. */
const CLAIMS: Record<string, Kind> = {
  pdf: "pdf",
  docx: "docx",
  txt: "text",
  text: "text",
  md: "text",
  markdown: "text",
  [PDF_TYPE]: "pdf",
  "application/x-pdf": "pdf",
  [DOCX_TYPE]: "docx",
  "text/plain": "text",
  "text/markdown": "text",
  "text/x-markdown": "text",
};
/** Declared types that say nothing (browsers and clients send these for anything). */
const GENERIC_TYPES = new Set(["", "application/octet-stream", "binary/octet-stream"]);

/** Extracts the text of an uploaded file, or throws a {@link DocumentError}. */
export async function extractDocument(
  bytes: Uint8Array,
  filename: string | null,
  declaredType: string | null,
): Promise<ExtractedDocument> {
  if (bytes.length > MAX_FILE_BYTES) {
    throw new DocumentError(
      "file_too_large",
      `the file is larger than ${MAX_FILE_BYTES} bytes (10 MiB)`,
    );
  }
  if (bytes.length === 0) throw new DocumentError("no_extractable_text", "the file is empty");
  const ext = extensionOf(filename);
  const type = essenceOf(declaredType);
  const kind = detectKind(bytes);
  checkClaims(kind, ext, type);
  let doc: ExtractedDocument;
  if (kind === "pdf") doc = await extractPdf(bytes);
  else if (kind === "docx") doc = await extractDocx(bytes);
  else doc = extractText(bytes, isMarkdown(ext, type) ? "text/markdown" : "text/plain");
  if (doc.text.length > MAX_TEXT_CHARS) {
    throw new DocumentError(
      "file_too_large",
      `the extracted text is longer than ${MAX_TEXT_CHARS} characters`,
    );
  }
  if (!/[\p{L}\p{N}]/u.test(doc.text)) {
    throw new DocumentError("no_extractable_text", "the document holds no letters or digits");
  }
  return doc;
}

function extensionOf(filename: string | null): string | null {
  const base = (filename ?? "").split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : null;
}

function essenceOf(declaredType: string | null): string {
  return (declaredType ?? "").split(";")[0].trim().toLowerCase();
}

function isMarkdown(ext: string | null, type: string): boolean {
  return ext === "md" || ext === "markdown" || type === "text/markdown" ||
    type === "text/x-markdown";
}

function startsWith(bytes: Uint8Array, magic: number[], at = 0): boolean {
  return magic.every((b, i) => bytes[at + i] === b);
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const IMAGE =
  "images are not supported (reading text from them would need OCR, which is not offered)";

/** Binary formats refused outright: every [offset, bytes] pair of a rule must match. */
const REFUSED_MAGIC: { parts: [number, number[]][]; reason: string }[] = [
  { parts: [[0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]]], reason: IMAGE }, // PNG
  { parts: [[0, [0xff, 0xd8, 0xff]]], reason: IMAGE }, // JPEG
  { parts: [[0, ascii("GIF8")]], reason: IMAGE },
  { parts: [[0, [0x49, 0x49, 0x2a, 0x00]]], reason: IMAGE }, // TIFF, little-endian
  { parts: [[0, [0x4d, 0x4d, 0x00, 0x2a]]], reason: IMAGE }, // TIFF, big-endian
  { parts: [[0, ascii("RIFF")], [8, ascii("WEBP")]], reason: IMAGE },
  // BMP: "BM", a size, then four zero reserved bytes (so text starting "BM" stays text).
  { parts: [[0, ascii("BM")], [6, [0, 0, 0, 0]]], reason: IMAGE },
  // HEIC, HEIF, AVIF (and MP4): a box size whose high byte is zero, then "ftyp".
  { parts: [[0, [0]], [4, ascii("ftyp")]], reason: IMAGE },
  {
    parts: [[0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]]],
    reason: "legacy Word .doc and other OLE files are not supported; save the file as DOCX",
  },
  { parts: [[0, ascii("{\\rtf")]], reason: "RTF is not supported; save the file as DOCX or PDF" },
  {
    parts: [[0, [0xef, 0xbb, 0xbf, ...ascii("{\\rtf")]]],
    reason: "RTF is not supported; save the file as DOCX or PDF",
  },
];

function detectKind(bytes: Uint8Array): Kind {
  // At offset 0 only: text that mentions "%PDF-" early on must stay text.
  if (startsWith(bytes, ascii("%PDF-"))) return "pdf";
  for (const { parts, reason } of REFUSED_MAGIC) {
    if (parts.every(([at, magic]) => startsWith(bytes, magic, at))) {
      throw new DocumentError("unsupported_media_type", reason);
    }
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return "docx"; // confirmed (word/document.xml present) when its parts are read
  }
  if (
    startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]) ||
    startsWith(bytes, [0x00, 0x00, 0xfe, 0xff])
  ) {
    throw new DocumentError("invalid_encoding", "the text is UTF-16 or UTF-32; send UTF-8");
  }
  if (bytes.includes(0)) {
    throw new DocumentError(
      "unsupported_media_type",
      "the file is binary and not a supported type (text, Markdown, PDF or DOCX)",
    );
  }
  return "text";
}

/** Refuses a file whose name or declared type claims a different (or unsupported) kind. */
function checkClaims(kind: Kind, ext: string | null, type: string): void {
  const claims: [string, string][] = [];
  if (ext !== null) claims.push(["file name extension", ext]);
  if (!GENERIC_TYPES.has(type)) claims.push(["declared type", type]);
  for (const [what, value] of claims) {
    const claimed = CLAIMS[value] as Kind | undefined;
    if (claimed === undefined && kind === "text") {
      // A text body under a name like .html, .svg, .csv or .json: not an accepted type.
      throw new DocumentError(
        "unsupported_media_type",
        `the ${what} is not an accepted type (text, Markdown, PDF or DOCX)`,
      );
    }
    if (claimed !== undefined && claimed !== kind) {
      throw new DocumentError(
        "unsupported_media_type",
        `the content is ${KIND_LABEL[kind]} but the ${what} says ${KIND_LABEL[claimed]}`,
      );
    }
  }
}

/** Normalises line ends and strips control characters (see the module comment). */
export function normaliseText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[\f\v]/g, "\n")
    // deno-lint-ignore no-control-regex
    .replace(/[\x00-\x08\x0e-\x1f\x7f]/g, "")
    .toWellFormed();
}

function extractText(bytes: Uint8Array, contentType: string): ExtractedDocument {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new DocumentError("invalid_encoding", "the text is not valid UTF-8");
  }
  text = normaliseText(text);
  return { content_type: contentType, text, page_starts: [0] };
}

async function extractPdf(bytes: Uint8Array): Promise<ExtractedDocument> {
  const { getDocumentProxy, extractText } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js may take over (detach) the buffer it is given.
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  } catch (error) {
    const name = (error as { name?: string })?.name;
    throw new DocumentError(
      "malformed_document",
      name === "PasswordException"
        ? "the PDF is encrypted (password protected)"
        : "the PDF could not be read (it is damaged or not a PDF)",
    );
  }
  try {
    if (pdf.numPages > MAX_PDF_PAGES) {
      throw new DocumentError("file_too_large", `the PDF has more than ${MAX_PDF_PAGES} pages`);
    }
    let pages: string[];
    try {
      pages = (await extractText(pdf, { mergePages: false })).text;
    } catch {
      throw new DocumentError("malformed_document", "the PDF's text could not be read");
    }
    const page_starts: number[] = [];
    let text = "";
    let visible = 0;
    for (const [i, raw] of pages.entries()) {
      const page = normaliseText(raw).trim();
      if (i > 0) text += "\n\n";
      page_starts.push(text.length);
      text += page;
      visible += page.replace(/\s+/g, "").length;
      if (text.length > MAX_TEXT_CHARS) break; // refused by the caller
    }
    if (visible < MIN_PDF_CHARS_PER_PAGE * Math.max(1, pages.length)) {
      throw new DocumentError(
        "no_extractable_text",
        "the PDF has no text layer (a scan or images only); OCR is not supported",
      );
    }
    return { content_type: PDF_TYPE, text, page_starts };
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}

/** Whether assigning `__proto__` works, which mammoth needs (Deno's --unsafe-proto flag). */
function protoAssignmentWorks(): boolean {
  const probe: Record<string, unknown> = {};
  probe["__proto__"] = Array.prototype;
  return Object.getPrototypeOf(probe) === Array.prototype;
}

async function extractDocx(bytes: Uint8Array): Promise<ExtractedDocument> {
  if (!protoAssignmentWorks()) {
    // A deployment fault, not the document's: surfaces as a 500 and is logged by the app.
    throw new Error("DOCX extraction needs Deno's --unsafe-proto flag (mammoth assigns __proto__)");
  }
  const repacked = readDocxParts(bytes);
  const mammoth = (await import("mammoth")).default;
  let raw: string;
  try {
    // mammoth's Node build reads `path` or `buffer` only (not `arrayBuffer`).
    const buffer = Buffer.from(repacked.buffer, repacked.byteOffset, repacked.byteLength);
    raw = (await mammoth.extractRawText({ buffer })).value;
  } catch {
    throw new DocumentError("malformed_document", "the DOCX could not be read");
  }
  const text = normaliseText(raw).trim();
  if (text === "") throw new DocumentError("no_extractable_text", "the DOCX holds no text");
  return { content_type: DOCX_TYPE, text, page_starts: [0] };
}
