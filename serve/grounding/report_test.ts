import nodeAssert from "node:assert/strict";

function assert(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message ?? "expected a truthy value");
}
const assertEquals = <T>(actual: T, expected: T) => nodeAssert.deepStrictEqual(actual, expected);
const assertNotEquals = <T>(actual: T, expected: T) =>
  nodeAssert.notDeepStrictEqual(actual, expected);
import { composeReport, PASSPORT_RULES } from "./report.ts";
import { DecisionPassportV1, RoleReportRequest, RoleReportResponse } from "./report_schemas.ts";
import type { OccupationView, ReportInput, RetrievedChunk } from "./types.ts";

const DATA_SCIENTISTS = {
  onet_code: "15-2051.00",
  title: "Data Scientists",
  score: 0.8,
  skills: ["Mathematics", "Critical Thinking", "Programming", "Complex Problem Solving", "Writing"],
  tasks: [
    "Analyze, manipulate, or process large sets of data using statistical software.",
    "Clean and manipulate raw data using statistical software.",
    "Create graphs, charts, or other visualizations to convey the results of data analysis " +
    "using specialized software.",
    "Apply feature selection algorithms to models predicting outcomes of interest, such as " +
    "sales, attrition, and healthcare use.",
  ],
  technologies: ["Python", "R", "Structured query language SQL", "Tableau", "Apache Spark"],
};
const NURSES = {
  onet_code: "29-1141.00",
  title: "Registered Nurses",
  score: 0.1,
  skills: ["Active Listening", "Monitoring", "Coordination"],
  tasks: [
    "Record patients' medical information and vital signs.",
    "Administer medications to patients and monitor patients for reactions or side effects.",
  ],
  technologies: ["Epic Systems", "MEDITECH software"],
};
const VIEW: OccupationView = {
  taxonomy_release: "29.3",
  taxonomy_version: "onet-29.3-test",
  candidates: [DATA_SCIENTISTS, NURSES],
};

function chunk(source: string, ordinal: number, text: string, rank = 0.5): RetrievedChunk {
  const hex = (source + ordinal).split("").map((c) => c.charCodeAt(0).toString(16)).join("");
  return {
    evidence_id: `ev_${hex}`,
    chunk_id: `ch_${hex}`,
    source_id: source,
    source_title: `Title of ${source}`,
    version_id: `ver_${source}`,
    version_number: 1,
    ordinal,
    start_char: ordinal * 100,
    end_char: ordinal * 100 + text.length,
    page: 1,
    excerpt_sha256: hex.padEnd(64, "0").slice(0, 64),
    text,
    rank,
  };
}

function input(chunks: RetrievedChunk[], extra: Partial<ReportInput> = {}): ReportInput {
  return {
    role_title: "Data Scientist",
    focus_areas: [],
    top_k: 5,
    include_passport: true,
    chunks,
    occupation: VIEW,
    decision_id: "dec_test.1",
    trace_id: "trc_test_1",
    ...extra,
  };
}

const POSTING_A = [
  chunk("src_a", 0, "We analyze large data sets with statistical software and Python every day."),
  chunk("src_a", 1, "You will clean raw data, write SQL, and build dashboards in Tableau."),
  chunk("src_a", 2, "Strong programming and mathematics skills; critical thinking is essential."),
];
const POSTING_B = [
  chunk(
    "src_b",
    0,
    "As a data scientist you will process large sets of data with statistical tools.",
  ),
  chunk("src_b", 1, "Experience with Python and Apache Spark; create charts and visualizations."),
];

function allStatements(out: ReturnType<typeof composeReport>) {
  const r = out.report;
  return [...r.summary.statements, ...r.responsibilities, ...r.skills, ...r.tools];
}

Deno.test("composeReport is deterministic: same JSON, whatever the chunk order", () => {
  const chunks = [...POSTING_A, ...POSTING_B];
  const first = composeReport(input(chunks, { focus_areas: ["Python", "deep learning"] }));
  const second = composeReport(input(chunks, { focus_areas: ["Python", "deep learning"] }));
  const shuffled = composeReport(
    input([...chunks].reverse(), { focus_areas: ["Python", "deep learning"] }),
  );
  assertEquals(first, second);
  assertEquals(JSON.stringify(first), JSON.stringify(second));
  assertEquals(JSON.stringify(first), JSON.stringify(shuffled));
  RoleReportResponse.parse(first);
});

Deno.test("a grounded report states supported taxonomy terms with their evidence", () => {
  const out = composeReport(input([...POSTING_A, ...POSTING_B]));
  assertEquals(out.report.status, "grounded");
  assertEquals(out.report.summary.occupation?.onet_code, "15-2051.00");
  const terms = (xs: { term: string }[]) => xs.map((x) => x.term).sort();
  assertEquals(terms(out.report.tools), [
    "Apache Spark",
    "Python",
    "Structured query language SQL",
    "Tableau",
  ]);
  assertEquals(terms(out.report.skills), [
    "Critical Thinking",
    "Mathematics",
    "Programming",
  ]);
  const python = out.report.tools.find((t) => t.term === "Python")!;
  assertEquals(python.support, 2);
  assertEquals(python.basis, "onet_technology");
  // "R" is a one-letter name: it must not match inside other words or lowercase text.
  assert(!out.report.tools.some((t) => t.term === "R"));
  assert(out.report.responsibilities.some((t) => t.term.startsWith("Analyze, manipulate")));
  assertEquals(out.passport?.status, "completed");
  assertEquals(out.passport?.abstention, { status: "not_abstained", reason: null });
  const specific = out.report.summary.occupation!.specific_terms_supported;
  const expected = Math.round(
    (0.4 * 0.8 + 0.6 * Math.min(1, specific / PASSPORT_RULES.confidence_saturation)) * 1e4,
  ) / 1e4;
  assertEquals(out.passport?.assessment.confidence.value, expected);
  assertEquals(out.passport?.assessment.trust_score.value, Math.round(1e4 * 2 / 3) / 1e4);
});

Deno.test("abstains with no evidence, with or without the passport", () => {
  for (const include_passport of [true, false]) {
    const out = composeReport(input([], { include_passport, focus_areas: ["SQL"] }));
    assertEquals(out.report.status, "abstained");
    assertEquals(allStatements(out), []);
    assertEquals(out.evidence_references, []);
    assert(out.uncertainty_signals.includes("no_evidence_retrieved"));
    assert(out.uncertainty_signals.includes("insufficient_evidence"));
    assert(out.review_flags.includes("abstained_insufficient_evidence"));
    assertEquals(out.report.focus_areas, [
      { focus_area: "SQL", covered: false, statement_id: null },
    ]);
    assertEquals(out.draft.editable, false);
    if (include_passport) {
      const p = DecisionPassportV1.parse(out.passport);
      assertEquals(p.status, "abstained");
      assertEquals(p.abstention.status, "abstained");
      assert(p.abstention.reason !== null);
      assertEquals(p.assessment.confidence.value, 0);
      assertEquals(p.assessment.evidence_sufficiency.status, "insufficient");
    } else {
      assertEquals(out.passport, null);
    }
  }
});

Deno.test("abstains when the evidence is about another role (generic skills only)", () => {
  const chunks = [
    chunk("src_n", 0, "Our ward nurses use active listening and coordination with families."),
    chunk("src_n", 1, "Monitoring of staffing levels happens weekly on the unit."),
  ];
  const out = composeReport(input(chunks));
  assertEquals(out.report.status, "abstained");
  assertEquals(allStatements(out), []);
  assertEquals(out.passport?.status, "abstained");
  assert(out.uncertainty_signals.includes("too_few_specific_terms_supported"));
});

Deno.test("detects an experience conflict across two sources, citing both", () => {
  const a = chunk("src_a", 9, "Requirements: 5+ years of experience in applied statistics.");
  const b = chunk("src_b", 9, "Requirements: 2 years of professional experience in analytics.");
  const out = composeReport(input([...POSTING_A, ...POSTING_B, a, b]));
  const conflicts = out.passport!.conflicts;
  assertEquals(conflicts.map((c) => c.code), ["experience_years_conflict"]);
  assertEquals(
    [...conflicts[0].evidence_reference_ids].sort(),
    [a.evidence_id, b.evidence_id].sort(),
  );
  assert(conflicts[0].summary.includes("5+ years") && conflicts[0].summary.includes("2 years"));
  assert(!conflicts[0].summary.includes("Requirements"));
  const ids = new Set(out.evidence_references.map((r) => r.id));
  for (const id of conflicts[0].evidence_reference_ids) assert(ids.has(id));
  assertEquals(out.passport!.status, "review_required");
  assert(out.review_flags.includes("experience_years_conflict"));
  assert(out.passport!.assessment.trust_score.value < 2 / 3);
});

Deno.test("detects a seniority conflict across sources (senior vs junior)", () => {
  const a = chunk("src_a", 8, "We are hiring a Senior Data Scientist for the pricing team.");
  const b = chunk("src_b", 8, "This is a junior data scientist position on the pricing team.");
  const out = composeReport(input([...POSTING_A, ...POSTING_B, a, b]));
  assertEquals(out.passport!.conflicts.map((c) => c.code), ["seniority_conflict"]);
  assert(out.passport!.conflicts[0].summary.includes("senior"));
  assert(out.passport!.conflicts[0].summary.includes("junior"));
});

Deno.test("no false conflict within one source, nor between compatible sources", () => {
  const ladder = [
    chunk("src_a", 7, "Senior data scientist: 5+ years of experience."),
    chunk("src_a", 8, "Junior data scientist: 2 years of experience; mentor junior engineers."),
  ];
  assertEquals(
    composeReport(input([...POSTING_A, ...POSTING_B, ...ladder])).passport!.conflicts,
    [],
  );
  const compatible = [
    chunk("src_a", 9, "At least 3 years of experience; you will mentor junior analysts."),
    chunk("src_b", 9, "3-5 years of experience as a senior data scientist or lead data scientist."),
    chunk("src_c", 9, "Founded 12 years ago; we report to senior leadership."),
  ];
  const out = composeReport(input([...POSTING_A, ...POSTING_B, ...compatible]));
  assertEquals(out.passport!.conflicts, []);
});

Deno.test("every evidence id refers to a returned reference and is really supporting", () => {
  const out = composeReport(input([...POSTING_A, ...POSTING_B], { top_k: 1 }));
  const refs = new Map(out.evidence_references.map((r) => [r.id, r]));
  const cited = new Set<string>();
  for (const s of allStatements(out)) {
    assert(s.evidence_reference_ids.length >= 1 && s.evidence_reference_ids.length <= 1);
    for (const id of s.evidence_reference_ids) {
      assert(refs.has(id), `${s.id} cites unknown ${id}`);
      cited.add(id);
    }
  }
  assertEquals([...refs.keys()].sort(), [...cited].sort());
  const sql = out.report.tools.find((t) => t.term === "Structured query language SQL")!;
  assertEquals(sql.evidence_reference_ids, [POSTING_A[1].evidence_id]);
  for (const s of out.source_references) {
    for (const id of s.evidence_reference_ids) assertEquals(refs.get(id)?.source_id, s.source_id);
  }
});

Deno.test("no chunk text reaches the output, the trace or the passport", () => {
  const marker = "ZQX_MARKER_7731";
  const chunks = [
    ...POSTING_A.map((c) => ({ ...c, text: `${c.text} ${marker} secret-note-${c.ordinal}` })),
    chunk("src_b", 3, `Python, Tableau and SQL ${marker}. 5+ years of experience.`),
    chunk("src_c", 3, `${marker} Python. Needs 1 year of experience as a junior data scientist.`),
  ];
  const out = composeReport(input(chunks, { focus_areas: ["Python", "forecasting"] }));
  const json = JSON.stringify(out);
  assert(!json.includes(marker));
  assert(!json.includes("secret-note"));
  // No 40-character window of chunk text appears unless it is inside a taxonomy term.
  const vocabulary = [
    ...DATA_SCIENTISTS.tasks,
    ...DATA_SCIENTISTS.skills,
    ...DATA_SCIENTISTS
      .technologies,
  ];
  for (const c of chunks) {
    for (let i = 0; i + 40 <= c.text.length; i++) {
      const window = c.text.slice(i, i + 40);
      if (json.includes(window)) assert(vocabulary.some((v) => v.includes(window)), window);
    }
  }
});

Deno.test("focus-area coverage: ratio, statement ids, limited and not applicable", () => {
  const chunks = [
    ...POSTING_A,
    ...POSTING_B,
    chunk("src_b", 4, "Machine learning models go to production weekly."),
  ];
  const half = composeReport(input(chunks, {
    focus_areas: ["Python", "machine learning", "Kubernetes", "underwater welding"],
  }));
  assertEquals(half.passport!.coverage, {
    status: "measured",
    ratio: 0.5,
    basis: "focus_areas",
    reason: "2 of 4 focus areas are supported by the evidence.",
  });
  const python = half.report.focus_areas[0];
  assertEquals(python.statement_id, half.report.tools.find((t) => t.term === "Python")!.id);
  const ml = half.report.skills.find((s) => s.basis === "focus_area")!;
  assertEquals(ml.term, "machine learning");
  assertEquals(half.report.focus_areas[1].statement_id, ml.id);
  const quarter = composeReport(input(chunks, {
    focus_areas: ["Python", "Kubernetes", "underwater welding", "Rust"],
  }));
  assertEquals(quarter.passport!.coverage.status, "limited");
  assertEquals(quarter.passport!.coverage.ratio, 0.25);
  assertEquals(quarter.passport!.status, "review_required");
  assert(quarter.review_flags.includes("limited_focus_area_coverage"));
  const none = composeReport(input(chunks));
  assertEquals(none.passport!.coverage.status, "not_applicable");
  assertEquals(none.passport!.coverage.ratio, null);
  assertEquals(none.passport!.coverage.basis, "focus_areas");
});

Deno.test("a single source asks for review", () => {
  const out = composeReport(input(POSTING_A));
  assertEquals(out.passport!.status, "review_required");
  assert(out.review_flags.includes("single_source"));
  assertEquals(out.passport!.assessment.evidence_sufficiency.status, "limited");
});

Deno.test("passport bounds: limitations clipped to 25, references clipped to 50", () => {
  const groups = ["Python", "Tableau", "Apache Spark"];
  const chunks = groups.flatMap((tech, g) =>
    Array.from({ length: 20 }, (_, i) =>
      chunk(
        `src_${g}_${String(i).padStart(2, "0")}`,
        0,
        `Analyze large sets of data with statistical software in ${tech}.`,
        i / 100,
      ))
  );
  chunks.push(chunk("src_x", 1, "5+ years of experience as a senior data scientist."));
  chunks.push(chunk("src_y", 1, "1 year of experience as a junior data scientist."));
  const extraCandidates = ["11-1011.00", "13-2011.00", "43-9061.00"].map((code) => ({
    onet_code: code,
    title: `Unrelated ${code}`,
    score: 0.05,
    skills: [],
    tasks: [],
    technologies: ["Kronos Workforce Timekeeper"],
  }));
  const focus = Array.from({ length: 20 }, (_, i) => `unmatched focus area number ${i}`);
  const out = composeReport(input(chunks, {
    top_k: 20,
    focus_areas: focus,
    occupation: { ...VIEW, candidates: [...VIEW.candidates, ...extraCandidates] },
  }));
  const parsed = RoleReportResponse.parse(out);
  const p = DecisionPassportV1.parse(parsed.passport);
  assertEquals(p.assessment.limitations.length, 25);
  assert(p.assessment.limitations[24].endsWith("further limitations omitted."));
  assertEquals(out.evidence_references.length, 50);
  assertEquals(p.evidence.references.length, 50);
  assert(out.uncertainty_signals.includes("evidence_references_clipped"));
  const ids = new Set(out.evidence_references.map((r) => r.id));
  for (const s of allStatements(out)) {
    assert(s.evidence_reference_ids.length >= 1 && s.evidence_reference_ids.length <= 20);
    for (const id of s.evidence_reference_ids) assert(ids.has(id));
  }
  for (const c of p.conflicts) {
    assert(c.evidence_reference_ids.length >= 2 && c.evidence_reference_ids.length <= 10);
    for (const id of c.evidence_reference_ids) assert(ids.has(id));
  }
});

Deno.test("schemas: request bounds and defaults, passport bounds", () => {
  const ok = RoleReportRequest.parse({ role_title: "Nurse" });
  assertEquals(ok.top_k, 5);
  assertEquals(ok.include_passport, false);
  for (
    const bad of [
      {},
      { role_title: "" },
      { role_title: "x".repeat(501) },
      { role_title: "x", extra: 1 },
      { role_title: "x", top_k: 0 },
      { role_title: "x", top_k: 21 },
      { role_title: "x", top_k: 2.5 },
      { role_title: "x", role_context: "y".repeat(10_001) },
      { role_title: "x", focus_areas: Array(21).fill("a") },
      { role_title: "x", focus_areas: [""] },
      { role_title: "x", source_ids: Array(21).fill("s") },
    ]
  ) assert(!RoleReportRequest.safeParse(bad).success, JSON.stringify(bad).slice(0, 60));
  assert(RoleReportRequest.safeParse({ role_title: "x", role_context: null }).success);

  const out = composeReport(input([...POSTING_A, ...POSTING_B]));
  const passport = out.passport!;
  assert(DecisionPassportV1.safeParse(passport).success);
  const variants: unknown[] = [
    { ...passport, decision_id: "-bad" },
    { ...passport, decision_id: "ab" },
    { ...passport, type: "other" },
    { ...passport, summary: "" },
    { ...passport, extra: true },
    { ...passport, conflicts: [{ code: "x_y", summary: "s", evidence_reference_ids: ["a"] }] },
    { ...passport, conflicts: [{ code: "Bad", summary: "s", evidence_reference_ids: ["a", "b"] }] },
    { ...passport, coverage: { ...passport.coverage, ratio: 1.5 } },
    {
      ...passport,
      assessment: { ...passport.assessment, limitations: Array(26).fill("limit") },
    },
  ];
  for (const v of variants) assert(!DecisionPassportV1.safeParse(v).success);
  assertNotEquals(out.passport, null);
});
