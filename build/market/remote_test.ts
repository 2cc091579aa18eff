/** Unit tests of the remote/hybrid rules: which rule decides, and which phrases count. */
import assert from "node:assert/strict";
import { detectRemote, type RemoteSignal } from "./remote.ts";

const REMOTE = (rule: RemoteSignal["rule"]): RemoteSignal => ({
  remote: true,
  hybrid: false,
  rule,
});
const HYBRID = (rule: RemoteSignal["rule"]): RemoteSignal => ({
  remote: false,
  hybrid: true,
  rule,
});
const ONSITE = (rule: RemoteSignal["rule"]): RemoteSignal => ({
  remote: false,
  hybrid: false,
  rule,
});
const NOTHING: RemoteSignal = { remote: false, hybrid: false, rule: null };

type RuleCase = [
  name: string,
  input: [telecommute: boolean, column: boolean | "hybrid" | null, title: string, text: string],
  expected: RemoteSignal,
];

const RULES: RuleCase[] = [
  ["nothing says anything", [false, null, "Nurse", "Care for patients."], NOTHING],
  ["TELECOMMUTE", [true, null, "Nurse", ""], REMOTE("job_location_type")],
  [
    "TELECOMMUTE beats a remote column false",
    [true, false, "Nurse", ""],
    REMOTE(
      "job_location_type",
    ),
  ],
  ["TELECOMMUTE beats a hybrid column", [true, "hybrid", "Nurse", ""], REMOTE("job_location_type")],
  ["a remote column true", [false, true, "Nurse", ""], REMOTE("remote_column")],
  ["a remote column hybrid", [false, "hybrid", "Nurse", ""], HYBRID("remote_column")],
  ["a remote column false", [false, false, "Nurse", ""], ONSITE("remote_column")],
  [
    "a column false beats a remote title",
    [false, false, "Remote Nurse", ""],
    ONSITE(
      "remote_column",
    ),
  ],
  [
    "a column false beats a remote phrase",
    [false, false, "Nurse", "This is a fully remote role."],
    ONSITE(
      "remote_column",
    ),
  ],
  [
    "a column true beats a hybrid phrase",
    [false, true, "Nurse", "This is a hybrid role."],
    REMOTE(
      "remote_column",
    ),
  ],
  [
    "an empty column says nothing",
    [false, null, "Nurse", "Fully remote."],
    REMOTE(
      "description_phrase",
    ),
  ],
  ["remote in the title", [false, null, "Remote Nurse", ""], REMOTE("title_phrase")],
  ["hybrid in the title", [false, null, "Nurse (Hybrid)", ""], HYBRID("title_phrase")],
  [
    "the title before the description",
    [false, null, "Nurse - Hybrid", "Fully remote."],
    HYBRID(
      "title_phrase",
    ),
  ],
  [
    "a remote title beats a hybrid description",
    [false, null, "Remote Nurse", "Hybrid role."],
    REMOTE(
      "title_phrase",
    ),
  ],
  [
    "remote or hybrid in a title counts as remote",
    [false, null, "Nurse (Remote or Hybrid)", ""],
    REMOTE(
      "title_phrase",
    ),
  ],
  [
    "a negated title falls through to the description",
    [false, null, "Nurse (not remote)", "This is a hybrid role."],
    HYBRID(
      "description_phrase",
    ),
  ],
  [
    "remote beats hybrid in the description",
    [false, null, "Nurse", "Hybrid role, or remote."],
    REMOTE(
      "description_phrase",
    ),
  ],
];

Deno.test("detectRemote applies the rules in order and records the one that decided", () => {
  for (const [name, [telecommute, column, title, text], expected] of RULES) {
    assert.deepEqual(detectRemote(telecommute, column, title, text), expected, name);
  }
});

const TITLE_PHRASES: [title: string, expected: RemoteSignal][] = [
  ["Software Engineer (Remote)", REMOTE("title_phrase")],
  ["REMOTE - Data Analyst", REMOTE("title_phrase")],
  ["Customer Support - Work From Home", REMOTE("title_phrase")],
  ["WFH Bookkeeper", REMOTE("title_phrase")],
  ["Telecommute Recruiter", REMOTE("title_phrase")],
  ["Home-based Sales Representative", REMOTE("title_phrase")],
  ["Hybrid Accountant", HYBRID("title_phrase")],
  ["Data Analyst (Non-Remote)", NOTHING],
  ["Nurse - No Remote", NOTHING],
  ["Remote Sensing Scientist", NOTHING],
  ["Remote Monitoring Technician", NOTHING],
  ["Remotely Piloted Aircraft Operator", NOTHING],
  ["Hybridization Scientist", NOTHING],
];

Deno.test("detectRemote reads work-arrangement words in the title", () => {
  for (const [title, expected] of TITLE_PHRASES) {
    assert.deepEqual(detectRemote(false, null, title, ""), expected, title);
  }
});

const COUNTS_REMOTE = [
  "This is a fully remote position.",
  "We are a remote-friendly team.",
  "We're remote friendly and async.",
  "Location: Remote (US)",
  "Location: remote [EU]",
  "Austin, TX or remote",
  "NYC / Remote",
  "Berlin | remote",
  "You can work from home two days a week.",
  "Working remotely is fine.",
  "WFH available.",
  "Remote OK.",
  "This role is remote-first.",
  "100% remote, anywhere in Europe.",
  "Open to remote candidates.",
  "Telecommuting allowed.",
  "Work from anywhere.",
  "Remote\nWe build tools.",
  "Remote or hybrid, your choice.",
];

const NOT_REMOTE = [
  "We build remote sensing tools.",
  "Experience with GIS and remote sensing data.",
  "Skills: GIS / remote sensing",
  "Remote sensing analyst wanted.",
  "Our platform enables remote monitoring of patients.",
  "Telemetry, remote monitoring and alerting.",
  "Remote monitoring of patients is our product.",
  "This is an on-site role, no remote.",
  "No remote work.",
  "This job is not remote.",
  "Not a remote position.",
  "Sorry, no remote candidates.",
  "Remote work is not available for this role.",
  "Remote options are not offered.",
  "This is a non-remote position.",
  "Non-remote role in Denver.",
  "We do not offer remote work.",
  "We cannot consider remote candidates.",
  "The office has a remote control for the projector.",
  "Our remote controls ship worldwide.",
  "",
];

const COUNTS_HYBRID = [
  "This is a hybrid role based in Denver.",
  "This position is hybrid.",
  "The team is hybrid.",
  "You will be in the office 3 days a week in the office.",
  "Expect 3 days a week in the office.",
  "Two days per week at the office.",
  "Hybrid (Boston)",
  "Location: Boston | Hybrid",
  "Our hybrid schedule is flexible.",
];

const NOT_HYBRID = [
  "We sell hybrid cars.",
  "Hybrid cloud experience required.",
  "Our hybrid app uses React Native.",
  "This position is not hybrid.",
];

Deno.test("detectRemote counts work-arrangement phrases in the description", () => {
  for (const text of COUNTS_REMOTE) {
    assert.deepEqual(
      detectRemote(false, null, "Engineer", text),
      REMOTE("description_phrase"),
      text,
    );
  }
  for (const text of COUNTS_HYBRID) {
    assert.deepEqual(
      detectRemote(false, null, "Engineer", text),
      HYBRID("description_phrase"),
      text,
    );
  }
});

Deno.test("detectRemote ignores negated phrases and other senses of the words", () => {
  for (const text of [...NOT_REMOTE, ...NOT_HYBRID]) {
    assert.deepEqual(detectRemote(false, null, "Engineer", text), NOTHING, JSON.stringify(text));
  }
});

Deno.test("detectRemote finds an affirmed phrase after a negated one", () => {
  const text = "Not remote in year one. After that, the role is fully remote.";
  assert.deepEqual(detectRemote(false, null, "Engineer", text), REMOTE("description_phrase"));
  const hybrid = "No remote work, but this is a hybrid role.";
  assert.deepEqual(detectRemote(false, null, "Engineer", hybrid), HYBRID("description_phrase"));
});
