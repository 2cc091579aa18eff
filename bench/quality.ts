/**
 * `deno task bench:quality`: accuracy and calibration of the occupation engine on a labelled
 * development set built from the O*NET release itself (engine/devset.ts): the alternate, short
 * and reported titles of one fold are held out of the index (by normalised form, so no label
 * leaks) and scored as O*NET writes them and as a posting would (levels, ids, locations, shifts,
 * upper case, abbreviations). The fold scored here (2) is neither the one the build calibrates on
 * (0) nor the one the weights were tuned on (1).
 *
 * Systems, all on the same split in the same process:
 * - hybrid: the engine with its semantic channel (what the server runs when vectors are built);
 * - lexical: the engine without vectors (the fallback policy);
 * - bm25: one document per occupation made of its titles, ranked as SQLite FTS5's bm25() does;
 * - pg-fts: the same documents in PostgreSQL full-text search, ranked by ts_rank_cd.
 *
 * Posting-style titles also come with a description made of three of the occupation's task
 * statements held out of the index ("posting + description"); the baselines see the title only.
 *
 * Usage: deno task bench:quality [--artifact <dir | version | release>]... [--fold N] [--quick]
 *
 * Several --artifact (e.g. `--artifact 29.3 --artifact 30.1`) are scored one after the other in
 * the same run, with the same split method and baselines, and summed up side by side.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { readCalibrations, readIndexSource } from "../serve/occupation/engine/load.ts";
import {
  type Channel,
  type ScoredExample,
  scoreFold,
} from "../serve/occupation/engine/calibrate.ts";
import { assess, BANDS } from "../serve/occupation/engine/confidence.ts";
import { calibrationReport } from "../serve/occupation/engine/logistic.ts";
import { type DevExample, splitFold } from "../serve/occupation/engine/devset.ts";
import { bm25Ranker, type OccupationDoc, postgresFtsRanker } from "./baselines.ts";
import { resolveSide } from "../build/diff_releases.ts";
import { normalizeTitle } from "../serve/text/normalize.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    artifact: { type: "string", multiple: true },
    fold: { type: "string", default: "2" },
    quick: { type: "boolean", default: false },
  },
});

/** Ranked codes (best first) and, for the engine, the calibrated top confidence. */
interface Answer {
  example: DevExample;
  codes: string[];
  confidence: number | null;
}

interface Metrics {
  n: number;
  top1: [number, number, number];
  top5: [number, number, number];
  mrr: number;
  coverage: number;
  ece: number | null;
}

const LEVELS = [10, 7, 2]; // O*NET-SOC (8-digit), SOC (6-digit), major group (2-digit)

function metrics(answers: Answer[]): Metrics {
  const top1: [number, number, number] = [0, 0, 0];
  const top5: [number, number, number] = [0, 0, 0];
  let mrr = 0;
  let covered = 0;
  for (const { example, codes } of answers) {
    if (codes.length > 0) covered++;
    LEVELS.forEach((chars, level) => {
      const accept = new Set(example.accept.map((c) => c.slice(0, chars)));
      if (codes.length > 0 && accept.has(codes[0].slice(0, chars))) top1[level]++;
      if (codes.slice(0, 5).some((c) => accept.has(c.slice(0, chars)))) top5[level]++;
    });
    const rank = codes.slice(0, 10).findIndex((c) => example.accept.includes(c));
    if (rank >= 0) mrr += 1 / (rank + 1);
  }
  const n = answers.length || 1;
  const withConfidence = answers.filter((a) => a.confidence !== null);
  const ece = withConfidence.length
    ? calibrationReport(
      withConfidence.map((a) => a.confidence!),
      withConfidence.map((a) =>
        a.codes.length > 0 && a.example.accept.includes(a.codes[0]) ? 1 : 0
      ),
    ).ece
    : null;
  return {
    n: answers.length,
    top1: top1.map((x) => x / n) as [number, number, number],
    top5: top5.map((x) => x / n) as [number, number, number],
    mrr: mrr / n,
    coverage: covered / n,
    ece,
  };
}

const pct = (x: number) => (100 * x).toFixed(1).padStart(5);

function row(name: string, m: Metrics): string {
  return [
    name.padEnd(22),
    pct(m.top1[0]),
    pct(m.top5[0]),
    pct(m.top1[1]),
    pct(m.top5[1]),
    pct(m.top1[2]),
    pct(m.top5[2]),
    pct(m.mrr),
    pct(m.coverage),
    m.ece === null ? "   n/a" : m.ece.toFixed(3).padStart(6),
  ].join("  ");
}

const HEADER = [
  "system".padEnd(22),
  "t1@8 ",
  "t5@8 ",
  "t1@6 ",
  "t5@6 ",
  "t1@2 ",
  "t5@2 ",
  "MRR10",
  "cover",
  "   ECE",
].join("  ");

function subsets(answers: Answer[]): [string, Answer[]][] {
  return [
    ["all", answers],
    ["O*NET wording", answers.filter((a) => a.example.variant === "onet")],
    ["posting wording", answers.filter((a) => a.example.variant === "posting")],
    ["posting + description", answers.filter((a) => a.example.variant === "described")],
  ];
}

/** The headline figures of one artifact, for the side-by-side summary. */
interface Summary {
  release: string;
  dir: string;
  occupations: number;
  titles: number;
  heldOut: number;
  engine: Metrics;
  bm25: Metrics;
  pg: Metrics;
  descriptionGain: number;
  ece: number;
  coverage70: number;
  accuracy70: number;
  /** Normalised titles of the release (every kind), to split another release's dev set. */
  titleForms: Set<string>;
  /** Engine answers to the held-out titles as O*NET writes them. */
  onetAnswers: Answer[];
}

/** Scores one artifact, prints its full report and returns its headline figures. */
async function evaluate(artifactDir: string, release: string): Promise<Summary> {
  const fold = Number(values.fold);
  const instance = await DuckDBInstance.create(join(artifactDir, "taxonomy.duckdb"), {
    access_mode: "READ_ONLY",
  });
  const connection = await instance.connect();
  const source = await readIndexSource(connection);
  const calibrations = await readCalibrations(connection);
  connection.closeSync();
  instance.closeSync();
  console.log(`artifact ${artifactDir}`);
  console.log(
    `index: ${source.occupations.length} occupations, ${source.titles.length} titles, ` +
      `${source.vectors ? source.vectors.terms.length + " word vectors" : "no vectors"}`,
  );

  const { index: indexTitles } = splitFold(source.titles, fold);
  const channels: Channel[] = source.vectors ? ["hybrid", "lexical"] : ["lexical"];
  const runs = new Map<Channel, { scored: ScoredExample[]; seconds: number }>();
  for (const channel of channels) {
    const started = performance.now();
    const { scored } = scoreFold(source, fold, channel);
    runs.set(channel, { scored, seconds: (performance.now() - started) / 1000 });
  }
  const allExamples = runs.get(channels[0])!.scored.map((s) => s.example);
  const step = values.quick ? Math.max(1, Math.floor(allExamples.length / 2000)) : 1;
  const examples = allExamples.filter((_, i) => i % step === 0);
  const count = (variant: string) => allExamples.filter((e) => e.variant === variant).length;
  console.log(
    `dev set: fold ${fold} of 5 held out: ${count("onet")} titles as O*NET writes them, ` +
      `${count("posting")} as a posting would, ${count("described")} of those with a ` +
      `description (three held-out task statements)` +
      (step > 1 ? `; --quick scores every ${step}th: ${examples.length}` : ""),
  );

  const results = new Map<string, Answer[]>();
  const scoredBy = new Map<Channel, ScoredExample[]>();
  for (const channel of channels) {
    const { scored, seconds } = runs.get(channel)!;
    const kept = scored.filter((_, i) => i % step === 0);
    scoredBy.set(channel, kept);
    const calibration = calibrations.get(channel)!;
    results.set(
      channel,
      kept.map((s) => ({
        example: s.example,
        codes: s.ranking.results.map((r) => r.onetCode),
        confidence: s.ranking.results.length ? assess(s.ranking, calibration).confidence : null,
      })),
    );
    console.log(
      `${channel}: ranked ${scored.length} queries in ${
        seconds.toFixed(1)
      } s (index build included)`,
    );
  }

  const byCode = new Map<string, string[]>();
  for (const t of indexTitles) {
    const list = byCode.get(t.onetCode) ?? [];
    list.push(t.title);
    byCode.set(t.onetCode, list);
  }
  const docs: OccupationDoc[] = [...byCode].sort().map(([onetCode, titles]) => ({
    onetCode,
    titles,
  }));
  for (
    const make of [() => Promise.resolve(bm25Ranker(docs)), () => postgresFtsRanker(docs)]
  ) {
    const ranker = await make();
    const started = performance.now();
    const answers: Answer[] = [];
    for (const example of examples) {
      answers.push({ example, codes: await ranker.rank(example.query, 10), confidence: null });
    }
    await ranker.close();
    results.set(ranker.name, answers);
    console.log(
      `${ranker.name}: ranked ${examples.length} queries in ${
        ((performance.now() - started) / 1000).toFixed(1)
      } s`,
    );
  }

  const names: Record<string, string> = {
    hybrid: "engine hybrid",
    lexical: "engine lexical-only",
    "fts5-bm25": "BM25 (FTS5 bm25())",
    "postgres-fts": "Postgres ts_rank_cd",
  };
  console.log(
    "\nt1/t5 = top-1/top-5 accuracy (%) at @8 O*NET-SOC, @6 SOC, @2 major group; MRR@10 at " +
      "O*NET-SOC;\ncoverage = queries with any answer; ECE (10 bins) of the calibrated " +
      "`confidence` (engine only).",
  );
  for (const view of ["candidates (top 10 listed)", "analyze (top 5 + confidence)"]) {
    console.log(`\n== ${view}`);
    for (const [subset] of subsets([])) {
      console.log(`-- ${subset}`);
      console.log(HEADER);
      for (const [name, answers] of results) {
        const list = subsets(answers).find(([s]) => s === subset)![1].map((a) =>
          view.startsWith("analyze") ? { ...a, codes: a.codes.slice(0, 5) } : {
            ...a,
            confidence: null,
          }
        );
        console.log(row(names[name] ?? name, metrics(list)));
      }
    }
  }

  // The baselines read titles only, so they are compared on the title-only queries.
  const titleOnly = (name: string) =>
    metrics(results.get(name)!.filter((a) => a.example.variant !== "described"));
  const engine = titleOnly(channels[0]);
  const bm25 = titleOnly("fts5-bm25");
  const pg = titleOnly("postgres-fts");
  const diff = (a: number, b: number, digits = 1) =>
    `${a >= b ? "+" : ""}${(100 * (a - b)).toFixed(digits)}`;
  console.log(`\n== differences (title-only queries, ${names[channels[0]]})`);
  console.log(
    `top-1 SOC 6-digit: ${diff(engine.top1[1], bm25.top1[1], 2)} points vs BM25, ` +
      `${diff(engine.top1[1], pg.top1[1])} vs Postgres FTS (target: >= +10 vs BM25)`,
  );
  console.log(
    `top-1 O*NET-SOC: ${diff(engine.top1[0], bm25.top1[0])} vs BM25; top-5: ${
      diff(engine.top5[0], bm25.top5[0])
    } vs BM25`,
  );
  if (channels.length === 2) {
    const lexical = titleOnly("lexical");
    console.log(
      `semantic channel: top-5 O*NET-SOC ${diff(engine.top5[0], lexical.top5[0])}, top-1 ${
        diff(engine.top1[0], lexical.top1[0])
      }, coverage ${diff(engine.coverage, lexical.coverage)} points over lexical-only`,
    );
  }
  const engineAnswers = results.get(channels[0])!;
  const withDescription = metrics(engineAnswers.filter((a) => a.example.variant === "described"));
  const describedTitles = new Set(
    engineAnswers.filter((a) => a.example.variant === "described").map((a) => a.example.query),
  );
  const sameTitles = metrics(
    engineAnswers.filter((a) =>
      a.example.variant === "posting" && describedTitles.has(a.example.query)
    ),
  );
  console.log(
    `a description (three task statements) adds ${
      diff(withDescription.top1[0], sameTitles.top1[0])
    } points of top-1 O*NET-SOC to the same posting titles`,
  );

  const answers = results.get(channels[0])!.filter((a) => a.confidence !== null);
  const labels = answers.map((a) => a.example.accept.includes(a.codes[0]) ? 1 : 0);
  const report = calibrationReport(answers.map((a) => a.confidence!), labels);
  console.log(
    `\n== calibration of confidence (${names[channels[0]]}, held-out fold, n=${answers.length})`,
  );
  console.log(`ECE ${report.ece} (target <= 0.05), Brier ${report.brier}`);
  console.log("bin          count  mean conf  accuracy");
  for (const bin of report.bins) {
    if (bin.count === 0) continue;
    console.log(
      `${bin.lower.toFixed(1)}-${bin.upper.toFixed(1)}  ${String(bin.count).padStart(9)}  ${
        bin.mean_confidence.toFixed(3).padStart(9)
      }  ${bin.accuracy.toFixed(3).padStart(8)}`,
    );
  }
  console.log("\n== accuracy at coverage (answer only when confidence >= threshold)");
  for (const threshold of [0, BANDS.medium, 0.5, BANDS.high, 0.8, 0.9]) {
    const chosen = answers.filter((a) => a.confidence! >= threshold);
    const right = chosen.filter((a) => a.example.accept.includes(a.codes[0])).length;
    console.log(
      `confidence >= ${threshold.toFixed(2)}: coverage ${
        pct(chosen.length / (answers.length || 1))
      }%, top-1 O*NET-SOC accuracy ${pct(right / (chosen.length || 1))}%`,
    );
  }
  const hybridScored = scoredBy.get(channels[0])!;
  const calibrationReportStored = calibrations.get(channels[0])!.report;
  console.log(
    `\nstored fit report (${channels[0]}): ${JSON.stringify(calibrationReportStored)}; ` +
      `scored ${hybridScored.length} here`,
  );
  const confident = answers.filter((a) => a.confidence! >= BANDS.high);
  return {
    release,
    dir: artifactDir,
    occupations: source.occupations.length,
    titles: source.titles.length,
    heldOut: allExamples.filter((e) => e.variant === "onet").length,
    engine,
    bm25,
    pg,
    descriptionGain: withDescription.top1[0] - sameTitles.top1[0],
    ece: report.ece,
    coverage70: confident.length / (answers.length || 1),
    accuracy70: confident.filter((a) => a.example.accept.includes(a.codes[0])).length /
      (confident.length || 1),
    titleForms: new Set(source.titles.map((t) => normalizeTitle(t.title))),
    onetAnswers: results.get(channels[0])!.filter((a) => a.example.variant === "onet"),
  };
}

/**
 * Where two releases' dev sets differ: each release's held-out O*NET titles split by whether
 * the other release has that title too, with the engine's top-1 on each part.
 */
function titleSplit(a: Summary, b: Summary): void {
  console.log(`\n== held-out O*NET titles by whether the other release has them (engine top-1)`);
  const part = (s: Summary, other: Summary, inOther: boolean) => {
    const list = s.onetAnswers.filter((x) =>
      other.titleForms.has(normalizeTitle(x.example.query)) === inOther
    );
    const right = list.filter((x) => x.codes.length > 0 && x.example.accept.includes(x.codes[0]));
    return `${String(list.length).padStart(5)} titles, top-1 ${
      pct(right.length / (list.length || 1))
    }%`;
  };
  console.log(`${a.release} titles also in ${b.release}: ${part(a, b, true)}`);
  console.log(`${a.release} titles gone in ${b.release}:  ${part(a, b, false)}`);
  console.log(`${b.release} titles also in ${a.release}: ${part(b, a, true)}`);
  console.log(`${b.release} titles new in ${b.release}:   ${part(b, a, false)}`);
}

/** One line per release of the headline figures (title-only queries for accuracy). */
function sideBySide(summaries: Summary[]): void {
  console.log(`\n== releases side by side (fold ${values.fold}, title-only queries)`);
  const cells = [
    ["release", (s: Summary) => s.release],
    ["occupations", (s: Summary) => String(s.occupations)],
    ["titles", (s: Summary) => String(s.titles)],
    ["held-out titles", (s: Summary) => String(s.heldOut)],
    ["engine top-1 O*NET-SOC", (s: Summary) => pct(s.engine.top1[0])],
    ["engine top-5 O*NET-SOC", (s: Summary) => pct(s.engine.top5[0])],
    ["engine top-1 SOC", (s: Summary) => pct(s.engine.top1[1])],
    ["BM25 top-1 O*NET-SOC", (s: Summary) => pct(s.bm25.top1[0])],
    ["BM25 top-1 SOC", (s: Summary) => pct(s.bm25.top1[1])],
    ["Postgres top-1 O*NET-SOC", (s: Summary) => pct(s.pg.top1[0])],
    ["description adds (top-1 points)", (s: Summary) => (100 * s.descriptionGain).toFixed(1)],
    ["ECE of confidence", (s: Summary) => s.ece.toFixed(3)],
    ["coverage at confidence >= 0.7", (s: Summary) => pct(s.coverage70)],
    ["top-1 at confidence >= 0.7", (s: Summary) => pct(s.accuracy70)],
  ] as const;
  for (const [name, cell] of cells) {
    console.log(`${name.padEnd(32)}${summaries.map((s) => cell(s).trim().padStart(10)).join("")}`);
  }
}

async function main() {
  const artifacts = Deno.env.get("ARTIFACTS_DIR") ?? "./artifacts";
  const targets = values.artifact?.length ? values.artifact : [
    join(
      artifacts,
      "taxonomy",
      (await Deno.readTextFile(join(artifacts, "taxonomy/current"))).trim(),
    ),
  ];
  const summaries: Summary[] = [];
  for (const target of targets) {
    const side = await resolveSide(target, artifacts);
    if (summaries.length > 0) console.log(`\n${"=".repeat(100)}\n`);
    summaries.push(await evaluate(side.dir, side.release));
  }
  if (summaries.length > 1) sideBySide(summaries);
  for (let i = 1; i < summaries.length; i++) titleSplit(summaries[i - 1], summaries[i]);
}

await main();
