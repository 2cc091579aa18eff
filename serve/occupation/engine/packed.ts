/**
 * Many small lists of integers in one buffer. The ranking index has about 90,000 posting lists
 * (a term's titles, a word pair's occupations, a trigram's terms...); as one typed array each they
 * cost about 150 bytes of heap apiece besides their numbers (the array object, its ArrayBuffer
 * and the buffer's own allocation) and as many objects for every collection to visit (issue 12).
 * Packed, the numbers sit in one Int32Array and a list is a view made when asked for.
 */
export class PackedLists {
  /** Where list i starts in `data`; list i ends where list i + 1 starts. */
  readonly offsets: Int32Array;
  readonly data: Int32Array;

  constructor(offsets: Int32Array, data: Int32Array) {
    if (offsets.length === 0 || offsets[offsets.length - 1] !== data.length) {
      throw new Error("packed lists: offsets do not end at the data's length");
    }
    this.offsets = offsets;
    this.data = data;
  }

  /** The lists back from {@linkcode parts}. */
  static fromParts(parts: PackedListsParts): PackedLists {
    return new PackedLists(parts.offsets, parts.data);
  }

  /** The buffers, for a snapshot. */
  parts(): PackedListsParts {
    return { offsets: this.offsets, data: this.data };
  }

  /** Packs lists, in order. */
  static from(lists: Iterable<ArrayLike<number>>): PackedLists {
    const all = [...lists];
    const offsets = new Int32Array(all.length + 1);
    for (let i = 0; i < all.length; i++) offsets[i + 1] = offsets[i] + all[i].length;
    const data = new Int32Array(offsets[all.length]);
    for (let i = 0; i < all.length; i++) data.set(all[i], offsets[i]);
    return new PackedLists(offsets, data);
  }

  /** How many lists. */
  get length(): number {
    return this.offsets.length - 1;
  }

  /** List i, as a view on the shared buffer (do not write to it). */
  at(i: number): Int32Array {
    return this.data.subarray(this.offsets[i], this.offsets[i + 1]);
  }

  /** The length of list i, without making a view. */
  lengthOf(i: number): number {
    return this.offsets[i + 1] - this.offsets[i];
  }
}

/** What a snapshot stores of {@linkcode PackedLists}: plain values node:v8 writes compactly. */
export interface PackedListsParts {
  offsets: Int32Array;
  data: Int32Array;
}

/** What a snapshot stores of a {@linkcode PackedMap}: plain values node:v8 writes compactly. */
export interface PackedMapParts {
  keys: string[];
  offsets: Int32Array;
  data: Int32Array;
}

/** Packed lists by string key: `get` and `has` as on a Map of Int32Arrays. */
export class PackedMap {
  /** Key -> list number; in insertion order, which is the lists' order. */
  readonly #ids: Map<string, number>;
  readonly #lists: PackedLists;

  private constructor(keys: string[], lists: PackedLists) {
    if (keys.length !== lists.length) throw new Error("packed map: one list per key");
    this.#lists = lists;
    this.#ids = new Map(keys.map((key, i) => [key, i]));
    if (this.#ids.size !== keys.length) throw new Error("packed map: a key twice");
  }

  /** Packs a map's (or entry list's) lists, in its order. */
  static from(entries: Iterable<[string, ArrayLike<number>]>): PackedMap {
    const keys: string[] = [];
    const lists: ArrayLike<number>[] = [];
    for (const [key, list] of entries) {
      keys.push(key);
      lists.push(list);
    }
    return new PackedMap(keys, PackedLists.from(lists));
  }

  /** The map back from {@linkcode parts}. */
  static fromParts(parts: PackedMapParts): PackedMap {
    return new PackedMap(parts.keys, new PackedLists(parts.offsets, parts.data));
  }

  /** Keys and buffers, for a snapshot. */
  parts(): PackedMapParts {
    return { keys: [...this.#ids.keys()], offsets: this.#lists.offsets, data: this.#lists.data };
  }

  get size(): number {
    return this.#ids.size;
  }

  has(key: string): boolean {
    return this.#ids.has(key);
  }

  /** The key's list as a view on the shared buffer (do not write to it), or undefined. */
  get(key: string): Int32Array | undefined {
    const id = this.#ids.get(key);
    return id === undefined ? undefined : this.#lists.at(id);
  }
}

/** What a snapshot stores of {@linkcode PackedStrings}. */
export interface PackedStringsParts {
  text: string;
  offsets: Int32Array;
}

/**
 * Many short strings as one (with offsets): the index's 73,000 title texts and normalised forms
 * took about 48 bytes of heap apiece as strings of their own. Comparisons read the shared text in
 * place; `at` makes the string (a slice) only when one is asked for.
 */
export class PackedStrings {
  readonly #text: string;
  readonly #offsets: Int32Array;

  private constructor(text: string, offsets: Int32Array) {
    if (offsets.length === 0 || offsets[offsets.length - 1] !== text.length) {
      throw new Error("packed strings: offsets do not end at the text's length");
    }
    this.#text = text;
    this.#offsets = offsets;
  }

  /** Packs strings, in order. */
  static from(strings: readonly string[]): PackedStrings {
    const offsets = new Int32Array(strings.length + 1);
    for (let i = 0; i < strings.length; i++) offsets[i + 1] = offsets[i] + strings[i].length;
    return new PackedStrings(strings.join(""), offsets);
  }

  /** The strings back from {@linkcode parts}. */
  static fromParts(parts: PackedStringsParts): PackedStrings {
    return new PackedStrings(parts.text, parts.offsets);
  }

  /** The text and offsets, for a snapshot. */
  parts(): PackedStringsParts {
    return { text: this.#text, offsets: this.#offsets };
  }

  /** How many strings. */
  get length(): number {
    return this.#offsets.length - 1;
  }

  /** String i. */
  at(i: number): string {
    return this.#text.slice(this.#offsets[i], this.#offsets[i + 1]);
  }

  /** Whether string i is `other`, without making it. */
  equals(i: number, other: string): boolean {
    const from = this.#offsets[i];
    if (this.#offsets[i + 1] - from !== other.length) return false;
    const text = this.#text;
    for (let k = 0; k < other.length; k++) {
      if (text.charCodeAt(from + k) !== other.charCodeAt(k)) return false;
    }
    return true;
  }

  /**
   * Whether string i stands in `padded` between two spaces, as `padded.includes(` ${at(i)} `)`
   * says, without making either string (the ranking asks it of many titles per query).
   */
  between(i: number, padded: string): boolean {
    const from = this.#offsets[i];
    const n = this.#offsets[i + 1] - from;
    const text = this.#text;
    const last = padded.length - n - 1;
    outer: for (let p = 1; p <= last; p++) {
      if (padded.charCodeAt(p - 1) !== 32 || padded.charCodeAt(p + n) !== 32) continue;
      for (let k = 0; k < n; k++) {
        if (padded.charCodeAt(p + k) !== text.charCodeAt(from + k)) continue outer;
      }
      return true;
    }
    return false;
  }

  /** Whether string a sorts before string b, as `<` orders strings (by UTF-16 code units). */
  less(a: number, b: number): boolean {
    const text = this.#text;
    const [fromA, endA, fromB, endB] = [
      this.#offsets[a],
      this.#offsets[a + 1],
      this.#offsets[b],
      this.#offsets[b + 1],
    ];
    const n = Math.min(endA - fromA, endB - fromB);
    for (let k = 0; k < n; k++) {
      const ca = text.charCodeAt(fromA + k);
      const cb = text.charCodeAt(fromB + k);
      if (ca !== cb) return ca < cb;
    }
    return endA - fromA < endB - fromB;
  }
}
