/**
 * The standalone HTML report of an evidence pack: deterministic, self-contained (no script, no
 * asset, nothing that loads), escaped, complete; and, where Chromium is installed, loaded in
 * headless Chromium under its CSP to prove that the document is the only request it makes.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { renderReport } from "../serve/workforce/report.ts";
import { chromiumPath, loadInChromium } from "./chromium.ts";
import { sampleDocument } from "./workforce_report_sample.ts";

/** The text of every <style> element. */
function styleBlocks(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
}

/** Every attribute value in the document. */
function attributeValues(html: string): string[] {
  return [...html.matchAll(/<[a-zA-Z][^>]*>/g)].flatMap((tag) =>
    [...tag[0].matchAll(/\s[\w:-]+="([^"]*)"/g)].map((a) => a[1])
  );
}

Deno.test("workforce report: the same document renders to the same bytes", () => {
  const first = renderReport(sampleDocument());
  const second = renderReport(sampleDocument());
  assert.equal(first.html, second.html);
  assert.equal(first.csp, second.csp);
  const changed = sampleDocument();
  changed.evidence_pack_id = "wep_other";
  assert.notEqual(renderReport(changed).html, first.html, "the output depends on the document");
});

Deno.test("workforce report: self-contained, and the CSP allows exactly its stylesheet", () => {
  const { html, csp } = renderReport(sampleDocument());
  assert.ok(html.startsWith('<!DOCTYPE html>\n<html lang="en">'));
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /\s(src|href|srcset|action|formaction|xlink:href|ping)=/i);
  assert.doesNotMatch(html, /<(link|img|iframe|object|embed|base|form|audio|video|source)\b/i);
  assert.doesNotMatch(html, /\son[a-z]+=/i, "no event handler attributes");
  assert.doesNotMatch(html, /\sstyle=/i, "style attributes would need 'unsafe-inline'");
  assert.doesNotMatch(html, /url\(|@import|@font-face/i);
  const loading = attributeValues(html).filter((value) => /(https?:|\/\/|data:)/i.test(value));
  assert.deepEqual(loading, [], "no attribute points anywhere");

  const styles = styleBlocks(html);
  assert.equal(styles.length, 1, "one <style> block");
  const digest = createHash("sha256").update(styles[0], "utf8").digest("base64");
  const directives = csp.split(";").map((d) => d.trim());
  for (
    const directive of [
      "default-src 'none'",
      `style-src 'sha256-${digest}'`,
      "img-src 'none'",
      "font-src 'none'",
      "script-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ]
  ) assert.ok(directives.includes(directive), `CSP has ${directive}: ${csp}`);
  assert.ok(!csp.includes("unsafe"), csp);
  // The same policy travels inside the document for a copy saved to disk.
  const meta = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
  assert.ok(meta && meta[1].includes(`style-src &#39;sha256-${digest}&#39;`), "meta CSP");
  assert.ok(html.indexOf("Content-Security-Policy") < html.indexOf("<style>"));
});

Deno.test("workforce report: text from the data is escaped", () => {
  const doc = sampleDocument();
  doc.occupation.title = `Evil <script>alert("x")</script> & "Co"`;
  doc.occupation.definition = `Runs '<img src=x onerror=alert(1)>' all day`;
  doc.industries!.rows[0].naics_title = `Health "Care" <b>bold</b>`;
  doc.lineage[0].row_key = `line 1: "><svg onload=alert(2)>`;
  const { html } = renderReport(doc);
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<img|<b>bold|<svg onload/);
  assert.ok(
    html.includes("Evil &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Co&quot;"),
  );
  assert.ok(html.includes("Runs &#39;&lt;img src=x onerror=alert(1)&gt;&#39; all day"));
  assert.ok(html.includes("Health &quot;Care&quot; &lt;b&gt;bold&lt;/b&gt;"));
  assert.ok(html.includes("&quot;&gt;&lt;svg onload=alert(2)&gt;"));
  // Inside SVG <title>/<desc> and in attribute values too.
  assert.match(html, /<title id="wage-chart-t">Annual wage percentiles, Evil &lt;script&gt;/);
});

Deno.test("workforce report: OEWS vintages side by side with their markers", () => {
  const doc = sampleDocument();
  const { html } = renderReport(doc);
  const table = html.match(/<table class="oews">[\s\S]*?<\/table>/)![0];
  const head = table.match(/<thead>[\s\S]*?<\/thead>/)![0];
  const labels = [...head.matchAll(/>(May \d{4})</g)].map((m) => m[1]);
  assert.deepEqual(labels, ["May 2025", "May 2024", "May 2023"]);
  assert.doesNotMatch(html, /[↑↓▲▼↗↘]|year over year|percent change/i, "not a time series");
  assert.ok(table.includes("41,890") && table.includes("754,760") && table.includes("33,470"));
  assert.ok(table.includes("7.9%") && table.includes("$336,640") && table.includes("$161.85"));
  assert.ok(table.includes('≥&#8239;$239,200<sup class="mk"'), "# as ≥ the annual top code");
  assert.ok(table.includes('≥&#8239;$115.00<sup class="mk"'), "# as ≥ the hourly top code");
  assert.ok(table.includes(`<span class="mk-only" title="Wage estimate not available.">*</span>`));
  assert.ok(html.includes("publishes 29-1211 only within the broad group 29-1210"));
  assert.match(table, /<code>29-1210<\/code> broad<sup class="mk"/);
  for (const marker of ["*", "**", "#", "~"]) {
    assert.ok(html.includes(`<li><b>${marker}</b>`), `legend explains ${marker}`);
  }
  // Each vintage column names its lineage row.
  assert.match(head, /May 2025<sup class="ref" title="Source: oews-2025-national-555">L2<\/sup>/);
});

Deno.test("workforce report: charts draw what is published and say what is not", () => {
  const { html } = renderReport(sampleDocument());
  const wage =
    html.match(/<svg class="chart"[^>]*aria-labelledby="wage-chart-t[\s\S]*?<\/svg>/)![0];
  assert.match(wage, /role="img"/);
  assert.equal((wage.match(/class="bar-open"/g) ?? []).length, 3, "median, p75, p90 are #");
  assert.equal((wage.match(/≥ \$239,200 #/g) ?? []).length, 3);
  assert.ok(wage.includes("$186,680"));
  assert.ok(wage.includes("not available (*)"), "the * percentile is not drawn");
  assert.match(wage, /<desc id="wage-chart-d">10th percentile: wage estimate not available\./);

  const ind = html.match(/<svg class="chart"[^>]*industry-chart-t[\s\S]*?<\/svg>/)![0];
  assert.equal((ind.match(/<rect class="bar"/g) ?? []).length, 4, "four published sectors");
  assert.ok(ind.includes(">40,890</text>") && ind.includes(">210</text>"));
  assert.ok(!ind.includes("Finance and Insurance"), "the ** sector is not drawn");
  assert.match(html, /Employment not available \(\*\*\), not drawn: 52 Finance and Insurance/);
});

Deno.test("workforce report: QWI context, skills, tasks, lineage and boundaries", () => {
  const doc = sampleDocument();
  const { html } = renderReport(doc);
  const qwi = html.match(/<section id="industry-dynamics">[\s\S]*?<\/section>/)![0];
  assert.ok(
    qwi.includes("Context only") && qwi.includes("North Carolina counties (state FIPS 37)"),
  );
  assert.ok(qwi.includes("2010 Q1 to 2010 Q4"));
  assert.equal((qwi.match(/<th scope="col" class="num">[159]<\/th>/g) ?? []).length, 6);
  assert.ok(qwi.includes("Data significantly distorted by noise infusion"));
  assert.ok(qwi.includes(">548,120</td>"));
  assert.ok(html.includes("the pack keeps at most 10, by importance"));
  assert.ok(html.includes("Judgment and Decision Making") && html.includes("Task ID"));
  const lineage = html.match(/<section id="lineage">[\s\S]*?<\/section>/)![0];
  for (const [i, entry] of doc.lineage.entries()) {
    assert.ok(lineage.includes(`<code class="ref">L${i + 1}</code></td><td><code>${entry.id}`));
    const halves = `${entry.sha256.slice(0, 32)}<wbr>${entry.sha256.slice(32)}`;
    assert.ok(lineage.includes(`title="${entry.sha256}">${halves}</code>`), "full sha256");
  }
  for (const line of [...doc.boundaries, ...doc.attributions.slice(0, 2)]) {
    assert.ok(html.includes(line), line);
  }
  assert.ok(html.includes(doc.integrity.sha256) && html.includes(doc.evidence.content_hash));
  assert.ok(!html.includes("Sections not requested"), "every section is present");
});

Deno.test("workforce report: absent sections are left out and named", () => {
  const doc = sampleDocument();
  delete doc.industry_dynamics;
  delete doc.tasks;
  doc.request.sections = ["employment", "wages", "industries", "skills"];
  const { html } = renderReport(doc);
  assert.ok(!html.includes('id="industry-dynamics"') && !html.includes("<h3>Tasks</h3>"));
  assert.ok(html.includes(
    "Sections not requested in this pack, so not shown: " +
      "industry dynamics (QWI), tasks (O*NET).",
  ));
  const bare = sampleDocument();
  for (
    const key of ["employment_and_wages", "industries", "industry_dynamics", "skills"] as const
  ) {
    delete bare[key];
  }
  delete bare.tasks;
  const minimal = renderReport(bare).html;
  assert.ok(minimal.includes("Anesthesiologists") && minimal.includes('id="lineage"'));
  assert.ok(!minimal.includes("<svg") && !minimal.includes('id="employment-wages"'));
});

/** Serves one HTML document with a CSP on a free loopback port while fn runs. */
async function serving<T>(html: string, csp: string, fn: (url: string) => Promise<T>): Promise<T> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response(html, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": csp,
          // No idle keep-alive connection from a browser that is then killed: shutdown waits on it.
          "connection": "close",
        },
      }),
  );
  try {
    return await fn(`http://127.0.0.1:${server.addr.port}/report`);
  } finally {
    await server.shutdown();
  }
}

const NO_CHROMIUM = chromiumPath() === null;
const SKIP = NO_CHROMIUM ? " (skipped: Chromium not installed; .ci/run installs it)" : "";

Deno.test({
  name: `workforce report: loads in headless Chromium with no other request${SKIP}`,
  ignore: NO_CHROMIUM,
  async fn() {
    const { html, csp } = renderReport(sampleDocument());
    const page = await serving(html, csp, (url) => loadInChromium(url, { width: 1200 }));
    assert.equal(page.requests.length, 1, `requests: ${page.requests.join(", ")}`);
    assert.match(page.requests[0], /^http:\/\/127\.0\.0\.1:\d+\/report$/);
    const refused = page.messages.filter((m) => /refused|content security policy|blocked/i.test(m));
    assert.deepEqual(refused, [], "no CSP violation");
    assert.ok(
      page.contentWidth <= page.viewportWidth,
      `no horizontal overflow at 1200 px: ${page.contentWidth} > ${page.viewportWidth}`,
    );

    const png = page.png;
    assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "PNG signature");
    const ihdr = new DataView(png.buffer, png.byteOffset + 16, 8);
    assert.equal(ihdr.getUint32(0), 1200, "screenshot width");
    assert.ok(ihdr.getUint32(4) > 2000, `full page height, got ${ihdr.getUint32(4)}`);
    assert.ok(png.length > 100_000, `a rendered page, not a blank one (${png.length} bytes)`);
    const path = Deno.env.get("REPORT_SCREENSHOT") ??
      join(Deno.env.get("TMPDIR") ?? "/tmp", "workforce-report.png");
    await Deno.writeFile(path, png);
    assert.equal((await Deno.stat(path)).size, png.length);
  },
});

Deno.test({
  name: `workforce report: the Chromium check sees a refused load${SKIP}`,
  ignore: NO_CHROMIUM,
  async fn() {
    // A control: the same CSP on a page that asks for an image must be reported, or the
    // assertions above could pass without looking.
    const { csp } = renderReport(sampleDocument());
    const html = `<!DOCTYPE html><title>control</title><img src="/pixel.png" alt="">`;
    const page = await serving(html, csp, (url) => loadInChromium(url, { width: 400 }));
    assert.ok(
      page.messages.some((m) =>
        /(Refused to load|Loading) the image .*Content Security Policy/.test(m)
      ),
      `messages: ${page.messages.join(" | ")}`,
    );
  },
});

Deno.test({
  name: `workforce report: a browser that runs out of time is stopped and cleaned up${SKIP}`,
  ignore: NO_CHROMIUM,
  async fn() {
    const tmp = Deno.env.get("TMPDIR") ?? "/tmp";
    const profiles = async () => {
      const names: string[] = [];
      for await (const e of Deno.readDir(tmp)) {
        if (e.name.startsWith("chromium-profile-")) names.push(e.name);
      }
      return names.sort();
    };
    const before = await profiles();
    const started = Date.now();
    await assert.rejects(
      serving(
        "<!DOCTYPE html><title>slow</title>",
        "default-src 'none'",
        (url) => loadInChromium(url, { timeoutMs: 50 }),
      ),
      /within 50 ms/,
    );
    assert.ok(Date.now() - started < 15_000, "the timeout bounds the whole run");
    assert.deepEqual(await profiles(), before, "the temporary profile is removed");
  },
});
