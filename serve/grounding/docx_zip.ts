/**
 * Zip-bomb-safe reading of a DOCX package before mammoth sees it.
 *
 * The ZIP central directory is read first (fflate), and the file is refused when it has too many
 * entries or when word/document.xml, or all the XML parts together, declare more than the limits
 * below. Only the XML and .rels parts (what text extraction reads; never media) are inflated, each
 * into a buffer of its declared size, so a part that lies about its size cannot grow past it. They
 * are repacked, stored uncompressed, into the small package that is handed to mammoth.
 */
import { type Unzipped, unzipSync, zipSync } from "fflate";
import { DocumentError } from "./document_error.ts";

/** Largest declared uncompressed size of word/document.xml: 32 MiB. */
export const MAX_DOCX_DOCUMENT_XML_BYTES = 32 * 1024 * 1024;
/** Largest declared uncompressed size of all XML parts together: 64 MiB. */
export const MAX_DOCX_XML_BYTES = 64 * 1024 * 1024;
/** Most entries in a DOCX package. */
export const MAX_DOCX_ENTRIES = 5_000;

const MAIN_PART = "word/document.xml";

/** Returns a repacked DOCX holding only its (size-checked) XML parts, or throws DocumentError. */
export function readDocxParts(bytes: Uint8Array): Uint8Array {
  let entries = 0;
  let xmlBytes = 0;
  let hasMain = false;
  let parts: Unzipped;
  try {
    parts = unzipSync(bytes, {
      filter(file) {
        entries += 1;
        if (entries > MAX_DOCX_ENTRIES) {
          throw new DocumentError(
            "file_too_large",
            `the DOCX has more than ${MAX_DOCX_ENTRIES} parts`,
          );
        }
        if (file.name === MAIN_PART) {
          hasMain = true;
          if (file.originalSize > MAX_DOCX_DOCUMENT_XML_BYTES) {
            throw new DocumentError(
              "file_too_large",
              `the DOCX's main part expands to more than ${MAX_DOCX_DOCUMENT_XML_BYTES} bytes`,
            );
          }
        }
        if (!/\.(xml|rels)$/i.test(file.name)) return false;
        xmlBytes += file.originalSize;
        if (xmlBytes > MAX_DOCX_XML_BYTES) {
          throw new DocumentError(
            "file_too_large",
            `the DOCX's XML parts expand to more than ${MAX_DOCX_XML_BYTES} bytes`,
          );
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError("malformed_document", "the DOCX is not a readable ZIP package");
  }
  if (!hasMain) {
    throw new DocumentError(
      "unsupported_media_type",
      "the file is a ZIP archive but not a DOCX (it has no word/document.xml)",
    );
  }
  return zipSync(parts, { level: 0 });
}
