/** The typed error of document extraction (documents.ts, docx_zip.ts). */

/**
 * Stable codes of extraction failures. Suggested handling by the route: unsupported_media_type
 * 415 and file_too_large 413 (refused before any run); no_extractable_text, malformed_document
 * and invalid_encoding end the ingestion run as failed with this code and reason.
 */
export type DocumentErrorCode =
  | "unsupported_media_type"
  | "file_too_large"
  | "no_extractable_text"
  | "malformed_document"
  | "invalid_encoding";

/** An extraction failure. `reason` is safe to return and store: it never holds document text. */
export class DocumentError extends Error {
  constructor(readonly code: DocumentErrorCode, readonly reason: string) {
    super(`${code}: ${reason}`);
    this.name = "DocumentError";
  }
}
