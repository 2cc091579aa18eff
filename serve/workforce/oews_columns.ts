/**
 * An OEWS file's rows in columns: how the evidence snapshot stores them. As objects, the shared
 * data's 17,000 detailed rows and their 342,483 figures took about 140 ms to deserialise and 50 ms
 * more to intern at every start, with the collections that come with them; in columns they are a
 * few typed arrays and one list of distinct strings. The rows are made again at load, each with
 * its figures built on first use (a request reads the figures of a few rows).
 */
import { OEWS_MEASURES } from "../../build/evidence/pipeline.ts";
import type { Figure, OewsMarker } from "./document.ts";
import type { OewsMeasure, OewsRow } from "./artifact.ts";

/** The markers OEWS uses, by their number in the columns. */
const MARKERS: readonly OewsMarker[] = ["*", "**", "#", "~"];
/** In `markers`: no figure for this measure, or a figure without a marker. */
const NO_FIGURE = -2;
const NO_MARKER = -1;
/** The text fields of a row, in the order `text` holds them. */
const TEXT = ["naics", "naics_title", "own_code", "occ_code", "occ_title", "o_group"] as const;
const ANNUAL_ONLY = 1;
const HOURLY_ONLY = 2;

/** One OEWS file's rows, in the order of its occupations and of their rows. */
export interface OewsColumns {
  /** The file's SHA-256, every row's. */
  sha256: string;
  /** Distinct text values; `text` holds their positions. */
  strings: string[];
  /** Per row, TEXT.length positions in `strings`. */
  text: Int32Array;
  line: Int32Array;
  /** Per row: 1 annual only, 2 hourly only. */
  flags: Uint8Array;
  /** Per row, one value per OEWS measure (NaN where the figure has no value). */
  values: Float64Array;
  /** Per row and measure: NO_FIGURE, NO_MARKER or the marker's number in MARKERS. */
  markers: Int8Array;
}

/** Writes rows (all of one file) as columns; throws on a value the columns cannot hold. */
export function toColumns(sha256: string, rows: readonly OewsRow[]): OewsColumns {
  const strings: string[] = [];
  const position = new Map<string, number>();
  const width = OEWS_MEASURES.length;
  const columns: OewsColumns = {
    sha256,
    strings,
    text: new Int32Array(rows.length * TEXT.length),
    line: new Int32Array(rows.length),
    flags: new Uint8Array(rows.length),
    values: new Float64Array(rows.length * width),
    markers: new Int8Array(rows.length * width),
  };
  rows.forEach((row, i) => {
    if (row.sha256 !== sha256) throw new Error(`an OEWS row of another file (line ${row.line})`);
    TEXT.forEach((field, k) => {
      const text = row[field];
      let at = position.get(text);
      if (at === undefined) position.set(text, at = strings.push(text) - 1);
      columns.text[i * TEXT.length + k] = at;
    });
    columns.line[i] = row.line;
    columns.flags[i] = (row.annual_only ? ANNUAL_ONLY : 0) | (row.hourly_only ? HOURLY_ONLY : 0);
    OEWS_MEASURES.forEach((measure, m) => {
      const figure = row.figures[measure];
      const marker = figure?.marker ? MARKERS.indexOf(figure.marker) : NO_MARKER;
      if (marker === -1 && figure?.marker) throw new Error(`unknown OEWS marker ${figure.marker}`);
      columns.values[i * width + m] = figure?.value ?? NaN;
      columns.markers[i * width + m] = figure ? marker : NO_FIGURE;
    });
  });
  return columns;
}

/** A row read from columns: its figures are built when first read, then kept. */
class ColumnRow implements OewsRow {
  readonly naics: string;
  readonly naics_title: string;
  readonly own_code: string;
  readonly occ_code: string;
  readonly occ_title: string;
  readonly o_group: string;
  readonly line: number;
  readonly annual_only: boolean;
  readonly hourly_only: boolean;
  #figures: OewsRow["figures"] | null = null;

  constructor(
    readonly sha256: string,
    private readonly columns: OewsColumns,
    private readonly at: number,
  ) {
    const { strings, text } = columns;
    const t = at * TEXT.length;
    this.naics = strings[text[t]];
    this.naics_title = strings[text[t + 1]];
    this.own_code = strings[text[t + 2]];
    this.occ_code = strings[text[t + 3]];
    this.occ_title = strings[text[t + 4]];
    this.o_group = strings[text[t + 5]];
    this.line = columns.line[at];
    this.annual_only = (columns.flags[at] & ANNUAL_ONLY) !== 0;
    this.hourly_only = (columns.flags[at] & HOURLY_ONLY) !== 0;
  }

  get figures(): OewsRow["figures"] {
    if (this.#figures) return this.#figures;
    const figures: Partial<Record<OewsMeasure, Figure>> = {};
    const { values, markers } = this.columns;
    const width = OEWS_MEASURES.length;
    OEWS_MEASURES.forEach((measure, m) => {
      const marker = markers[this.at * width + m];
      if (marker === NO_FIGURE) return;
      const value = values[this.at * width + m];
      figures[measure] = {
        value: Number.isNaN(value) ? null : value,
        marker: marker === NO_MARKER ? null : MARKERS[marker],
      };
    });
    return this.#figures = figures;
  }
}

/** The rows of columns, by occupation in their stored order. */
export function fromColumns(columns: OewsColumns): Map<string, OewsRow[]> {
  const rows = new Map<string, OewsRow[]>();
  for (let i = 0; i < columns.line.length; i++) {
    const row = new ColumnRow(columns.sha256, columns, i);
    let list = rows.get(row.occ_code);
    if (!list) rows.set(row.occ_code, list = []);
    list.push(row);
  }
  return rows;
}
