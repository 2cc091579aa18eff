/**
 * Text and number formatting for the evidence pack report: HTML escaping, figures with their
 * OEWS markers, and lineage references. Pure and locale-free, so the same document always
 * renders to the same bytes.
 */
import type { Figure, LineageEntry, OewsMarker } from "./document.ts";

/** What an OEWS marker stands for, in BLS's wording. */
export const MARKER_MEANINGS: Record<OewsMarker, string> = {
  "*": "Wage estimate not available.",
  "**": "Employment estimate not available.",
  "#": "Wage at or above the top code of the vintage (shown as ≥ the top code).",
  "~": "Fewer than 0.5 percent of establishments in the industry report the occupation.",
};

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and quoted attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** An integer with thousands separators ("1,687,890"). */
export function groupInt(value: number): string {
  const sign = value < 0 ? "-" : "";
  const digits = String(Math.round(Math.abs(value)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** How a figure's number is written. */
export type Unit = "count" | "annual" | "hourly" | "percent";

/** A number in its unit, without marker ("$239,200", "$115.00", "5.4%", "33,470"). */
export function formatNumber(value: number, unit: Unit): string {
  switch (unit) {
    case "count":
      return groupInt(value);
    case "annual":
      return `$${groupInt(value)}`;
    case "hourly": {
      const [whole, cents] = Math.abs(value).toFixed(2).split(".");
      return `${value < 0 ? "-" : ""}$${groupInt(Number(whole))}.${cents}`;
    }
    case "percent":
      return `${Number(value.toFixed(2))}%`;
  }
}

/** A compact axis label for a dollar amount ("$150k", "$80"). */
export function axisDollars(value: number): string {
  return value >= 1000 ? `$${Number((value / 1000).toFixed(1))}k` : `$${Number(value.toFixed(2))}`;
}

/** The marker as a superscript with its meaning as a tooltip. */
export function markerSup(marker: OewsMarker): string {
  return `<sup class="mk" title="${esc(MARKER_MEANINGS[marker])}">${esc(marker)}</sup>`;
}

/**
 * A figure as table-cell content: the number, or the marker standing in for it ("#" becomes
 * "≥ top code"), or an em dash when nothing was published and no marker says why.
 */
export function figureHtml(figure: Figure, unit: Unit, topCode: number | null = null): string {
  const { value, marker } = figure;
  if (value !== null) return esc(formatNumber(value, unit)) + (marker ? markerSup(marker) : "");
  if (marker === "#") {
    const bound = topCode === null ? "top code" : formatNumber(topCode, unit);
    return `≥&#8239;${esc(bound)}${markerSup("#")}`;
  }
  if (marker) {
    return `<span class="mk-only" title="${esc(MARKER_MEANINGS[marker])}">${esc(marker)}</span>`;
  }
  return `<span class="na" title="Not published">—</span>`;
}

/** Short, stable reference labels ("L1", "L2", …) for lineage entries, in document order. */
export class LineageRefs {
  readonly #labels = new Map<string, string>();

  constructor(entries: readonly LineageEntry[]) {
    entries.forEach((entry, i) => {
      if (!this.#labels.has(entry.id)) this.#labels.set(entry.id, `L${i + 1}`);
    });
  }

  /** The short label of a lineage id, or the id itself when the document does not list it. */
  label(id: string): string {
    return this.#labels.get(id) ?? id;
  }

  /** A superscript reference to a lineage entry, with its full id as a tooltip. */
  sup(id: string): string {
    return `<sup class="ref" title="Source: ${esc(id)}">${esc(this.label(id))}</sup>`;
  }

  /** A reference as a small code, for a Source column. */
  code(id: string): string {
    return `<code class="ref" title="${esc(id)}">${esc(this.label(id))}</code>`;
  }
}
