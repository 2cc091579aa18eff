/**
 * The data sections of the evidence pack report: OEWS employment and wages (vintages side by
 * side, never a time series), employment by industry, QWI industry dynamics (context only),
 * and O*NET skills and tasks. Each returns an HTML fragment; every value is escaped.
 */
import type { EvidencePackDocument, Figure, OewsMarker, OewsVintageFigures } from "./document.ts";
import { industryChart, wagePercentileChart } from "./report_charts.ts";
import {
  esc,
  figureHtml,
  formatNumber,
  groupInt,
  LineageRefs,
  MARKER_MEANINGS,
  type Unit,
} from "./report_format.ts";

type Wages = NonNullable<OewsVintageFigures["wages"]>;
type Percentiles = Wages["annual_percentiles"];

const PERCENTILES: [keyof Percentiles, string][] = [
  ["p10", "10th percentile"],
  ["p25", "25th percentile"],
  ["median", "Median"],
  ["p75", "75th percentile"],
  ["p90", "90th percentile"],
];

/** The marker legend, BLS symbols with their meanings. */
export function markerLegend(): string {
  const items = (Object.keys(MARKER_MEANINGS) as OewsMarker[])
    .map((m) => `<li><b>${esc(m)}</b>${esc(MARKER_MEANINGS[m])}</li>`).join("");
  return `<ul class="legend" aria-label="OEWS markers">${items}</ul>`;
}

/** A table row of one label and one cell per vintage. */
function vintageRow(
  label: string,
  vintages: OewsVintageFigures[],
  cell: (v: OewsVintageFigures) => string,
): string {
  return `<tr><th scope="row">${esc(label)}</th>${
    vintages.map((v) => `<td class="num">${cell(v)}</td>`).join("")
  }</tr>`;
}

/** A wage cell, or a dash when the vintage carries no wages. */
function wageCell(v: OewsVintageFigures, pick: (w: Wages) => Figure, unit: Unit): string {
  if (!v.wages) return `<span class="na" title="No wages in this pack">—</span>`;
  const top = v.wages.top_code ? v.wages.top_code[unit === "hourly" ? "hourly" : "annual"] : null;
  return figureHtml(pick(v.wages), unit, top);
}

/** A group heading row spanning the table. */
function groupRow(label: string, span: number): string {
  return `<tr class="group"><th colspan="${span}" scope="colgroup">${esc(label)}</th></tr>`;
}

/** OEWS employment and wages: the vintages as columns, the wage chart of the newest one. */
export function employmentSection(doc: EvidencePackDocument, refs: LineageRefs): string {
  const ew = doc.employment_and_wages;
  if (!ew) return "";
  const vs = ew.vintages;
  const span = vs.length + 1;
  const anyWages = vs.some((v) => v.wages !== null);
  const head = `<thead><tr><th scope="col">National estimate</th>${
    vs.map((v) => {
      const p = v.published_as;
      const as = p.o_group === "detailed"
        ? ""
        : `<br><span class="small">as ${esc(p.o_group)} <code>${esc(p.occ_code)}</code></span>`;
      return `<th scope="col" class="num">${esc(v.vintage)}${refs.sup(v.lineage_id)}${as}</th>`;
    }).join("")
  }</tr></thead>`;
  const notes: string[] = [];
  const publishedAs = vintageRow("OEWS row used", vs, (v) => {
    const p = v.published_as;
    let mark = "";
    if (p.note) {
      notes.push(`<li><b>${esc(v.vintage)}:</b> ${esc(p.note)}</li>`);
      mark = `<sup class="mk" title="${esc(p.note)}">${"†".repeat(notes.length)}</sup>`;
    }
    return `<code>${esc(p.occ_code)}</code> ${esc(p.o_group)}${mark}`;
  });
  const rows = [
    publishedAs,
    groupRow("Employment", span),
    vintageRow("Employment", vs, (v) => figureHtml(v.employment, "count")),
    vintageRow("Employment RSE", vs, (v) => figureHtml(v.employment_rse_percent, "percent")),
  ];
  if (anyWages) {
    rows.push(
      groupRow("Mean wage", span),
      vintageRow("Annual mean wage", vs, (v) => wageCell(v, (w) => w.annual_mean, "annual")),
      vintageRow("Hourly mean wage", vs, (v) => wageCell(v, (w) => w.hourly_mean, "hourly")),
      vintageRow("Mean wage RSE", vs, (v) => wageCell(v, (w) => w.mean_rse_percent, "percent")),
    );
    for (
      const [unit, key, title] of [
        ["annual", "annual_percentiles", "Annual wage percentiles"],
        ["hourly", "hourly_percentiles", "Hourly wage percentiles"],
      ] as const
    ) {
      rows.push(groupRow(title, span));
      for (const [p, label] of PERCENTILES) {
        rows.push(vintageRow(label, vs, (v) => wageCell(v, (w) => w[key][p], unit)));
      }
    }
  }
  const wageNotes = vs.flatMap((v) => {
    const out: string[] = [];
    if (v.wages?.annual_only) out.push(`${v.vintage}: OEWS publishes annual wages only.`);
    if (v.wages?.hourly_only) out.push(`${v.vintage}: OEWS publishes hourly wages only.`);
    return out.map((t) => `<li>${esc(t)}</li>`);
  });
  const topCodeText = (t: { annual: number; hourly: number }) =>
    `${formatNumber(t.annual, "annual")} a year, ${formatNumber(t.hourly, "hourly")} an hour`;
  const coded = vs.flatMap((
    v,
  ) => (v.wages?.top_code ? [[v.vintage, v.wages.top_code] as const] : []));
  const sameTop = coded.every(([, t]) =>
    t.annual === coded[0][1].annual && t.hourly === coded[0][1].hourly
  );
  const topCodes = coded.length === 0
    ? []
    : sameTop && coded.length === vs.length
    ? [`${topCodeText(coded[0][1])} in every vintage shown`]
    : coded.map(([vintage, t]) => `${vintage} ${topCodeText(t)}`);
  const publishedNotes = notes.length
    ? `<ol class="legend">${
      notes.map((n, i) => n.replace("<li>", `<li><b>${"†".repeat(i + 1)}</b>`)).join("")
    }</ol>`
    : "";
  return `<section id="employment-wages"><h2>Employment and wages</h2>
<p class="lede">${esc(ew.geography.name)} estimates from the BLS Occupational Employment and
Wage Statistics (OEWS) survey. The vintages are shown side by side as separate cross-sectional
estimates. They are not a time series, and this report computes no change or growth between them.
RSE is the relative standard error of the estimate.</p>
<table class="oews">${head}<tbody>${rows.join("")}</tbody></table>
${publishedNotes}${wageNotes.length ? `<ul class="legend">${wageNotes.join("")}</ul>` : ""}
${topCodes.length ? `<p class="small">Top code: ${esc(topCodes.join("; "))}.</p>` : ""}
${markerLegend()}
<p class="small">${esc(ew.note)}</p>
${anyWages ? wageChart(doc, vs, refs) : ""}</section>`;
}

/** The annual wage percentile chart of the newest vintage that publishes annual wages. */
function wageChart(
  doc: EvidencePackDocument,
  vs: OewsVintageFigures[],
  refs: LineageRefs,
): string {
  const v = vs.find((x) => x.wages !== null && !x.wages.hourly_only);
  if (!v?.wages) return `<p class="notice">No annual wage percentiles are published.</p>`;
  const w = v.wages;
  const points = PERCENTILES.map(([p, label]) => ({
    label,
    figure: w.annual_percentiles[p],
    median: p === "median",
  }));
  const caption = `Annual wage percentiles, ${doc.occupation.title}, ${v.vintage}`;
  const omitted = points.filter((p) => p.figure.value === null && p.figure.marker !== "#");
  const omittedNote = omitted.length
    ? `<p class="small">Not drawn: ${
      esc(omitted.map((p) => `${p.label} (${p.figure.marker ?? "not published"})`).join(", "))
    }.</p>`
    : "";
  return `<figure><figcaption>${esc(caption)}${refs.sup(v.lineage_id)}</figcaption>
${wagePercentileChart("wage-chart", caption, points, w.top_code?.annual ?? null)}
<p class="small">Bars start at $0. A dashed, open-ended bar marks a percentile at or above the
top code (#), which OEWS does not publish. The same figures, with hourly equivalents, are in the
table above.</p>${omittedNote}</figure>`;
}

/** Employment by NAICS sector: a bar chart of published values and the full table. */
export function industriesSection(doc: EvidencePackDocument, refs: LineageRefs): string {
  const ind = doc.industries;
  if (!ind) return "";
  // "#" medians are at or above the top code of the sector file's vintage, which the
  // cross-industry figures of the same vintage carry.
  const topCode = doc.employment_and_wages?.vintages.find((v) => v.vintage === ind.vintage)
    ?.wages?.top_code?.annual ?? null;
  const shown = ind.rows.filter((r) => r.employment.value !== null);
  const suppressed = ind.rows.filter((r) => r.employment.value === null);
  const caption = `Employment of ${doc.occupation.title} by industry sector, ${ind.vintage}`;
  const chart = shown.length
    ? `<figure><figcaption>${esc(caption)}</figcaption>${
      industryChart(
        "industry-chart",
        caption,
        shown.map((r) => ({
          naics: r.naics,
          title: r.naics_title,
          employment: r.employment.value as number,
          marker: r.employment.marker,
        })),
      )
    }</figure>`
    : "";
  const suppressedNote = suppressed.length
    ? `<p class="small">Employment not available (**), not drawn: ${
      esc(suppressed.map((r) => `${r.naics} ${r.naics_title}`).join("; "))
    }.</p>`
    : "";
  const body = ind.rows.map((r) =>
    `<tr><th scope="row"><code>${esc(r.naics)}</code> ${esc(r.naics_title)}</th>` +
    `<td class="small" title="OEWS ownership code ${esc(r.ownership.code)}">` +
    `${esc(r.ownership.meaning)}</td>` +
    `<td class="num">${figureHtml(r.employment, "count")}</td>` +
    `<td class="num">${figureHtml(r.employment_rse_percent, "percent")}</td>` +
    `<td class="num">${figureHtml(r.pct_of_industry_employment, "percent")}</td>` +
    `<td class="num">${figureHtml(r.pct_establishments_reporting, "percent")}</td>` +
    `<td class="num">${figureHtml(r.annual_median, "annual", topCode)}</td>` +
    `<td>${refs.code(r.lineage_id)}</td></tr>`
  ).join("");
  return `<section id="industries"><h2>Employment by industry</h2>
<p class="lede">OEWS national industry-sector estimates, ${esc(ind.vintage)}. Sectors by
employment, largest first. This vintage may differ from the newest cross-industry vintage above.</p>
${chart}${suppressedNote}
<table><thead><tr><th scope="col">NAICS sector</th><th scope="col">Ownership</th>
<th scope="col" class="num">Employment</th><th scope="col" class="num">RSE</th>
<th scope="col" class="num">% of industry employment</th>
<th scope="col" class="num">% of establishments reporting</th>
<th scope="col" class="num">Annual median</th><th scope="col">Source</th></tr></thead>
<tbody>${body}</tbody></table>
${markerLegend()}<p class="small">${esc(ind.note)}</p></section>`;
}

/** QWI quarters per sector, boxed as context: another geography and period than the pack. */
export function dynamicsSection(doc: EvidencePackDocument, refs: LineageRefs): string {
  const qwi = doc.industry_dynamics;
  if (!qwi) return "";
  const flagKeys = [
    ...new Set([
      ...Object.keys(qwi.flags),
      ...qwi.sectors.flatMap((s) => s.quarters.flatMap((q) => Object.keys(q.county_cells_by_flag))),
    ]),
  ].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  const tables = qwi.sectors.map((s) => {
    const rows = s.quarters.map((q) =>
      `<tr><th scope="row">${q.year} Q${q.quarter}</th>` +
      `<td class="num">${esc(groupInt(q.employment_ok_counties))}</td>` +
      flagKeys.map((k) => `<td class="num">${esc(groupInt(q.county_cells_by_flag[k] ?? 0))}</td>`)
        .join("") +
      `<td>${refs.code(q.lineage_id)}</td></tr>`
    ).join("");
    return `<table><caption><code>${esc(s.naics)}</code> ${esc(s.naics_title)}</caption>
<thead><tr><th scope="col" rowspan="2">Quarter</th>
<th scope="col" rowspan="2" class="num">Employment, flag-1 counties</th>
<th scope="colgroup" colspan="${flagKeys.length}" class="center">County cells by status flag</th>
<th scope="col" rowspan="2">Source</th></tr><tr>${
      flagKeys.map((k) => `<th scope="col" class="num">${esc(k)}</th>`).join("")
    }</tr></thead><tbody>${rows}</tbody></table>`;
  }).join("");
  const legend = flagKeys.map((k) =>
    `<li><b>${esc(k)}</b>${esc(qwi.flags[k] ?? "Flag not described by the source.")}</li>`
  ).join("");
  return `<section id="industry-dynamics"><div class="context">
<h2>Industry dynamics (QWI)<span class="badge">Context only</span></h2>
<p>These Quarterly Workforce Indicators describe <b>${esc(qwi.geography)}</b> in
<b>${esc(qwi.period)}</b>, a different geography and period from the national OEWS estimates
above. They describe the sectors, not this occupation, and are not combined with OEWS figures.</p>
<dl class="facts"><dt>Source</dt><dd>${esc(qwi.source)}</dd><dt>Geography</dt>
<dd>${esc(qwi.geography)}</dd><dt>Period</dt><dd>${esc(qwi.period)}</dd><dt>Measure</dt>
<dd>${esc(qwi.measure)}</dd></dl>
<div class="grid-tables">${tables}</div>
<p class="small">Employment sums only county cells published with status flag 1; the other
columns count county cells by QWI status flag.</p>
<ul class="legend" aria-label="QWI status flags">${legend}</ul>
<p class="small">${esc(qwi.note)}</p></div></section>`;
}

/** O*NET skills and tasks, with the bound the pack applies. */
export function skillsAndTasksSection(doc: EvidencePackDocument): string {
  const parts: string[] = [];
  const { skills, tasks } = doc;
  if (skills) {
    const rows = skills.items.map((s) =>
      `<tr><th scope="row">${esc(s.name)}</th><td class="num">${
        esc(s.importance.toFixed(2))
      }</td>` +
      `<td class="num">${s.level === null ? "—" : esc(s.level.toFixed(2))}</td>` +
      `<td><code>${esc(s.element_id)}</code></td><td><code>${esc(s.onet_code)}</code></td></tr>`
    ).join("");
    parts.push(`<h3>Skills</h3><p class="small">${esc(skills.source)}. ${skills.items.length}
shown; the pack keeps at most ${skills.bound}, by importance.</p>
<table class="narrow"><thead><tr><th scope="col">Skill</th><th scope="col" class="num">Importance</th>
<th scope="col" class="num">Level</th><th scope="col">Element</th><th scope="col">O*NET-SOC</th>
</tr></thead><tbody>${rows}</tbody></table>`);
  }
  if (tasks) {
    const rows = tasks.items.map((t) =>
      `<tr><td>${esc(t.task)}</td><td>${esc(t.task_type ?? "—")}</td>` +
      `<td><code>${esc(t.onet_code)}</code></td><td class="num">${t.task_id}</td></tr>`
    ).join("");
    parts.push(`<h3>Tasks</h3><p class="small">${esc(tasks.source)}. ${tasks.items.length}
shown; the pack keeps at most ${tasks.bound}.</p>
<table><thead><tr><th scope="col">Task</th><th scope="col">Type</th><th scope="col">O*NET-SOC</th>
<th scope="col" class="num">Task ID</th></tr></thead><tbody>${rows}</tbody></table>`);
  }
  if (!parts.length) return "";
  return `<section id="skills-tasks"><h2>Skills and tasks (O*NET)</h2>${parts.join("")}</section>`;
}
