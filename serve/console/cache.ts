/**
 * A small in-process cache with a time to live, for what console page views read over and over
 * (sessions, an account's keys, contracts and feedback, usage figures). Entries are kept per
 * platform context (one per server instance), for at most `ttlMs` by the platform's clock, and
 * dropped at once by this instance's writes. Requests that miss at the same time share one
 * load; a load that was running when its key was dropped is handed to its callers but not kept.
 */
export class TtlCache<K, V> {
  #entries = new Map<K, { value: V; at: number }>();
  #loading = new Map<K, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => Date,
    private readonly max = 10_000,
  ) {}

  /** The value kept for key if it is still fresh. */
  peek(key: K): V | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (this.clock().getTime() - hit.at < this.ttlMs) return hit.value;
    this.#entries.delete(key);
    return undefined;
  }

  /** The fresh value of key, else what load gives (kept when keep(value) says so). */
  get(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const hit = this.peek(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const shared = this.#loading.get(key);
    if (shared) return shared;
    const at = this.clock().getTime();
    const loading: Promise<V> = load().then((value) => {
      // Dropped while loading (a write on this instance): hand it over, don't keep it.
      if (this.#loading.get(key) === loading && keep(value)) this.set(key, value, at);
      return value;
    }).finally(() => {
      if (this.#loading.get(key) === loading) this.#loading.delete(key);
    });
    this.#loading.set(key, loading);
    return loading;
  }

  /** Keeps value for key, as read at `at` (ms; now unless told). */
  set(key: K, value: V, at = this.clock().getTime()): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, at });
  }

  /** Drops key, and any load of it that is running. */
  delete(key: K): void {
    this.#entries.delete(key);
    this.#loading.delete(key);
  }

  /** Drops every entry whose value matches, and every running load. */
  deleteWhere(match: (value: V) => boolean): void {
    for (const [key, { value }] of this.#entries) if (match(value)) this.#entries.delete(key);
    this.#loading.clear();
  }
}
