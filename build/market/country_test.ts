/** Unit tests of the country normaliser: ISO table, country fields, locations, ambiguity rules. */
import assert from "node:assert/strict";
import {
  COUNTRY_CODES,
  countryFromLocation,
  countryName,
  type CountryRule,
  normalizeCountry,
} from "./country.ts";

type Case = [input: string, code: string | null, rule?: CountryRule];

/** Asserts each case, naming the input in the message so a failing row is easy to find. */
function check(fn: (s: string) => { code: string; rule: CountryRule } | null, cases: Case[]) {
  for (const [input, code, rule] of cases) {
    const got = fn(input);
    assert.equal(got?.code ?? null, code, `${JSON.stringify(input)} -> ${JSON.stringify(got)}`);
    if (rule) assert.equal(got?.rule, rule, `rule of ${JSON.stringify(input)}`);
  }
}

Deno.test("COUNTRY_CODES holds the 249 assigned alpha-2 codes and nothing else", () => {
  assert.equal(COUNTRY_CODES.size, 249);
  for (const code of ["GB", "US", "DE", "PR", "AX", "SS", "BQ", "CW", "SX"]) {
    assert.ok(COUNTRY_CODES.has(code), code);
  }
  for (const code of ["XK", "UK", "EU", "AN", "YU", "us"]) {
    assert.ok(!COUNTRY_CODES.has(code), code);
  }
  for (const code of COUNTRY_CODES) assert.match(code, /^[A-Z]{2}$/);
});

Deno.test("every code has a name, and code and name both resolve back to it", () => {
  for (const code of COUNTRY_CODES) {
    const name = countryName(code);
    assert.ok(name, code);
    // "NA" is read as "not available"; Namibia resolves by name or alpha-3.
    const expected = code === "NA" ? null : { code, rule: "alpha2" };
    assert.deepEqual(normalizeCountry(code), expected, code);
    assert.deepEqual(normalizeCountry(name), { code, rule: "name" }, name);
  }
  assert.deepEqual(normalizeCountry("NAM"), { code: "NA", rule: "alpha3" });
});

Deno.test("countryName gives the English short name, or null", () => {
  assert.equal(countryName("GB"), "United Kingdom");
  assert.equal(countryName("us"), "United States");
  assert.equal(countryName("CI"), "Côte d'Ivoire");
  assert.equal(countryName("XK"), null);
  assert.equal(countryName(""), null);
});

Deno.test("normalizeCountry reads codes, names and aliases", () => {
  check(normalizeCountry, [
    ["US", "US", "alpha2"],
    ["us", "US", "alpha2"],
    ["U.S.", "US", "alpha2"],
    ["GB", "GB", "alpha2"],
    ["USA", "US", "alias"],
    ["usa", "US", "alias"],
    ["U.S.A.", "US", "alias"],
    ["America", "US", "alias"],
    ["United States of America", "US", "alias"],
    ["United States", "US", "name"],
    ["GBR", "GB", "alpha3"],
    ["deu", "DE", "alpha3"],
    ["CHE", "CH", "alpha3"],
    ["KOR", "KR", "alpha3"],
    ["UK", "GB", "alias"],
    ["u.k.", "GB", "alias"],
    ["Great Britain", "GB", "alias"],
    ["Britain", "GB", "alias"],
    ["England", "GB", "alias"],
    ["Scotland", "GB", "alias"],
    ["Wales", "GB", "alias"],
    ["Northern Ireland", "GB", "alias"],
    ["Holland", "NL", "alias"],
    ["The Netherlands", "NL", "name"],
    ["Deutschland", "DE", "alias"],
    ["Korea", "KR", "alias"],
    ["South Korea", "KR", "name"],
    ["Korea, Republic of", "KR", "alias"],
    ["North Korea", "KP", "name"],
    ["Russia", "RU", "name"],
    ["Russian Federation", "RU", "alias"],
    ["Czechia", "CZ", "name"],
    ["Czech Republic", "CZ", "alias"],
    ["Türkiye", "TR", "name"],
    ["Turkey", "TR", "alias"],
    ["Viet Nam", "VN", "alias"],
    ["Vietnam", "VN", "name"],
    ["UAE", "AE", "alias"],
    ["Hong Kong", "HK", "name"],
    ["Taiwan", "TW", "name"],
    ["Taiwan, Province of China", "TW", "alias"],
    ["Ivory Coast", "CI", "alias"],
    ["St. Kitts & Nevis", "KN", "name"],
    ["Trinidad & Tobago", "TT", "name"],
    ["Puerto Rico", "PR", "name"],
    ["PR", "PR", "alpha2"],
  ]);
});

Deno.test("normalizeCountry reads two letters as alpha-2 and never as a state", () => {
  check(normalizeCountry, [
    ["CA", "CA", "alpha2"],
    ["IN", "IN", "alpha2"],
    ["DE", "DE", "alpha2"],
    ["GA", "GA", "alpha2"],
    ["LA", "LA", "alpha2"],
    ["NY", null],
    ["TX", null],
  ]);
});

Deno.test("normalizeCountry reads state and province names but not cities", () => {
  check(normalizeCountry, [
    ["California", "US", "us_state"],
    ["District of Columbia", "US", "us_state"],
    ["Ontario", "CA", "ca_province"],
    ["Québec", "CA", "ca_province"],
    ["Georgia", "GE", "name"],
    ["San Francisco", null],
    ["London", null],
  ]);
});

Deno.test("matching ignores case, accents, punctuation and spaces", () => {
  check(normalizeCountry, [
    ["México", "MX", "name"],
    ["MEXICO", "MX", "name"],
    ["Côte d'Ivoire", "CI", "name"],
    ["Cote d’Ivoire", "CI", "name"],
    ["COTE D IVOIRE", "CI", "alias"],
    ["ÖSTERREICH", "AT", "alias"],
    ["  united   kingdom ", "GB", "name"],
    ["Curacao", "CW", "name"],
    ["Reunion", "RE", "name"],
    ["Aland Islands", "AX", "name"],
    ["Sao Tome and Principe", "ST", "name"],
    ["Guinea-Bissau", "GW", "name"],
    ["guinea bissau", "GW", "name"],
  ]);
  check(countryFromLocation, [
    ["Zürich", "CH", "city"],
    ["ZURICH", "CH", "city"],
    ["Kraków, Poland", "PL", "name"],
    ["Łódź", "PL", "city"],
    ["São Paulo", "BR", "city"],
    ["Bogotá", "CO", "city"],
    ["Düsseldorf", "DE", "city"],
  ]);
});

Deno.test("unassigned, placeholder and unknown values are null", () => {
  for (
    const value of ["", "   ", "-", "XK", "Kosovo", "EU", "European Union", "NA", "N/A", "TBD"]
  ) {
    assert.equal(normalizeCountry(value), null, value);
  }
  for (const value of ["Atlantis", "XX", "Unknown", "Europe", "EMEA", "LATAM", "Worldwide"]) {
    assert.equal(normalizeCountry(value), null, value);
    assert.equal(countryFromLocation(value), null, value);
  }
});

Deno.test("US states and Canadian provinces by name and code", () => {
  check(countryFromLocation, [
    ["California", "US", "us_state"],
    ["New York", "US", "us_state"],
    ["Washington", "US", "us_state"],
    ["Washington, D.C.", "US"],
    ["Texas", "US", "us_state"],
    ["NY", "US", "us_state"],
    ["TX", "US", "us_state"],
    ["British Columbia", "CA", "ca_province"],
    ["Newfoundland", "CA", "ca_province"],
    ["ON", "CA", "ca_province"],
    ["Austin, Texas", "US", "us_state"],
    ["Montréal, Québec", "CA", "ca_province"],
    ["Halifax, NS", "CA", "ca_province"],
  ]);
});

Deno.test("a code after a city is a US state or Canadian province before a country", () => {
  check(countryFromLocation, [
    ["San Francisco, CA", "US", "us_state"],
    ["Indianapolis, IN", "US", "us_state"],
    ["Wilmington, DE", "US", "us_state"],
    ["Atlanta, GA", "US", "us_state"],
    ["New York, NY", "US", "us_state"],
    ["Dublin, CA", "US", "us_state"],
    ["Paris, TX", "US", "us_state"],
    ["Vancouver, WA", "US", "us_state"],
    ["Cambridge, MA", "US", "us_state"],
    ["San Francisco, CA 94105", "US", "us_state"],
    ["Vancouver, BC", "CA", "ca_province"],
    ["Toronto, ON M5V 2T6", "CA", "ca_province"],
    ["St. John's, NL", "CA", "ca_province"],
    // the city is a known one of that country: the code stays alpha-2
    ["Berlin, DE", "DE", "alpha2"],
    ["Mumbai, IN", "IN", "alpha2"],
    ["Toronto, CA", "CA", "alpha2"],
    ["Amsterdam, NL", "NL", "alpha2"],
    ["Milan, IT", "IT", "alpha2"],
    ["Dublin, IRL", "IE", "alpha3"],
    // any other code after a known city is a region of its country
    ["Belo Horizonte, MG", "BR", "city"],
    ["Geneva, GE", "CH", "city"],
    // codes in lower case or that are job words do not count after an unknown place
    ["Austin, tx", "US", "city"],
    ["Engineer, IT", null],
    ["Gdynia, PL", "PL", "alpha2"],
    ["Lyon, FRA", "FR", "alpha3"],
    ["San Juan, PR", "PR", "alpha2"],
  ]);
});

Deno.test("Georgia is the US state after a US or unknown place, else the country", () => {
  check(countryFromLocation, [
    ["Atlanta, Georgia", "US", "us_state"],
    ["Savannah, Georgia", "US", "us_state"],
    ["Tbilisi, Georgia", "GE", "name"],
    ["Georgia", "GE", "name"],
    ["Acme | Engineer | Georgia", null],
  ]);
});

Deno.test("the last comma part that resolves wins, unless the parts make a list", () => {
  check(countryFromLocation, [
    ["Toronto, ON, Canada", "CA", "name"],
    ["London, Ontario, Canada", "CA", "name"],
    ["London, ON", "CA", "ca_province"],
    ["Paris, France", "FR", "name"],
    ["London, England, United Kingdom", "GB", "name"],
    ["Cambridge, UK", "GB", "alias"],
    ["Bengaluru, Karnataka, India", "IN", "name"],
    ["Berlin (Germany)", "DE", "name"],
    ["SF, NYC, Seattle, Dublin", "US", "city"],
    ["US, Canada", "US", "alpha2"],
    ["Remote", null],
    ["Cambridge", null],
  ]);
});

Deno.test("cities, city abbreviations and metro areas", () => {
  check(countryFromLocation, [
    ["San Francisco", "US", "city"],
    ["SF", "US", "city"],
    ["NYC", "US", "city"],
    ["LA", "US", "city"],
    ["Bay Area", "US", "city"],
    ["SF Bay Area", "US", "city"],
    ["Greater Boston Area", "US", "city"],
    ["Silicon Valley", "US", "city"],
    ["Palo Alto", "US", "city"],
    ["London", "GB", "city"],
    ["Vancouver", "CA", "city"],
    ["Perth, WA", "AU", "city"],
    ["Bangalore", "IN", "city"],
    ["Tel Aviv-Yafo", "IL", "city"],
    ["The Hague", "NL", "city"],
    ["St. Louis", "US", "city"],
    ["Singapore", "SG", "name"],
  ]);
});

Deno.test("a location that is only a code reads like a country field", () => {
  check(countryFromLocation, [
    ["CA", "CA", "alpha2"],
    ["IN", "IN", "alpha2"],
    ["us", "US", "alpha2"],
    ["DEU", "DE", "alpha3"],
    ["UK", "GB", "alias"],
  ]);
});

Deno.test("remote qualifiers give the country that follows remote, never a region", () => {
  const cases: Case[] = [
    ["Remote (US)", "US", "remote_qualifier"],
    ["Remote - US", "US", "remote_qualifier"],
    ["US Remote", "US", "remote_qualifier"],
    ["Remote, United States", "US", "remote_qualifier"],
    ["Remote US only", "US", "remote_qualifier"],
    ["REMOTE (USA/Canada)", "US", "remote_qualifier"],
    ["REMOTE (US or Canada)", "US", "remote_qualifier"],
    ["Remote (US and Canada)", "US", "remote_qualifier"],
    ["Remote (Canada/US)", "CA", "remote_qualifier"],
    ["Remote (US & Canada)", "US", "remote_qualifier"],
    ["Remote in Canada", "CA", "remote_qualifier"],
    ["Fully remote (US-based)", "US", "remote_qualifier"],
    ["Remote (US time zones)", "US", "remote_qualifier"],
    ["Remote (CA)", "CA", "remote_qualifier"],
    ["USA (Remote)", "US", "remote_qualifier"],
    ["Remote (California)", "US", "us_state"],
    ["Remote - San Francisco", "US", "city"],
    ["Remote (EU)", null],
    ["Remote - Europe", null],
    ["Remote (EST)", null],
    ["Remote (PT)", null],
    ["Remote OK", null],
    ["Anywhere", null],
    ["Remote", null],
  ];
  check(countryFromLocation, cases);
  check(normalizeCountry, cases.filter(([, , rule]) => rule !== "city"));
});

Deno.test("Hacker News header lines resolve from their location-looking part", () => {
  check(countryFromLocation, [
    [
      "Acme Corp | Senior Backend Engineer | San Francisco, CA or Remote (US) | Full-time",
      "US",
      "us_state",
    ],
    ["Foo | Staff Engineer | Berlin, Germany | Onsite | €90k", "DE", "name"],
    ["Bar (YC S20) | ML Engineer | REMOTE (USA/Canada)", "US", "remote_qualifier"],
    ["Baz | https://baz.example | In-person in San Francisco", "US", "city"],
    ["Qux (YC W24) | Full Stack Engineers | SF In-Person | Full Time", "US", "city"],
    ["Baz | Frontend | London or Remote (UK)", "GB", "city"],
    ["Qux | IT | Milan", "IT", "city"],
    ["Corge | Data Engineer | NYC | Hybrid", "US", "city"],
    ["Grault | Go developer | Toronto, ON", "CA", "ca_province"],
    ["Garply | Senior Engineer | Onsite in SF", "US", "city"],
    ["Waldo | AI | Bangalore", "IN", "city"],
    ["Fred | Engineer | US", "US", "alpha2"],
    ["Quux | Engineers | Remote (EU) | Full-time", null],
    ["Chad | Engineer | Remote", null],
    ["Phoenix | Engineer | Remote (EU)", null],
    ["Acme | AR/VR Engineer | Remote", null],
    ["Acme | Engineer (Rust, Go, PG) | Remote", null],
    ["Acme | CI/CD Engineer | Full-time", null],
    ["REMOTE OR ONSITE", null],
  ]);
});

Deno.test("ordinary words and prose do not resolve", () => {
  for (
    const text of [
      "Go",
      "Senior Go Engineer",
      "We ship fine china plates",
      "Chad",
      "Join us in building the future",
      "Research and Development",
      "Full-time",
      "Engineer, ML",
    ]
  ) {
    const got = countryFromLocation(text);
    if (text === "Chad") assert.deepEqual(got, { code: "TD", rule: "name" }); // a whole location
    else assert.equal(got, null, text);
  }
});

Deno.test("very long input stays cheap and safe", () => {
  assert.equal(countryFromLocation(" ".repeat(10_000) + "x"), null);
  assert.equal(countryFromLocation("a | ".repeat(5_000)), null);
  assert.equal(normalizeCountry("(".repeat(5_000) + "US"), null);
});
