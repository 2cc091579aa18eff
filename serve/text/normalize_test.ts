import assert from "node:assert/strict";
import { indexTerms, normalizeTitle, singular, tokenize } from "./normalize.ts";

Deno.test("tokenize folds case, diacritics and keeps c++ / c#", () => {
  assert.deepEqual(tokenize("Café Manager & C++/C# Dev"), [
    "cafe",
    "manager",
    "and",
    "c++",
    "c#",
    "dev",
  ]);
});

Deno.test("singular folds regular plurals and keeps non-plurals", () => {
  assert.equal(singular("nurses"), "nurse");
  assert.equal(singular("secretaries"), "secretary");
  assert.equal(singular("coaches"), "coach");
  assert.equal(singular("sales"), "sales");
  assert.equal(singular("analysis"), "analysis");
  assert.equal(singular("business"), "business");
  assert.equal(singular("bus"), "bus");
});

Deno.test("normalizeTitle drops stopwords and folds plurals", () => {
  assert.equal(normalizeTitle("Chief Executives of the Board"), "chief executive board");
  assert.deepEqual(indexTerms("Heating, Air-Conditioning and Refrigeration Mechanics"), [
    "heating",
    "air",
    "conditioning",
    "refrigeration",
    "mechanic",
  ]);
});
