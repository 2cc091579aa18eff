/**
 * Document extraction: every accepted type from the fixtures in fixtures/grounding/, every error
 * code, the cross-checks of content, file name and declared type, the bounds (size, pages, zip
 * bombs) and that no error carries document content. Runs with --unsafe-proto (deno task test).
 */
import assert from "node:assert/strict";
import { strToU8, zipSync } from "fflate";
import {
  DocumentError,
  type DocumentErrorCode,
  DOCX_TYPE,
  extractDocument,
  MAX_FILE_BYTES,
  MAX_PDF_PAGES,
  MAX_TEXT_CHARS,
  PDF_TYPE,
} from "./documents.ts";
import { MAX_DOCX_DOCUMENT_XML_BYTES, MAX_DOCX_ENTRIES } from "./docx_zip.ts";

const FIXTURES = new URL("../../fixtures/grounding/", import.meta.url);
const fixture = (name: string) => Deno.readFile(new URL(name, FIXTURES));
const utf8 = (s: string) => new TextEncoder().encode(s);

/** A marker that must never appear in an error. */
const MARKER = "QZX7MARKER4415";

async function refused(
  code: DocumentErrorCode,
  bytes: Uint8Array,
  filename: string | null = null,
  declaredType: string | null = null,
): Promise<DocumentError> {
  try {
    await extractDocument(bytes, filename, declaredType);
  } catch (error) {
    assert.ok(error instanceof DocumentError, `expected a DocumentError, got ${error}`);
    assert.equal(error.code, code, error.reason);
    for (const shown of [error.message, error.reason, String(error), JSON.stringify(error)]) {
      assert.ok(!shown.includes(MARKER), "an error message holds document content");
      assert.ok(!shown.toLowerCase().includes(MARKER.toLowerCase()));
    }
    return error;
  }
  throw new assert.AssertionError({ message: `expected ${code}, extraction succeeded` });
}

/** A minimal DOCX package whose word/document.xml holds `paragraphs` (or raw `documentXml`). */
function docx(paragraphs: string[], documentXml?: string, extra: Record<string, string> = {}) {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join("");
  const xml = documentXml ??
    `<?xml version="1.0" encoding="UTF-8"?><w:document ` +
      `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
      `<w:body>${body}</w:body></w:document>`;
  const files: Record<string, Uint8Array> = {
    "[Content_Types].xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types ` +
        `xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="xml" ContentType="application/xml"/></Types>`,
    ),
    "_rels/.rels": strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships ` +
        `xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/` +
        `relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    "word/document.xml": strToU8(xml),
  };
  for (const [name, content] of Object.entries(extra)) files[name] = strToU8(content);
  return zipSync(files);
}

/** A hand-written PDF: one page per entry, each line of a page drawn in Helvetica. */
function pdf(pages: string[][]): Uint8Array {
  const objects: string[] = [];
  const font = 3;
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[font] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  const kids: number[] = [];
  const contentIds = new Map<string, number>();
  for (const lines of pages) {
    const ops = lines.map((l, i) =>
      `${i === 0 ? "72 720 Td" : "0 -16 Td"} (${l.replace(/[()\\]/g, "\\$&")}) Tj`
    ).join("\n");
    const stream = `BT /F1 12 Tf\n${ops}\nET`;
    let content = contentIds.get(stream);
    if (content === undefined) {
      content = objects.length;
      objects[content] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
      contentIds.set(stream, content);
    }
    const page = objects.length;
    objects[page] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ` +
      `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`;
    kids.push(page);
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] ` +
    `/Count ${kids.length} >>`;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) {
    out += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  }
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return utf8(out);
}

Deno.test("Markdown fixture: detected by extension, text kept verbatim, one page", async () => {
  const bytes = await fixture("northwind-data-engineer.md");
  const doc = await extractDocument(bytes, "northwind-data-engineer.md", null);
  assert.equal(doc.content_type, "text/markdown");
  assert.equal(doc.text, new TextDecoder().decode(bytes));
  assert.deepEqual(doc.page_starts, [0]);
  assert.match(doc.text, /At least 5 years of professional experience/);
  // The declared type alone also makes it Markdown; text/plain and no hints make it plain text.
  assert.equal((await extractDocument(bytes, null, "text/markdown")).content_type, "text/markdown");
  assert.equal((await extractDocument(bytes, "x.markdown", null)).content_type, "text/markdown");
  assert.equal((await extractDocument(bytes, null, null)).content_type, "text/plain");
});

Deno.test("plain-text fixture: text/plain, with a declared type that has parameters", async () => {
  const bytes = await fixture("bluefjord-warehouse-associate.txt");
  const doc = await extractDocument(bytes, "posting.txt", "text/plain; charset=utf-8");
  assert.equal(doc.content_type, "text/plain");
  assert.match(doc.text, /^WAREHOUSE ASSOCIATE\n/);
  assert.match(doc.text, /Operate a forklift/);
  assert.deepEqual(doc.page_starts, [0]);
});

Deno.test("text: BOM stripped, CRLF and CR to LF, controls stripped, tab kept", async () => {
  const bytes = new Uint8Array([
    0xef,
    0xbb,
    0xbf,
    ...utf8("Line one\r\nLine two\rLine\tthree\x07\x1b\fpage two\x7f é"),
  ]);
  const doc = await extractDocument(bytes, "notes.txt", null);
  assert.equal(doc.text, "Line one\nLine two\nLine\tthree\npage two é");
});

Deno.test("DOCX fixture: detected by content alone, paragraphs separated by blank lines", async () => {
  const bytes = await fixture("bluefjord-data-engineer.docx");
  for (
    const [name, type] of [[null, null], ["role.docx", DOCX_TYPE], [
      "role",
      "application/octet-stream",
    ]]
  ) {
    const doc = await extractDocument(bytes, name, type);
    assert.equal(doc.content_type, DOCX_TYPE);
    assert.deepEqual(doc.page_starts, [0]);
    assert.match(doc.text, /^Data Engineer\n\nBluefjord Logistics/);
    assert.match(doc.text, /About 2 years of experience/);
    assert.match(doc.text, /This is a junior to mid-level role\./);
    assert.equal(doc.text, doc.text.trim());
  }
});

Deno.test("PDF fixture: two pages joined by a blank line, page_starts point at each page", async () => {
  const bytes = await fixture("harbor-valley-registered-nurse.pdf");
  const doc = await extractDocument(bytes, "rn.pdf", "application/pdf");
  assert.equal(doc.content_type, PDF_TYPE);
  assert.equal(doc.page_starts.length, 2);
  assert.equal(doc.page_starts[0], 0);
  assert.ok(doc.text.startsWith("Registered Nurse, Medical-Surgical Unit\n"));
  assert.ok(doc.text.slice(doc.page_starts[1]).startsWith("Benefits\n"));
  assert.equal(doc.text.slice(doc.page_starts[1] - 2, doc.page_starts[1]), "\n\n");
  assert.match(doc.text.slice(0, doc.page_starts[1]), /patient assessment/);
  assert.match(doc.text.slice(doc.page_starts[1]), /night-shift\s+differential/);
  assert.ok(!doc.text.includes("\f") && !doc.text.includes("\0"));
  // Content wins over a generic declared type; the input buffer is left intact.
  const copy = bytes.slice();
  await extractDocument(copy, null, "application/octet-stream");
  assert.deepEqual(copy, bytes);
});

Deno.test("hand-made PDF: empty pages keep their page start", async () => {
  const doc = await extractDocument(
    pdf([["Forklift operator wanted for the night shift"], [], ["Apply at the Reno office"]]),
    "a.pdf",
    null,
  );
  assert.equal(doc.page_starts.length, 3);
  assert.equal(
    doc.text.slice(doc.page_starts[0], doc.page_starts[1]).trim(),
    doc.text.split("\n\n")[0],
  );
  assert.ok(doc.text.slice(doc.page_starts[2]).startsWith("Apply at the Reno office"));
  assert.ok(doc.page_starts[0] < doc.page_starts[1] && doc.page_starts[1] < doc.page_starts[2]);
});

Deno.test("extraction is deterministic", async () => {
  for (const name of ["harbor-valley-registered-nurse.pdf", "bluefjord-data-engineer.docx"]) {
    const bytes = await fixture(name);
    assert.deepEqual(
      await extractDocument(bytes, name, null),
      await extractDocument(bytes, name, null),
    );
  }
});

Deno.test("unsupported_media_type: images, legacy .doc, RTF, plain ZIP, unknown binary", async () => {
  await refused("unsupported_media_type", await fixture("badge.png"), "badge.png", "image/png");
  await refused("unsupported_media_type", await fixture("badge.png"), "badge.txt", "text/plain");
  const pad = (head: number[]) => new Uint8Array([...head, ...new Uint8Array(64).fill(0x41)]);
  const heads: number[][] = [
    [0xff, 0xd8, 0xff, 0xe0], // JPEG
    [...utf8("GIF89a")],
    [0x49, 0x49, 0x2a, 0x00], // TIFF
    [0x4d, 0x4d, 0x00, 0x2a],
    [...utf8("RIFF"), 0x10, 0, 0, 0, ...utf8("WEBPVP8 ")],
    [0, 0, 0, 0x18, ...utf8("ftypheic")], // HEIC
    [...utf8("BM"), 0x36, 0x10, 0, 0, 0, 0, 0, 0], // BMP
    [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], // OLE (.doc)
    [...utf8("{\\rtf1\\ansi " + MARKER)],
    [0x1f, 0x8b, 0x08, 0x00], // gzip: unknown binary
  ];
  for (const head of heads) await refused("unsupported_media_type", pad(head));
  const zip = zipSync({ "notes/readme.txt": strToU8(`A ZIP that is not a DOCX ${MARKER}`) });
  const error = await refused("unsupported_media_type", zip, "archive.zip");
  assert.match(error.reason, /not a DOCX/);
});

Deno.test("unsupported_media_type: text under another name or type, kinds that disagree", async () => {
  const text = utf8(`<svg xmlns="http://www.w3.org/2000/svg"><text>${MARKER}</text></svg>`);
  await refused("unsupported_media_type", text, "drawing.svg");
  await refused("unsupported_media_type", text, null, "image/svg+xml");
  await refused("unsupported_media_type", utf8(`<p>${MARKER}</p>`), `${MARKER}.html`);
  await refused("unsupported_media_type", utf8(`Just text ${MARKER}`), "posting.pdf");
  await refused("unsupported_media_type", utf8(`Just text ${MARKER}`), null, DOCX_TYPE);
  const docxBytes = await fixture("bluefjord-data-engineer.docx");
  await refused("unsupported_media_type", docxBytes, "posting.pdf");
  const pdfBytes = await fixture("harbor-valley-registered-nurse.pdf");
  await refused("unsupported_media_type", pdfBytes, "posting.md");
  await refused("unsupported_media_type", pdfBytes, null, "text/plain");
});

Deno.test("weak magic bytes do not catch ordinary text", async () => {
  for (const text of ["BMW Group is hiring a data engineer.", "RIFF is a file format.", "GIF"]) {
    assert.equal((await extractDocument(utf8(text), "a.txt", null)).text, text);
  }
  const mention = "Export the report as %PDF-1.7 and send it to payroll.";
  assert.equal((await extractDocument(utf8(mention), null, null)).content_type, "text/plain");
});

Deno.test("file_too_large: raw size, extracted text, PDF pages, DOCX parts", async () => {
  const big = new Uint8Array(MAX_FILE_BYTES + 1).fill(0x61);
  const error = await refused("file_too_large", big, "big.txt");
  assert.match(error.reason, /10 MiB/);
  await extractDocument(utf8("a ".repeat(MAX_TEXT_CHARS / 2)), "fits.txt", null);
  await refused("file_too_large", utf8(`${MARKER} `.repeat(MAX_TEXT_CHARS / 10)), "long.txt");
  const pages = Array.from({ length: MAX_PDF_PAGES + 1 }, () => ["Warehouse associate"]);
  assert.match((await refused("file_too_large", pdf(pages))).reason, /500 pages/);
  const bomb = zipSync({
    "word/document.xml": new Uint8Array(MAX_DOCX_DOCUMENT_XML_BYTES + 1).fill(0x20),
  }, { level: 9 });
  assert.ok(bomb.length < 200_000);
  assert.match((await refused("file_too_large", bomb, "bomb.docx")).reason, /main part/);
  const many: Record<string, Uint8Array> = { "word/document.xml": strToU8("<x/>") };
  for (let i = 0; i < MAX_DOCX_ENTRIES; i++) many[`word/media/p${i}.xml`] = new Uint8Array();
  await refused("file_too_large", zipSync(many), "many.docx");
});

Deno.test("a DOCX part that lies about its size cannot grow past it", async () => {
  const xml =
    `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
    `<w:body><w:p><w:r><w:t>${MARKER}${" ".repeat(4_000_000)}</w:t></w:r></w:p></w:body>` +
    `</w:document>`;
  const zip = docx([], xml);
  assert.match((await extractDocument(zip, "honest.docx", null)).text, new RegExp(MARKER));
  // Rewrite the declared uncompressed size of word/document.xml (local header and central
  // directory) to 100 bytes: the part is inflated into 100 bytes, which is not a document.
  const view = new DataView(zip.buffer);
  let patched = 0;
  for (let at = 0; at + 46 < zip.length; at++) {
    const signature = view.getUint32(at, true);
    const nameAt = signature === 0x04034b50 ? at + 30 : signature === 0x02014b50 ? at + 46 : -1;
    if (nameAt < 0) continue;
    const nameLength = view.getUint16(at + (signature === 0x04034b50 ? 26 : 28), true);
    const name = new TextDecoder().decode(zip.subarray(nameAt, nameAt + nameLength));
    if (name === "word/document.xml") {
      view.setUint32(at + (signature === 0x04034b50 ? 22 : 24), 100, true);
      patched++;
    }
  }
  assert.equal(patched, 2);
  await refused("malformed_document", zip, "liar.docx");
});

Deno.test("no_extractable_text: scan-like PDF, page numbers only, empty files and DOCX", async () => {
  const scan = await refused("no_extractable_text", await fixture("scanned-no-text.pdf"), "s.pdf");
  assert.match(scan.reason, /OCR/);
  await refused("no_extractable_text", pdf([["1"], ["2"], [MARKER]]), "numbers.pdf");
  await refused("no_extractable_text", new Uint8Array(), "empty.txt");
  await refused("no_extractable_text", utf8(" \n\t\r\n "), "blank.md");
  await refused("no_extractable_text", utf8("--- *** ---"), "rules.md");
  await refused("no_extractable_text", docx([]), "empty.docx");
  await refused("no_extractable_text", docx(["   "]), "blank.docx");
});

Deno.test("malformed_document: corrupt and encrypted PDF, broken DOCX", async () => {
  const corrupt = await refused("malformed_document", await fixture("corrupt.pdf"), "c.pdf");
  assert.match(corrupt.reason, /PDF/);
  const encrypted = await refused("malformed_document", await fixture("encrypted.pdf"), "e.pdf");
  assert.match(encrypted.reason, /encrypted/);
  const notZip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...utf8(`${MARKER} not a zip at all`)]);
  await refused("malformed_document", notZip, "broken.docx");
  await refused("malformed_document", docx([], `<w:document><w:body><w:p>${MARKER}`), "x.docx");
  const truncated = (await fixture("bluefjord-data-engineer.docx")).slice(0, 900);
  await refused("malformed_document", truncated, "truncated.docx");
});

Deno.test("invalid_encoding: Latin-1 and UTF-16 text", async () => {
  const latin1 = new Uint8Array([...utf8(`Caf`), 0xe9, ...utf8(` ${MARKER} menu`)]);
  const error = await refused("invalid_encoding", latin1, "menu.txt", "text/plain");
  assert.match(error.reason, /UTF-8/);
  const utf16 = new Uint8Array([
    0xff,
    0xfe,
    ...[...`Hi ${MARKER}`].flatMap((c) => [c.charCodeAt(0), 0]),
  ]);
  await refused("invalid_encoding", utf16, "notes.txt");
});

Deno.test("errors are DocumentErrors with a code and a reason, and name no file", async () => {
  const error = await refused("unsupported_media_type", utf8("x"), `${MARKER}.exe`);
  assert.equal(error.name, "DocumentError");
  assert.equal(error.message, `${error.code}: ${error.reason}`);
  assert.ok(error.reason.length > 0 && error.reason.length <= 200);
});

Deno.test("without --unsafe-proto, DOCX extraction fails loudly, not as a bad document", async () => {
  const script = `
    import { extractDocument } from ${
    JSON.stringify(new URL("./documents.ts", import.meta.url).href)
  };
    const bytes = await Deno.readFile(${
    JSON.stringify(new URL("bluefjord-data-engineer.docx", FIXTURES).pathname)
  });
    try { await extractDocument(bytes, "a.docx", null); console.log("ok"); }
    catch (e) { console.log(e.name + " " + e.message); }
  `;
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", script],
    cwd: new URL("../..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "null",
  }).output();
  const out = new TextDecoder().decode(stdout);
  assert.match(out, /^Error DOCX extraction needs Deno's --unsafe-proto flag/);
});
