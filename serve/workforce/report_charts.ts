/**
 * Inline SVG charts of the evidence pack report: annual wage percentiles and employment by
 * industry. Plain SVG styled by the report's one stylesheet (no style attributes, no fonts, no
 * links), titled and described for screen readers; the same numbers are also in tables.
 */
import type { Figure, OewsMarker } from "./document.ts";
import { axisDollars, esc, formatNumber, groupInt, MARKER_MEANINGS } from "./report_format.ts";

const WIDTH = 880;

/** A round step for about `target` ticks between 0 and max. */
function niceStep(max: number, target: number): number {
  const raw = max / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return step ?? 10 * power;
}

/** Ticks from 0 to a round maximum covering `max`. */
function ticks(max: number, target = 5): number[] {
  const step = niceStep(Math.max(max, 1), target);
  const top = Math.ceil(max / step) * step;
  const out: number[] = [];
  for (let i = 0; i * step <= top + step / 1e6; i++) out.push(Number((i * step).toFixed(6)));
  return out;
}

/** A number for an SVG attribute, rounded so output is stable and short. */
function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** Opening of an accessible SVG chart with its title and description. */
function svgOpen(id: string, height: number, title: string, desc: string): string {
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${n(height)}" width="${WIDTH}" ` +
    `height="${n(height)}" role="img" aria-labelledby="${id}-t ${id}-d">` +
    `<title id="${id}-t">${esc(title)}</title><desc id="${id}-d">${esc(desc)}</desc>`;
}

/** Vertical grid lines with their labels under the plot. */
function axis(
  values: number[],
  x: (v: number) => number,
  top: number,
  bottom: number,
  label: (v: number) => string,
): string {
  return values.map((v) =>
    `<line class="grid" x1="${n(x(v))}" y1="${n(top)}" x2="${n(x(v))}" y2="${n(bottom)}"/>` +
    `<text class="tick" x="${n(x(v))}" y="${n(bottom + 16)}" text-anchor="middle">` +
    `${esc(label(v))}</text>`
  ).join("");
}

/** One percentile of the wage chart. */
export interface WagePoint {
  label: string;
  figure: Figure;
  median?: boolean;
}

/**
 * Horizontal bars of annual wage percentiles for one vintage. "#" values are drawn as an
 * open-ended bar to the top code labelled "≥"; "*" values are left out with a note in the row.
 */
export function wagePercentileChart(
  id: string,
  caption: string,
  points: WagePoint[],
  topCode: number | null,
): string {
  const labelRight = 150;
  const x0 = 160;
  const plotWidth = WIDTH - x0 - 140;
  const top = 34;
  const rowH = 34;
  const bottom = top + points.length * rowH;
  const known = points.flatMap((p) => (p.figure.value === null ? [] : [p.figure.value]));
  const hasTop = topCode !== null && points.some((p) => p.figure.marker === "#");
  const domain = ticks(Math.max(...known, hasTop ? topCode * 1.08 : 0, 1));
  const max = domain[domain.length - 1];
  const x = (v: number) => x0 + (v / max) * plotWidth;

  const rows = points.map((p, i) => {
    const y = top + i * rowH;
    const mid = y + rowH / 2;
    const label = `<text class="lbl" x="${labelRight}" y="${n(mid + 4)}" text-anchor="end">` +
      `${esc(p.label)}</text>`;
    const { value, marker } = p.figure;
    const barClass = p.median ? "bar bar-strong" : "bar";
    if (value !== null) {
      const text = formatNumber(value, "annual") + (marker ? ` ${marker}` : "");
      return label +
        `<rect class="${barClass}" x="${x0}" y="${n(mid - 9)}" width="${n(x(value) - x0)}" ` +
        `height="18"/><text class="val" x="${n(x(value) + 6)}" y="${n(mid + 4)}">` +
        `${esc(text)}</text>`;
    }
    if (marker === "#" && topCode !== null) {
      const end = x(topCode);
      const open = Math.min(end + 44, x0 + plotWidth + 20);
      return label +
        `<rect class="${barClass}" x="${x0}" y="${n(mid - 9)}" width="${n(end - x0)}" ` +
        `height="18"/><path class="bar-open" d="M${n(end)} ${n(mid - 9)}H${n(open)}M${n(end)} ` +
        `${n(mid + 9)}H${n(open)}"/><text class="val" x="${n(open + 6)}" y="${n(mid + 4)}">` +
        `≥ ${esc(formatNumber(topCode, "annual"))} #</text>`;
    }
    const why = marker ? `not available (${marker})` : "not published";
    return label + `<text class="muted" x="${x0 + 6}" y="${n(mid + 4)}">${esc(why)}</text>`;
  }).join("");

  const topLine = hasTop
    ? `<line class="topcode" x1="${n(x(topCode))}" y1="${top - 8}" x2="${n(x(topCode))}" ` +
      `y2="${bottom}"/><text class="tc" x="${n(x(topCode))}" y="${top - 13}" ` +
      `text-anchor="middle">top code ${esc(formatNumber(topCode, "annual"))}</text>`
    : "";
  const desc = points.map((p) => {
    const { value, marker } = p.figure;
    if (value !== null) return `${p.label}: ${formatNumber(value, "annual")}`;
    if (marker === "#" && topCode !== null) {
      return `${p.label}: at or above ${formatNumber(topCode, "annual")} (top code)`;
    }
    return `${p.label}: ${marker ? MARKER_MEANINGS[marker].toLowerCase() : "not published"}`;
  }).join("; ");
  return svgOpen(id, bottom + 26, caption, desc) +
    axis(domain, x, top - 4, bottom, axisDollars) + rows + topLine + `</svg>`;
}

/** One sector bar of the industry chart. */
export interface IndustryBar {
  naics: string;
  title: string;
  employment: number;
  marker: OewsMarker | null;
}

/** Splits a label into at most `lines` lines of about `width` characters, with an ellipsis. */
function wrap(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && (line + " " + word).length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  kept[lines - 1] = kept[lines - 1].slice(0, width - 1).trimEnd() + "…";
  return kept;
}

/** Horizontal bars of the occupation's employment by NAICS sector, values labelled. */
export function industryChart(id: string, caption: string, bars: IndustryBar[]): string {
  const x0 = 330;
  const plotWidth = WIDTH - x0 - 86;
  const top = 8;
  const domain = ticks(Math.max(...bars.map((b) => b.employment), 1), 4);
  const max = domain[domain.length - 1];
  const x = (v: number) => x0 + (v / max) * plotWidth;
  let y = top;
  const rows = bars.map((bar) => {
    const lines = wrap(`${bar.naics} ${bar.title}`, 46, 2);
    const rowH = lines.length > 1 ? 38 : 26;
    const mid = y + rowH / 2;
    const first = mid + 4 - (lines.length - 1) * 7.5;
    const label = `<text class="lbl" x="0" y="${n(first)}">` +
      lines.map((l, i) => `<tspan x="0" dy="${i === 0 ? 0 : 15}">${esc(l)}</tspan>`).join("") +
      `</text>`;
    const value = groupInt(bar.employment) + (bar.marker ? ` ${bar.marker}` : "");
    const row = `<g><title>${esc(`${bar.naics} ${bar.title}: ${value}`)}</title>${label}` +
      `<rect class="bar" x="${x0}" y="${n(mid - 7)}" width="${n(x(bar.employment) - x0)}" ` +
      `height="14"/><text class="val" x="${n(x(bar.employment) + 6)}" y="${n(mid + 4)}">` +
      `${esc(value)}</text></g>`;
    y += rowH;
    return row;
  }).join("");
  const desc = bars.map((b) => `${b.naics} ${b.title}: ${groupInt(b.employment)}`).join("; ");
  const compact = (v: number) => (v >= 1000 ? `${Number((v / 1000).toFixed(1))}k` : groupInt(v));
  return svgOpen(id, y + 26, caption, desc) + axis(domain, x, top, y, compact) + rows + `</svg>`;
}
