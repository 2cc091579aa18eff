/**
 * The console's one stylesheet, inlined in every page under the response's CSP nonce (no
 * stylesheet request, nothing from another host). Colours keep WCAG AA contrast; every
 * focusable element shows a visible focus ring.
 */
export const CONSOLE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f5f6f8}
body{margin:0;min-height:100vh;display:flex;flex-direction:column}
a{color:#1d4ed8}
a:hover{color:#1e3a8a}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:2}
.skip:focus{left:1rem}
.top{background:#111827;color:#f9fafb}
.top .bar{max-width:64rem;margin:0 auto;padding:.75rem 1.25rem;display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between}
.brand{color:#f9fafb;text-decoration:none;font-weight:700;letter-spacing:.01em}
.brand span{color:#93c5fd;font-weight:500}
.top a.brand:hover{color:#fff}
.top :focus-visible{outline-color:#93c5fd}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem;align-items:center}
nav a{display:block;color:#e5e7eb;text-decoration:none;padding:.35rem .7rem;border-radius:.375rem}
nav a:hover{background:#1f2937;color:#fff}
nav a[aria-current=page]{background:#374151;color:#fff}
nav form{margin:0}
nav .who{color:#d1d5db;font-size:.875rem;padding:0 .5rem}
.linkish{background:none;border:1px solid #6b7280;color:#f9fafb;border-radius:.375rem;padding:.3rem .7rem;font:inherit;cursor:pointer}
.linkish:hover{background:#1f2937}
main{flex:1;width:100%;max-width:64rem;margin:0 auto;padding:2rem 1.25rem 3rem}
main.narrow{max-width:30rem}
main:focus{outline:none}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .5rem}
h2{font-size:1.15rem;margin:0 0 .75rem}
.lead{color:#4b5563;margin:0 0 1.5rem}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:.6rem;padding:1.25rem 1.5rem;margin:0 0 1.5rem;box-shadow:0 1px 2px rgba(0,0,0,.04)}
.grid{display:grid;gap:1.5rem;grid-template-columns:repeat(auto-fit,minmax(17rem,1fr))}
.field{margin:0 0 1rem}
label,.label{display:block;font-weight:600;margin:0 0 .25rem}
.hint{color:#4b5563;font-size:.875rem;margin:0 0 .35rem}
input[type=text],input[type=email],input[type=password],input[type=number],select,textarea{width:100%;font:inherit;padding:.55rem .7rem;border:1px solid #6b7280;border-radius:.375rem;background:#fff;color:#111827}
textarea{min-height:6rem;resize:vertical}
input[aria-invalid=true],textarea[aria-invalid=true],select[aria-invalid=true]{border-color:#b91c1c;border-width:2px}
fieldset{border:1px solid #d1d5db;border-radius:.375rem;margin:0 0 1rem;padding:.5rem 1rem .75rem}
legend{font-weight:600;padding:0 .25rem}
.check{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.25rem 0}
.error{color:#b91c1c;font-size:.9rem;margin:.25rem 0}
.btn{display:inline-block;font:inherit;font-weight:600;padding:.55rem 1.1rem;border-radius:.375rem;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;text-decoration:none}
.btn:hover{background:#1e40af;color:#fff}
.btn.secondary{background:#fff;color:#1d4ed8}
.btn.secondary:hover{background:#eff6ff;color:#1e3a8a}
.btn.danger{background:#b91c1c;border-color:#b91c1c}
.btn.danger:hover{background:#991b1b}
.btn.small{padding:.3rem .7rem;font-size:.875rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1.25rem}
.notice{border-radius:.5rem;padding:.85rem 1rem;margin:0 0 1.25rem;border:1px solid}
.notice p{margin:.25rem 0}
.notice.ok{background:#f0fdf4;border-color:#86efac;color:#14532d}
.notice.info{background:#eff6ff;border-color:#93c5fd;color:#1e3a8a}
.notice.bad{background:#fef2f2;border-color:#fca5a5;color:#7f1d1d}
.notice.warn{background:#fffbeb;border-color:#fcd34d;color:#713f12}
.notice ul{margin:.25rem 0 0;padding-left:1.25rem}
.notice a{color:inherit}
table{width:100%;border-collapse:collapse;font-size:.925rem}
caption{text-align:left;font-weight:600;padding:0 0 .5rem}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e5e7eb;vertical-align:top}
th{background:#f9fafb;font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875rem}
pre{background:#111827;color:#f3f4f6;padding:1rem;border-radius:.5rem;overflow:auto;max-height:28rem;white-space:pre-wrap;word-break:break-all}
.keybox{display:flex;gap:.5rem;align-items:stretch}
.keybox input{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.status{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem;font-weight:600}
.status.active{background:#dcfce7;color:#14532d}
.status.revoked{background:#e5e7eb;color:#374151}
.muted{color:#4b5563}
.stats{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));margin:0 0 1.5rem}
.stat{background:#fff;border:1px solid #e5e7eb;border-radius:.6rem;padding:1rem 1.25rem}
.stat .label{font-weight:500;color:#4b5563;font-size:.875rem;margin:0}
.stat .value{font-size:1.5rem;font-weight:700;margin:.15rem 0 0}
.meter{height:.6rem;background:#e5e7eb;border-radius:999px;overflow:hidden;margin-top:.5rem}
svg.chart{width:100%;height:auto;display:block}
svg .bar{fill:#2563eb}
svg .bar.bad{fill:#dc2626}
svg .axis{stroke:#9ca3af;stroke-width:1}
svg text{fill:#374151;font-size:11px;font-family:system-ui,sans-serif}
.steps{margin:0;padding-left:1.25rem}
.steps li{margin:.35rem 0}
footer{color:#4b5563;font-size:.85rem;text-align:center;padding:1.5rem 1rem;border-top:1px solid #e5e7eb;background:#fff}
@media (max-width:40rem){main{padding:1.25rem .9rem 2rem}.card{padding:1rem}}
`;
