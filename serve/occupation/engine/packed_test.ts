import assert from "node:assert/strict";
import { deserialize, serialize } from "node:v8";
import { PackedLists, PackedMap, PackedStrings } from "./packed.ts";

Deno.test("packed lists give back each list, empty ones included, from one buffer", () => {
  const lists = PackedLists.from([[3, 1, 4], [], [1, 5], [9]]);
  assert.equal(lists.length, 4);
  assert.deepEqual([...lists.at(0)], [3, 1, 4]);
  assert.deepEqual([...lists.at(1)], []);
  assert.deepEqual([...lists.at(2)], [1, 5]);
  assert.deepEqual([...lists.at(3)], [9]);
  assert.deepEqual([0, 1, 2, 3].map((i) => lists.lengthOf(i)), [3, 0, 2, 1]);
  assert.equal(lists.at(2).buffer, lists.data.buffer, "a view, not a copy");
  assert.throws(
    () => new PackedLists(Int32Array.of(0, 2), Int32Array.of(1)),
    /offsets do not end at the data's length/,
  );
});

Deno.test("a packed map answers get and has as a map of typed arrays, and survives a snapshot", () => {
  const source = new Map<string, number[]>([["line cook", [4, 2]], ["cook", []], ["chef", [7]]]);
  const map = PackedMap.from(source);
  assert.equal(map.size, 3);
  assert.deepEqual([...map.get("line cook")!], [4, 2]);
  assert.deepEqual([...map.get("cook")!], []);
  assert.equal(map.has("cook"), true, "a key with an empty list is there");
  assert.equal(map.get("baker"), undefined);
  assert.equal(map.has("baker"), false);
  // What the engine snapshot writes (node:v8) and reads back.
  const again = PackedMap.fromParts(deserialize(serialize(map.parts())));
  for (const key of ["line cook", "cook", "chef", "baker"]) {
    assert.deepEqual(again.get(key) && [...again.get(key)!], map.get(key) && [...map.get(key)!]);
  }
});

Deno.test("packed strings give back each string and compare as < and === do", () => {
  const list = ["Cook", "", "Line Cook", "Cook Helper", "cook", "Café Cook", "Coo", "Chef – Sous"];
  const packed = PackedStrings.from(list);
  assert.equal(packed.length, list.length);
  list.forEach((s, i) => assert.equal(packed.at(i), s));
  for (let a = 0; a < list.length; a++) {
    for (let b = 0; b < list.length; b++) {
      assert.equal(packed.less(a, b), list[a] < list[b], `${list[a]} < ${list[b]}`);
      assert.equal(packed.equals(a, list[b]), list[a] === list[b]);
    }
  }
  const again = PackedStrings.fromParts(deserialize(serialize(packed.parts())));
  list.forEach((s, i) => assert.equal(again.at(i), s));
});

Deno.test("a packed map refuses a key twice (the snapshot could not say which list it meant)", () => {
  assert.throws(() => PackedMap.from([["cook", [1]], ["cook", [2]]]), /a key twice/);
});

Deno.test("a packed string between two spaces of a text, as includes says", () => {
  const strings = ["machine operator", "operator", "", "machine", "a", "operator machine"];
  const packed = PackedStrings.from(strings);
  for (
    const padded of [
      " machine operator ",
      " bottling machine operator ",
      " operators ",
      "  ",
      " a b ",
      " ",
      "",
      " machine  operator ",
    ]
  ) {
    strings.forEach((s, i) =>
      assert.equal(packed.between(i, padded), padded.includes(` ${s} `), `"${s}" in "${padded}"`)
    );
  }
});
