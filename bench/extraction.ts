/**
 * `deno task bench:extraction`: precision and recall of the market term extraction
 * (build/market/extract.ts with the curated dictionary) on the hand-labelled gold set
 * fixtures/market/labelled_postings.ndjson (64 real postings; rules in fixtures/market/LABELLING.md).
 *
 * The vocabulary is read straight from the O*NET text release, as the taxonomy artifact holds it
 * and build/market/pipeline.ts reads it: technologies are the distinct `Example` values of
 * `Technology Skills.txt`; elements are the leaf content-model elements (no other element id has
 * them as parent) of depth > 2 under 1.A (ability), 2.A/2.B (skill), 2.C (knowledge) and 4.A
 * (work_activity). Each posting is extracted as the pipeline does (title and description through
 * htmlToText, no skills list); the distinct term names per type are compared with the gold names.
 * Precision, recall and F1 are micro-averaged over postings.
 *
 * Usage: deno task bench:extraction [--onet <db_29_3_text dir>] [--gold <ndjson>] [--json]
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  compileMatcher,
  extractMentions,
  EXTRACTOR_VERSION,
  readCuratedDictionary,
  TERM_TYPES,
  type TermType,
} from "../build/market/extract.ts";
import { htmlToText } from "../build/market/normalize.ts";
import { sha256Hex } from "../build/hash.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const { values } = parseArgs({
  args: Deno.args,
  options: {
    onet: { type: "string", default: join(ROOT, "..", "shared", "data", "onet", "db_29_3_text") },
    gold: {
      type: "string",
      default: join(ROOT, "fixtures", "market", "labelled_postings.ndjson"),
    },
    json: { type: "boolean", default: false },
  },
});

/** Rows of a tab-separated O*NET file with a header, as records keyed by header name. */
async function readTsv(path: string): Promise<Record<string, string>[]> {
  const lines = (await Deno.readTextFile(path)).replace(/^\uFEFF/, "").split(/\r?\n/);
  const header = lines[0].split("\t").map((h) => h.trim());
  const rows: Record<string, string>[] = [];
  for (const line of lines.slice(1)) {
    if (line.trim() === "") continue;
    const cells = line.split("\t");
    rows.push(Object.fromEntries(header.map((h, i) => [h, (cells[i] ?? "").trim()])));
  }
  return rows;
}

/** The distinct technology Examples of the release, sorted. */
async function readTechnologies(dir: string): Promise<string[]> {
  const rows = await readTsv(join(dir, "Technology Skills.txt"));
  return [...new Set(rows.map((r) => r["Example"]).filter((e) => e !== ""))].sort();
}

function elementDomain(id: string): TermType | null {
  if (id.startsWith("1.A.")) return "ability";
  if (id.startsWith("2.A.") || id.startsWith("2.B.")) return "skill";
  if (id.startsWith("2.C.")) return "knowledge";
  if (id.startsWith("4.A.")) return "work_activity";
  return null;
}

/**
 * Leaf elements [id, name, domain], as pipeline.ts selects them from content_model_elements:
 * depth (dot-separated parts) > 2 and no element whose parent (id minus its last part) is it.
 */
async function readLeafElements(dir: string): Promise<[string, string, TermType][]> {
  const rows = await readTsv(join(dir, "Content Model Reference.txt"));
  const ids = rows.map((r) => r["Element ID"]);
  const parents = new Set(
    ids.filter((id) => id.includes(".")).map((id) => id.replace(/\.[^.]+$/, "")),
  );
  const out: [string, string, TermType][] = [];
  for (const row of rows) {
    const id = row["Element ID"];
    const domain = elementDomain(id);
    if (domain === null || id.split(".").length <= 2 || parents.has(id)) continue;
    out.push([id, row["Element Name"], domain]);
  }
  return out.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

interface GoldRecord {
  id: string;
  posting: { title: string; description: string };
  gold: Record<TermType, { term: string; evidence: string }[]>;
}

interface TypeResult {
  type: TermType | "overall";
  postings: number;
  gold: number;
  extracted: number;
  true_positives: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  top_false_positives: { term: string; count: number; surfaces: [string, number][] }[];
  top_false_negatives: { term: string; count: number }[];
}

const ratio = (a: number, b: number) => b === 0 ? null : a / b;

function increment<K>(map: Map<K, number>, key: K, by = 1) {
  map.set(key, (map.get(key) ?? 0) + by);
}

function top<K>(map: Map<K, number>, n: number): [K, number][] {
  return [...map].sort((a, b) => b[1] - a[1] || (String(a[0]) < String(b[0]) ? -1 : 1))
    .slice(0, n);
}

const onetDir = resolve(values.onet);
const [technologies, elements, curated] = await Promise.all([
  readTechnologies(onetDir),
  readLeafElements(onetDir),
  readCuratedDictionary(),
]);
const matcher = compileMatcher(technologies, elements, curated);
const records: GoldRecord[] = (await Deno.readTextFile(values.gold)).split("\n")
  .filter((l) => l.trim() !== "").map((l) => JSON.parse(l));

// Gold names that the vocabulary does not hold can never be found: report them.
const vocabulary = new Map<TermType, Set<string>>(TERM_TYPES.map((t) => [t, new Set()]));
for (const term of matcher.terms) vocabulary.get(term.type)!.add(term.name);
const unknownGold: { id: string; type: TermType; term: string }[] = [];

const perType = new Map(TERM_TYPES.map((type) => [type, {
  gold: 0,
  extracted: 0,
  tp: 0,
  fp: new Map<string, number>(),
  fpSurfaces: new Map<string, Map<string, number>>(),
  fn: new Map<string, number>(),
}]));
const postings: {
  id: string;
  type: TermType;
  false_positives: { term: string; surface: string }[];
  false_negatives: { term: string; evidence: string }[];
}[] = [];

for (const record of records) {
  const title = htmlToText(record.posting.title ?? "").replace(/\s+/g, " ").trim();
  const description = htmlToText(record.posting.description ?? "");
  const mentions = extractMentions(matcher, title, description, []);
  for (const type of TERM_TYPES) {
    const stats = perType.get(type)!;
    // Distinct extracted names, each with the first surface text that produced it.
    const found = new Map<string, string>();
    for (const m of mentions) {
      if (m.type !== type) continue;
      const name = matcher.terms[m.term].name;
      if (found.has(name)) continue;
      const text = m.field === "title" ? title : description;
      found.set(name, text.slice(m.start, m.end));
    }
    const gold = new Map<string, string>();
    for (const { term, evidence } of record.gold[type] ?? []) {
      gold.set(term, evidence);
      if (!vocabulary.get(type)!.has(term)) unknownGold.push({ id: record.id, type, term });
    }
    stats.gold += gold.size;
    stats.extracted += found.size;
    const fps: { term: string; surface: string }[] = [];
    const fns: { term: string; evidence: string }[] = [];
    for (const [name, surface] of found) {
      if (gold.has(name)) stats.tp++;
      else {
        increment(stats.fp, name);
        const surfaces = stats.fpSurfaces.get(name) ?? new Map<string, number>();
        increment(surfaces, surface);
        stats.fpSurfaces.set(name, surfaces);
        fps.push({ term: name, surface });
      }
    }
    for (const [name, evidence] of gold) {
      if (!found.has(name)) {
        increment(stats.fn, name);
        fns.push({ term: name, evidence });
      }
    }
    if (fps.length || fns.length) {
      postings.push({ id: record.id, type, false_positives: fps, false_negatives: fns });
    }
  }
}

function result(
  type: TermType | "overall",
  gold: number,
  extracted: number,
  tp: number,
): Omit<TypeResult, "top_false_positives" | "top_false_negatives"> {
  const precision = ratio(tp, extracted);
  const recall = ratio(tp, gold);
  const f1 = precision === null || recall === null || precision + recall === 0
    ? (precision === null || recall === null ? null : 0)
    : 2 * precision * recall / (precision + recall);
  return {
    type,
    postings: records.length,
    gold,
    extracted,
    true_positives: tp,
    precision,
    recall,
    f1,
  };
}

const results: TypeResult[] = TERM_TYPES.map((type) => {
  const s = perType.get(type)!;
  return {
    ...result(type, s.gold, s.extracted, s.tp),
    top_false_positives: top(s.fp, 10).map(([term, count]) => ({
      term,
      count,
      surfaces: top(s.fpSurfaces.get(term)!, 5),
    })),
    top_false_negatives: top(s.fn, 10).map(([term, count]) => ({ term, count })),
  };
});
const sum = (key: "gold" | "extracted" | "tp") =>
  [...perType.values()].reduce((a, s) => a + s[key], 0);
const overall = {
  ...result("overall", sum("gold"), sum("extracted"), sum("tp")),
  top_false_positives: [],
  top_false_negatives: [],
};

const dictionaryHash = (await sha256Hex(
  Object.entries(curated.files).sort(([a], [b]) => a < b ? -1 : 1).map(([, text]) => text)
    .join("\n"),
)).slice(0, 12);
const meta = {
  extractor_version: EXTRACTOR_VERSION,
  dictionary: {
    technology_aliases: curated.aliases.version,
    element_synonyms: curated.synonyms.version,
    sha256: dictionaryHash,
  },
  onet: onetDir,
  vocabulary: Object.fromEntries(TERM_TYPES.map((t) => [t, vocabulary.get(t)!.size])),
  gold: {
    file: resolve(values.gold),
    postings: records.length,
    labels: sum("gold"),
    unknown_terms: unknownGold,
  },
};

if (values.json) {
  console.log(JSON.stringify({ meta, results, overall, postings }, null, 2));
} else {
  const pct = (x: number | null) => x === null ? "-" : (100 * x).toFixed(1);
  console.log(
    `extractor v${meta.extractor_version}; dictionary technology_aliases v${meta.dictionary.technology_aliases}, ` +
      `element_synonyms v${meta.dictionary.element_synonyms} (sha256 ${dictionaryHash})`,
  );
  console.log(
    `vocabulary (${onetDir}): ` +
      TERM_TYPES.map((t) => `${t} ${meta.vocabulary[t]}`).join(", "),
  );
  console.log(`gold set: ${records.length} postings, ${meta.gold.labels} labels`);
  if (unknownGold.length) {
    console.log(`gold terms missing from the vocabulary: ${unknownGold.length}`);
    for (const u of unknownGold) console.log(`  ${u.id} ${u.type}: ${u.term}`);
  }
  console.log();
  const header = ["type", "postings", "gold", "extracted", "TP", "precision", "recall", "F1"];
  const rows = [...results, overall].map((r) => [
    r.type,
    String(r.postings),
    String(r.gold),
    String(r.extracted),
    String(r.true_positives),
    pct(r.precision),
    pct(r.recall),
    pct(r.f1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) {
    if (row[0] === "overall") console.log(widths.map((w) => "-".repeat(w)).join("  "));
    console.log(line(row));
  }
  for (const r of results) {
    console.log(`\n${r.type}`);
    console.log("  top false positives:");
    if (r.top_false_positives.length === 0) console.log("    (none)");
    for (const fp of r.top_false_positives) {
      const surfaces = fp.surfaces.map(([s, n]) => JSON.stringify(s) + (n > 1 ? ` x${n}` : ""))
        .join(", ");
      console.log(`    ${String(fp.count).padStart(3)}  ${fp.term}  <- ${surfaces}`);
    }
    console.log("  top false negatives:");
    if (r.top_false_negatives.length === 0) console.log("    (none)");
    for (const fn of r.top_false_negatives) {
      console.log(`    ${String(fn.count).padStart(3)}  ${fn.term}`);
    }
  }
}
