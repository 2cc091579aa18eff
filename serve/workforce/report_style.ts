/**
 * The one stylesheet of the evidence pack report, and the Content-Security-Policy that allows
 * exactly this stylesheet (by its sha256) and forbids loading anything else.
 */
import { createHash } from "node:crypto";

/** The report's CSS: system fonts only, no url(), print-friendly. Kept ASCII so the hash is
 * over the same bytes in every encoding. */
export const REPORT_CSS = `
:root{--ink:#1b2733;--muted:#5b6770;--line:#d5dbe1;--soft:#f3f5f7;--accent:#2b5d8a;
--accent-strong:#173f63;--ctx:#fbf7ea;--ctx-line:#c39a2c}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#fff;color:var(--ink);font:15px/1.5 system-ui,-apple-system,
"Segoe UI",Roboto,"Helvetica Neue",Arial,"Liberation Sans","DejaVu Sans",sans-serif}
main{max-width:1120px;margin:0 auto;padding:28px 32px 40px}
h1,h2,h3{line-height:1.25;margin:0}
h1{font-size:28px;margin:4px 0 6px}
h2{font-size:20px;margin:0 0 4px;padding-top:6px}
h3{font-size:15px;margin:16px 0 6px}
p{margin:6px 0}
section{margin:0 0 26px;padding-top:14px;border-top:2px solid var(--ink)}
code,.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono",
"DejaVu Sans Mono",monospace;font-size:12.5px}
.hash{overflow-wrap:anywhere;word-break:break-all}
.eyebrow{color:var(--muted);font-size:13px;letter-spacing:.04em;text-transform:uppercase}
.soc{display:inline-block;font-weight:600;color:var(--accent-strong);margin-right:8px}
.crumbs{margin:0;padding:0;list-style:none;font-size:14px}
.crumbs li{margin:2px 0}
.crumbs .lvl{display:inline-block;min-width:52px;color:var(--muted);font-size:11px;
text-transform:uppercase;letter-spacing:.04em}
.definition{font-size:16px;margin:4px 0 6px}
.lede{color:var(--muted);font-size:13.5px;max-width:900px}
.cols{display:grid;grid-template-columns:minmax(0,1.25fr) minmax(0,1fr);gap:8px 32px;
align-items:start}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:3px 14px;margin:0;
font-size:13px}
.facts dt{color:var(--muted)}
.facts dd{margin:0;min-width:0}
.panel{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:12px 16px}
.notice{color:var(--muted);font-size:13.5px;border-left:3px solid var(--line);padding:2px 10px}
table{width:100%;border-collapse:collapse;font-size:13.5px;margin:8px 0 4px;
font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:0 0 6px}
th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;
overflow-wrap:break-word}
sup{line-height:0}
thead th{border-bottom:2px solid var(--ink);font-weight:600;vertical-align:bottom}
th[scope=row]{font-weight:400}
.num{text-align:right;white-space:nowrap}
thead th.num{white-space:normal}
th.center{text-align:center}
tr.group th{background:var(--soft);font-weight:600;font-size:12.5px;text-transform:uppercase;
letter-spacing:.03em;color:var(--muted)}
.fixed{table-layout:fixed}
table.narrow{max-width:820px}
.lineage .c-ref{width:46px}.lineage .c-id{width:19%}.lineage .c-src{width:20%}
.lineage .c-file{width:25%}.lineage .c-rev{width:11%}
.lineage code{font-size:12px}
.mk{color:#9a3412;font-weight:600;margin-left:1px}
.mk-only{color:#9a3412;font-weight:600}
.na{color:var(--muted)}
sup.ref,code.ref{color:var(--muted);font-size:10.5px;font-weight:400;margin-left:3px}
code.ref{margin-left:0}
.legend{margin:8px 0 0;padding:0;list-style:none;font-size:12.5px;color:var(--muted)}
.legend li{margin:2px 0}
.legend b{display:inline-block;min-width:26px;color:#9a3412}
.small{font-size:12.5px;color:var(--muted)}
figure{margin:12px 0 4px}
figcaption{font-weight:600;margin-bottom:6px}
.chart{display:block;width:100%;max-width:880px;height:auto}
.chart text{font-family:inherit;font-size:12px;fill:var(--ink)}
.chart .tick,.chart .muted,.chart .tc{fill:var(--muted);font-size:11px}
.chart .muted{font-style:italic;font-size:12px}
.chart .val{font-weight:600}
.chart .grid{stroke:#e6eaee;stroke-width:1}
.chart .bar{fill:var(--accent)}
.chart .bar-strong{fill:var(--accent-strong)}
.chart .bar-open{fill:none;stroke:var(--accent);stroke-width:1.5;stroke-dasharray:4 3}
.chart .topcode{stroke:#9a3412;stroke-width:1;stroke-dasharray:3 3}
.chart .tc{fill:#9a3412}
.context{background:var(--ctx);border:1px solid var(--ctx-line);border-left-width:6px;
border-radius:4px;padding:14px 18px}
.badge{display:inline-block;background:var(--ctx-line);color:#fff;font-size:11.5px;
font-weight:700;letter-spacing:.06em;text-transform:uppercase;padding:2px 8px;border-radius:3px;
vertical-align:middle;margin-left:8px}
.grid-tables{display:grid;grid-template-columns:repeat(auto-fill,minmax(440px,1fr));gap:4px 28px}
.grid-tables table{background:#fff}
ul.plain{margin:6px 0;padding-left:20px}
ul.plain li{margin:3px 0}
footer{border-top:1px solid var(--line);padding-top:10px;color:var(--muted);font-size:12.5px}
@media print{
@page{margin:14mm 12mm}
body{font-size:10pt}
main{max-width:none;padding:0}
section{break-inside:auto}
table,figure,.context,.panel{break-inside:avoid}
thead{display:table-header-group}
tr{break-inside:avoid}
h2,h3{break-after:avoid}
.panel,.context,tr.group th{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`.trim();

/** The CSP hash source of the stylesheet ('sha256-<base64>'). */
export const REPORT_STYLE_HASH = `'sha256-${
  createHash("sha256").update(REPORT_CSS, "utf8").digest("base64")
}'`;

/** Directives shared by the HTTP header and the in-document meta element. */
const BASE_DIRECTIVES = [
  "default-src 'none'",
  `style-src ${REPORT_STYLE_HASH}`,
  "img-src 'none'",
  "font-src 'none'",
  "script-src 'none'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

/** The Content-Security-Policy header the report is served with: nothing may be loaded. */
export const REPORT_CSP = [...BASE_DIRECTIVES, "frame-ancestors 'none'"].join("; ");

/** The same policy for a <meta> element (which cannot carry frame-ancestors), so a saved copy
 * of the report opened from disk is as locked down as the served one. */
export const REPORT_META_CSP = BASE_DIRECTIVES.join("; ");
