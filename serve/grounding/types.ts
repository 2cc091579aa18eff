/**
 * Shapes shared by the grounding feature's parts: document extraction (documents.ts),
 * chunking (chunk.ts), retrieval (retrieval.ts, Postgres full-text search), the report engine
 * (report.ts, pure and deterministic) and the routes (mod.ts).
 */

/** Text extracted from one ingested document. */
export interface ExtractedDocument {
  /** The detected type: text/plain, text/markdown, application/pdf or the DOCX type. */
  content_type: string;
  /** The version's text: pages joined with "\n\n" (form feed free). Offsets refer to it. */
  text: string;
  /** Start offset of each page in `text` (one entry for non-paged formats). */
  page_starts: number[];
}

/** One chunk of a version's text, with its character span in that text. */
export interface Chunk {
  ordinal: number;
  start_char: number;
  end_char: number;
  /** 1-based page of start_char. */
  page: number;
  text: string;
}

/** A chunk retrieval found for a report, with where it came from. */
export interface RetrievedChunk {
  /** Stable evidence id of this chunk: "ev_" + hex (derived from version id and ordinal). */
  evidence_id: string;
  chunk_id: string;
  source_id: string;
  source_title: string;
  version_id: string;
  version_number: number;
  ordinal: number;
  start_char: number;
  end_char: number;
  page: number;
  /** sha256 of the chunk text (the excerpt hash reported; the text itself is never returned). */
  excerpt_sha256: string;
  /** The chunk text, for the engine only: never put into a response, trace or log. */
  text: string;
  /** Full-text rank (ts_rank), higher first. */
  rank: number;
}

/** The occupation engine's view of the role: top candidates with their taxonomy content. */
export interface OccupationView {
  taxonomy_release: string;
  taxonomy_version: string;
  candidates: {
    onet_code: string;
    title: string;
    /** Calibrated confidence of the ranking, 0-1. */
    score: number;
    skills: string[];
    tasks: string[];
    technologies: string[];
  }[];
}

/** What the report engine is given. */
export interface ReportInput {
  role_title: string;
  focus_areas: string[];
  top_k: number;
  include_passport: boolean;
  chunks: RetrievedChunk[];
  occupation: OccupationView;
  /** Derived ids (deterministic, from the tenant, the canonical request and the data state). */
  decision_id: string;
  trace_id: string;
}
