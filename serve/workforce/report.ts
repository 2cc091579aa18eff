/**
 * The standalone HTML report of an evidence pack (GET …/evidence-packs/{id}/report). Rendered
 * from the pack document alone, pure and deterministic: the same document gives the same bytes.
 * One HTML5 document with one inline stylesheet and inline SVG charts; no script, no external
 * asset or font, nothing that loads. The returned CSP allows only that stylesheet, by hash.
 */
import type { EvidencePackDocument, LineageEntry } from "./document.ts";
import { esc, LineageRefs } from "./report_format.ts";
import {
  dynamicsSection,
  employmentSection,
  industriesSection,
  skillsAndTasksSection,
} from "./report_sections.ts";
import { REPORT_CSP, REPORT_CSS, REPORT_META_CSP } from "./report_style.ts";

/** Optional document parts with the names a reader sees when they are left out. */
const OPTIONAL_PARTS: [keyof EvidencePackDocument, string][] = [
  ["employment_and_wages", "employment and wages (OEWS)"],
  ["industries", "employment by industry (OEWS)"],
  ["industry_dynamics", "industry dynamics (QWI)"],
  ["skills", "skills (O*NET)"],
  ["tasks", "tasks (O*NET)"],
];

/** A hash in monospace, breakable into even halves of 32 digits, full text also as a tooltip. */
function hash(value: string): string {
  const parts = value.match(/.{1,32}/g) ?? [value];
  return `<code class="hash" title="${esc(value)}">${parts.map(esc).join("<wbr>")}</code>`;
}

/** Title, SOC groups, definition, O*NET-SOC occupations and the pack's identity. */
function header(doc: EvidencePackDocument, refs: LineageRefs): string {
  const o = doc.occupation;
  const g = o.groups;
  const crumbs = ([["Major", g.major], ["Minor", g.minor], ["Broad", g.broad]] as const).map((
    [level, x],
  ) => `<li><span class="lvl">${level}</span> <code>${esc(x.code)}</code> ${esc(x.title)}</li>`)
    .join("");
  const onet = o.onet_occupations.length
    ? `<ul class="plain">${
      o.onet_occupations.map((x) => `<li><code>${esc(x.onet_code)}</code> ${esc(x.title)}</li>`)
        .join("")
    }</ul>`
    : `<p class="small">No O*NET-SOC occupation is listed under this code.</p>`;
  const r = doc.request;
  const e = doc.evidence;
  return `<header>
<div class="eyebrow">Occupational evidence pack · ${esc(o.soc_version)} · ${
    esc(r.country_code)
  }</div>
<h1><span class="soc">${esc(o.soc_code)}</span>${esc(o.title)}${refs.sup(o.lineage_id)}</h1>
<div class="cols">
<div><p class="definition">${esc(o.definition)}</p>
<h3>SOC 2018 groups</h3><ul class="crumbs">${crumbs}</ul>
<h3>O*NET-SOC occupations under this code</h3>${onet}</div>
<div class="panel"><dl class="facts">
<dt>Evidence pack</dt><dd><code class="hash">${esc(doc.evidence_pack_id)}</code></dd>
<dt>Geography</dt><dd>${esc(r.geography.level)} · ${esc(r.geography.code)}</dd>
<dt>OEWS vintages</dt><dd>${esc(r.oews_vintages.join(", ") || "—")}</dd>
<dt>Evidence artifact</dt><dd><code>${esc(e.version)}</code></dd>
<dt>Content hash</dt><dd>${hash(e.content_hash)}</dd>
<dt>Taxonomy</dt><dd>${esc(e.taxonomy.release)} · <code>${esc(e.taxonomy.version)}</code></dd>
<dt>Taxonomy hash</dt><dd>${hash(e.taxonomy.content_hash)}</dd>
<dt>Integrity</dt><dd>${hash(doc.integrity.sha256)}<br><span class="small">sha256 of the ${
    esc(doc.integrity.canonicalization)
  } canonical JSON of the pack without this field</span></dd>
</dl></div></div></header>`;
}

/** A line naming the optional sections this pack does not hold. */
function absentSections(doc: EvidencePackDocument): string {
  const absent = OPTIONAL_PARTS.filter(([key]) => doc[key] === undefined).map(([, name]) => name);
  if (!absent.length) return "";
  return `<p class="notice">Sections not requested in this pack, so not shown: ${
    esc(absent.join(", "))
  }.</p>`;
}

/** One lineage entry as a table row. */
function lineageRow(entry: LineageEntry, refs: LineageRefs): string {
  return `<tr><td><code class="ref">${esc(refs.label(entry.id))}</code></td>` +
    `<td><code>${esc(entry.id)}</code></td>` +
    `<td>${esc(entry.source)}<br><span class="small">${esc(entry.vintage)}</span></td>` +
    `<td><code>${esc(entry.file)}</code><br>${hash(entry.sha256)}</td>` +
    `<td class="small">${esc(entry.row_key)}</td>` +
    `<td class="small">${esc(entry.review.reviewer)}<br>${esc(entry.review.reviewed_on)}</td></tr>`;
}

/** Every source row behind the figures, with the file hash and the review that approved it. */
function lineageSection(doc: EvidencePackDocument, refs: LineageRefs): string {
  return `<section id="lineage"><h2>Source lineage</h2>
<p class="lede">Each figure above carries a reference (L1, L2, …) to the source row it was read
from. Files are the reviewed snapshots, identified by their sha256.</p>
<table class="fixed lineage"><colgroup><col class="c-ref"><col class="c-id"><col class="c-src">
<col class="c-file"><col class="c-row"><col class="c-rev"></colgroup>
<thead><tr><th scope="col">Ref</th><th scope="col">Lineage id</th><th scope="col">Source and vintage</th>
<th scope="col">File and sha256</th><th scope="col">Row key</th><th scope="col">Reviewed</th></tr>
</thead><tbody>${doc.lineage.map((entry) => lineageRow(entry, refs)).join("")}</tbody></table>
</section>`;
}

/** The pack's evidence boundaries and the attributions its sources require. */
function boundariesSection(doc: EvidencePackDocument): string {
  const list = (items: string[]) =>
    `<ul class="plain">${items.map((x) => `<li>${esc(x)}</li>`).join("")}</ul>`;
  return `<section id="boundaries"><h2>What this pack does not claim</h2>${
    list(doc.boundaries)
  }<h3>Attributions</h3>${list(doc.attributions)}</section>`;
}

/** Renders the report and the Content-Security-Policy to serve it with. */
export function renderReport(doc: EvidencePackDocument): { html: string; csp: string } {
  const refs = new LineageRefs(doc.lineage);
  const o = doc.occupation;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(REPORT_META_CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(`${o.soc_code} ${o.title} · evidence pack ${doc.evidence_pack_id}`)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
${header(doc, refs)}
${absentSections(doc)}
${employmentSection(doc, refs)}
${industriesSection(doc, refs)}
${dynamicsSection(doc, refs)}
${skillsAndTasksSection(doc)}
${lineageSection(doc, refs)}
${boundariesSection(doc)}
<footer>Evidence pack <code>${esc(doc.evidence_pack_id)}</code> (${esc(doc.schema)}), rendered
from the pack document alone. Integrity sha256 ${hash(doc.integrity.sha256)}. This document
contains no script and loads nothing.</footer>
</main>
</body>
</html>
`;
  return { html, csp: REPORT_CSP };
}
