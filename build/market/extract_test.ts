/**
 * Unit tests of the term extraction: spans, longest match, types, exact-case and blocked forms,
 * the automatic technology forms and determinism. A tiny in-test vocabulary stands in for O*NET.
 */
import assert from "node:assert/strict";
import {
  compileMatcher,
  type ElementSynonyms,
  extractMentions,
  type Mention,
  type TechnologyAliases,
  technologyForms,
  type TermMatcher,
  type TermType,
  tokenSpans,
} from "./extract.ts";

const TECHNOLOGIES = [
  "PostgreSQL",
  "Kubernetes",
  "C++",
  "C",
  "Go",
  "Microsoft .NET Framework",
  "Microsoft ASP.NET",
  "Node.js",
  "Python",
  "Microsoft SQL Server",
  "Structured query language SQL",
  "Amazon Web Services AWS software",
  "Data analysis software",
  "Analyze",
  "Slack",
];

const ELEMENTS: [string, string, TermType][] = [
  ["2.A.1.c", "Writing", "skill"],
  ["2.A.1.d", "Speaking", "skill"],
  ["2.B.3.e", "Programming", "skill"],
  ["2.C.3.a", "Computers and Electronics", "knowledge"],
  ["1.A.1.a.3", "Oral Expression", "ability"],
  ["4.A.3.b.1", "Working with Computers", "work_activity"],
];

const ALIASES: TechnologyAliases = {
  version: "test",
  aliases: {
    "PostgreSQL": ["postgres"],
    "Kubernetes": ["k8s"],
    "Microsoft .NET Framework": [".net", ".net framework"],
    "Structured query language SQL": ["sql"],
    "Python": ["python programming"],
    // An Example this "release" does not list: its alias must be ignored.
    "Not In This Release": ["ghost"],
  },
  case_sensitive: { "Go": ["Go"], "Slack": ["Slack"] },
  blocked_forms: ["analyze", "data analysis", "slack", "sql"],
};

const SYNONYMS: ElementSynonyms = {
  version: "test",
  elements: {
    "2.A.1.c": { name: "Writing", domain: "skill", phrases: ["written and verbal"] },
    "2.A.1.d": { name: "Speaking", domain: "skill", phrases: ["communication skills"] },
    "2.B.3.e": {
      name: "Programming",
      domain: "skill",
      phrases: ["programming", "software development"],
    },
    "2.C.3.a": {
      name: "Computers and Electronics",
      domain: "knowledge",
      phrases: ["computer science", "software development life cycle"],
    },
    "1.A.1.a.3": { name: "Oral Expression", domain: "ability", phrases: ["communication skills"] },
    "4.A.3.b.1": {
      name: "Working with Computers",
      domain: "work_activity",
      phrases: ["programming", "software development"],
    },
  },
};

const matcher = compileMatcher(TECHNOLOGIES, ELEMENTS, { aliases: ALIASES, synonyms: SYNONYMS });

/** A mention with its term name and the text it covers. */
interface Found {
  type: TermType;
  name: string;
  field: Mention["field"];
  start: number;
  end: number;
  text: string;
}

function extract(
  title: string,
  description = "",
  skills: string[] = [],
  m: TermMatcher = matcher,
): Found[] {
  const fields = { title, description, skills: skills.join("\n") };
  return extractMentions(m, title, description, skills).map((x) => ({
    type: x.type,
    name: m.terms[x.term].name,
    field: x.field,
    start: x.start,
    end: x.end,
    text: fields[x.field].slice(x.start, x.end),
  }));
}

/** [name, matched text] of the mentions of one type, in text order. */
function of(found: Found[], type: TermType): [string, string][] {
  return found.filter((f) => f.type === type).sort((a, b) => a.start - b.start)
    .map((f) => [f.name, f.text]);
}

Deno.test("tokens keep c++, c#, node.js and .net, but not a sentence's final dot", () => {
  const tokens = (s: string) => tokenSpans(s).map((t) => t.token);
  assert.deepEqual(tokens("C++, C# and Node.js on .NET"), [
    "c++",
    "c#",
    "and",
    "node.js",
    "on",
    ".net",
  ]);
  assert.deepEqual(tokens("We use ASP.NET."), ["we", "use", "asp.net"]);
  assert.deepEqual(tokens("I like Python. Go!"), ["i", "like", "python", "go"]);
  assert.deepEqual(tokens("Café crème"), ["cafe", "creme"]);
});

Deno.test("every span slices exactly the matched surface text", () => {
  const description = "We run Postgres on k8s. Services in C++ and .NET, tools in Node.js and " +
    "Microsoft .NET Framework; AWS and Amazon Web Services AWS software too.";
  const found = extract("Senior C++ Engineer", description, ["postgres", "Kubernetes"]);
  const fields: Record<Mention["field"], string> = {
    title: "Senior C++ Engineer",
    description,
    skills: "postgres\nKubernetes",
  };
  for (const f of found) {
    assert.equal(fields[f.field].slice(f.start, f.end), f.text);
    assert.ok(f.start < f.end, JSON.stringify(f));
  }
  assert.deepEqual(of(found.filter((f) => f.field === "description"), "technology"), [
    ["PostgreSQL", "Postgres"],
    ["Kubernetes", "k8s"],
    ["C++", "C++"],
    ["Microsoft .NET Framework", ".NET"],
    ["Node.js", "Node.js"],
    ["Microsoft .NET Framework", "Microsoft .NET Framework"],
    ["Amazon Web Services AWS software", "AWS"],
    ["Amazon Web Services AWS software", "Amazon Web Services AWS software"],
  ]);
  assert.deepEqual(of(found.filter((f) => f.field === "title"), "technology"), [["C++", "C++"]]);
  assert.deepEqual(
    found.filter((f) => f.field === "skills").map((f) => [f.name, f.start, f.end]),
    [["PostgreSQL", 0, 8], ["Kubernetes", 9, 19]],
  );
});

Deno.test("offsets are UTF-16 offsets of the original text after multi-byte characters", () => {
  for (
    const text of [
      "Café Python",
      "Cafe\u0301 Python", // decomposed accent: one more code unit than "Café"
      "🚀 Python",
      "💡🚀 naïve coder, Python and k8s",
      "Ünïcödé — Postgres",
    ]
  ) {
    const found = extract("", text);
    const python = text.indexOf("Python");
    for (const f of found) assert.equal(text.slice(f.start, f.end), f.text, text);
    if (python >= 0) {
      const hit = found.find((f) => f.name === "Python");
      assert.ok(hit, text);
      assert.equal(hit.start, python, text);
      assert.equal(hit.end, python + "Python".length, text);
    }
  }
  const found = extract("", "Ünïcödé — Postgres");
  assert.deepEqual(of(found, "technology"), [["PostgreSQL", "Postgres"]]);
  assert.equal(found[0].start, "Ünïcödé — ".length);
});

Deno.test("the longest phrase wins and matches of one type do not overlap", () => {
  const found = extract(
    "",
    "Microsoft SQL Server and SQL; Microsoft ASP.NET; written and verbal communication skills; " +
      "software development life cycle",
  );
  assert.deepEqual(of(found, "technology"), [
    ["Microsoft SQL Server", "Microsoft SQL Server"],
    ["Structured query language SQL", "SQL"],
    ["Microsoft ASP.NET", "Microsoft ASP.NET"],
  ]);
  // "written and verbal" is Writing; the rest, "communication skills", is Speaking.
  assert.deepEqual(of(found, "skill"), [
    ["Writing", "written and verbal"],
    ["Speaking", "communication skills"],
    ["Programming", "software development"],
  ]);
  assert.deepEqual(of(found, "knowledge"), [
    ["Computers and Electronics", "software development life cycle"],
  ]);
  for (const type of new Set(found.map((f) => f.type))) {
    const spans = found.filter((f) => f.type === type).sort((a, b) => a.start - b.start);
    for (let i = 1; i < spans.length; i++) {
      assert.ok(spans[i - 1].end <= spans[i].start, `${type} overlap: ${JSON.stringify(spans)}`);
    }
  }
});

Deno.test("the same span can match terms of different types", () => {
  const found = extract("", "Strong communication skills and programming.");
  const at = (text: string) =>
    found.filter((f) => f.text === text).map((f) => `${f.type}:${f.name}`).sort();
  // A phrase a skill lists counts for the skill only, not also for an ability.
  assert.deepEqual(at("communication skills"), ["skill:Speaking"]);
  assert.deepEqual(at("programming"), [
    "skill:Programming",
    "work_activity:Working with Computers",
  ]);
  const programming = found.filter((f) => f.text === "programming");
  assert.equal(new Set(programming.map((f) => `${f.start}-${f.end}`)).size, 1);
});

Deno.test("case-sensitive forms match only as written", () => {
  assert.deepEqual(of(extract("", "Backend in Go and Python"), "technology"), [
    ["Go", "Go"],
    ["Python", "Python"],
  ]);
  assert.deepEqual(of(extract("", "Ready to go to the office; GO team"), "technology"), []);
  assert.deepEqual(of(extract("", "We talk on Slack"), "technology"), [["Slack", "Slack"]]);
  assert.deepEqual(of(extract("", "some slack in the schedule"), "technology"), []);
  // Two-character automatic forms are exact too: "C" but not "c".
  assert.deepEqual(of(extract("", "C and C++"), "technology"), [["C", "C"], ["C++", "C++"]]);
  assert.deepEqual(of(extract("", "see section c"), "technology"), []);
});

Deno.test("blocked automatic forms never match; the full string and aliases still do", () => {
  assert.deepEqual(
    of(extract("", "Analyze data. ANALYZE results, analyze trends"), "technology"),
    [],
  );
  assert.deepEqual(of(extract("", "strong data analysis skills"), "technology"), []);
  assert.deepEqual(of(extract("", "Data analysis software such as Python"), "technology"), [
    ["Data analysis software", "Data analysis software"],
    ["Python", "Python"],
  ]);
  // "sql" is blocked as a derived form: it resolves only through the alias of one Example.
  const sql = extract("", "sql and SQL").filter((f) => f.type === "technology");
  assert.deepEqual([...new Set(sql.map((f) => f.name))], ["Structured query language SQL"]);
  // An alias of an Example missing from the release adds nothing.
  assert.deepEqual(extract("", "a ghost in the machine"), []);
  assert.ok(!matcher.terms.some((t) => t.name === "Not In This Release"));
});

Deno.test("technologyForms derives the bare name and the trailing acronym", () => {
  const forms = technologyForms("Amazon Web Services AWS software");
  assert.ok(forms.includes("AWS"), JSON.stringify(forms));
  assert.ok(forms.includes("Amazon Web Services AWS"), JSON.stringify(forms));
  assert.ok(forms.includes("Amazon Web Services AWS software"), JSON.stringify(forms));
  assert.deepEqual(technologyForms("Structured query language SQL"), [
    "Structured query language SQL",
    "SQL",
  ]);
  assert.deepEqual(technologyForms("Python"), ["Python"]);
  assert.deepEqual(technologyForms("Data analysis software"), [
    "Data analysis software",
    "Data analysis",
  ]);
});

Deno.test("extraction is deterministic: same input, identical output", () => {
  const title = "Go / C++ developer (k8s, Postgres)";
  const description = "Café ☕ — written and verbal communication skills, programming in Go, " +
    "Microsoft SQL Server and SQL, .NET and Node.js.";
  const first = extract(title, description, ["Python", "k8s"]);
  assert.ok(first.length > 10);
  assert.deepEqual(extract(title, description, ["Python", "k8s"]), first);
  // A matcher compiled from the same vocabulary given in another order gives the same output.
  const reordered = compileMatcher([...TECHNOLOGIES].reverse(), [...ELEMENTS].reverse(), {
    aliases: ALIASES,
    synonyms: SYNONYMS,
  });
  assert.deepEqual(extract(title, description, ["Python", "k8s"], reordered), first);
  assert.deepEqual(
    extractMentions(reordered, title, description, []),
    extractMentions(matcher, title, description, []),
  );
});

Deno.test("a knowledge domain counts only in a sentence that asks for it or describes the work", () => {
  const knowledge = (description: string) => of(extract("", description), "knowledge");
  // The employer's line of business is no requirement.
  assert.deepEqual(knowledge("We are a computer science education company. We love pizza."), []);
  // A requirement or the work itself is.
  assert.deepEqual(knowledge("Degree in computer science required."), [
    ["Computers and Electronics", "computer science"],
  ]);
  assert.deepEqual(knowledge("We are a startup.\nYou will apply computer science daily."), [
    ["Computers and Electronics", "computer science"],
  ]);
  // The sentence ends at ". ", so a requirement in the next sentence does not count.
  assert.deepEqual(
    knowledge("We build computer science tools. Experience with Go is required."),
    [],
  );
});
