/**
 * The artifact registry: verifies each artifact's `current` version against its manifest (the
 * data file's SHA-256), loads what its routes serve into memory, from the build's snapshots or
 * else from the data file opened read-only (its tables' row counts checked against the manifest
 * then) and closed again: no request reads DuckDB. It hot-swaps to a new version when the
 * pointer moves (file watch or SIGHUP). Requests hold a lease on the version they started with;
 * a retired version is disposed of (its ranking index released) only when its last lease ends. A
 * version that fails verification is refused and the previous one keeps serving.
 */
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { type Manifest, parseManifest } from "../../build/manifest.ts";
import { readPointer } from "../../build/publish.ts";
import { sha256File } from "../../build/hash.ts";
import { noPause, type Pause, timerPause } from "./snapshot.ts";
import { type DataFile, duckdb } from "./duckdb.ts";
import type { Logger } from "../http/log.ts";

/** How to load one kind of artifact. */
export interface ArtifactSpec<T = unknown> {
  name: string;
  required: boolean;
  schemaVersion: number;
  /** Tables the server reads; a version whose manifest lacks one is refused. */
  tables: readonly string[];
  /** Extra manifest checks (for example the normaliser version); returns a reason or null. */
  accept?(manifest: Manifest): string | null;
  /**
   * Loads everything the routes serve into memory (dir: the version's folder, for its snapshots).
   * `tables` opens the data file on its first call; it is closed once this resolves. `pause` is
   * awaited between slices of the work: a timer while requests are served, nothing at start.
   */
  load(tables: DataFile, manifest: Manifest, dir: string, pause: Pause): Promise<T>;
  /** Facts about the loaded data for the activation log line (how it was loaded, sizes). */
  describe?(data: T): Record<string, unknown>;
  /** Frees what the loaded data holds outside this thread's heap (a retired version). */
  dispose?(data: T): void;
}

/** One verified, loaded artifact version. */
export class LoadedArtifact<T = unknown> {
  #leases = 0;
  #retired = false;
  #closed = false;
  constructor(
    readonly name: string,
    readonly version: string,
    readonly manifest: Manifest,
    readonly data: T,
    readonly dispose: (data: T) => void = () => {},
  ) {}
  /** Whether the version was disposed of (retired and no longer leased). */
  get closed(): boolean {
    return this.#closed;
  }
  /** @internal */
  lease(): void {
    this.#leases++;
  }
  /** @internal */
  unlease(): void {
    this.#leases--;
    if (this.#retired && this.#leases === 0) this.#close();
  }
  /** @internal Marks the version as replaced; closes it once no request holds it. */
  retire(): void {
    this.#retired = true;
    if (this.#leases === 0) this.#close();
  }
  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.dispose(this.data);
  }
}

/** A request's hold on an artifact version; release it when the request ends. */
export interface Lease<T> {
  artifact: LoadedArtifact<T>;
  release(): void;
}

/** Public state of one artifact, as readiness reports it (no paths, no internals). */
export interface ArtifactStatus {
  name: string;
  required: boolean;
  state: "loaded" | "missing" | "failed";
  version: string | null;
  release: string | null;
  /** Why the last load or reload was refused, if it was. */
  problem: string | null;
}

/** A version was refused; `reason` is safe to report, `detail` goes to the log only. */
export class ArtifactRefused extends Error {
  constructor(readonly reason: string, readonly detail?: string) {
    super(reason);
    this.name = "ArtifactRefused";
  }
}

const NO_VERSION = "no published version";

interface Slot {
  spec: ArtifactSpec;
  current: LoadedArtifact | null;
  problem: string | null;
  queue: Promise<unknown>;
}

interface Opened {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
}

/** Opens a version's data file read-only and checks its tables' row counts against the manifest. */
async function openChecked(file: string, manifest: Manifest): Promise<Opened> {
  const { DuckDBInstance } = await duckdb();
  const instance = await DuckDBInstance.create(file, { access_mode: "READ_ONLY", threads: "1" });
  try {
    const connection = await instance.connect();
    try {
      for (const table of manifest.tables) {
        const reader = await connection.runAndReadAll(`SELECT count(*) FROM "${table.name}"`);
        if (Number(reader.getRows()[0][0]) !== table.rows) {
          throw new ArtifactRefused(`table ${table.name} row count does not match its manifest`);
        }
      }
      return { instance, connection };
    } catch (error) {
      connection.closeSync();
      throw error;
    }
  } catch (error) {
    instance.closeSync();
    throw error;
  }
}

/** Holds the current version of every artifact and swaps them safely. */
export class ArtifactRegistry {
  #slots = new Map<string, Slot>();
  #watcher: Deno.FsWatcher | null = null;
  #onSighup: (() => void) | null = null;
  #loading = 0;

  constructor(
    readonly artifactsDir: string,
    specs: ArtifactSpec[],
    readonly logger: Logger,
    readonly onActivate: (artifact: LoadedArtifact) => Promise<void> = async () => {},
  ) {
    for (const spec of specs) {
      this.#slots.set(spec.name, {
        spec,
        current: null,
        problem: "not loaded yet",
        queue: Promise.resolve(),
      });
    }
  }

  /**
   * Loads every artifact's current version, one after another, calling `between` after each (the
   * server collects its garbage there: loading them all at once peaked 20-25 MiB higher at start);
   * missing or bad ones are reported, not thrown.
   */
  async start(between: () => void = () => {}): Promise<void> {
    for (const name of this.#slots.keys()) {
      // Nothing is served before the start is over, so these loads do not pause.
      await this.reload(name, noPause);
      between();
    }
  }

  /** Whether a version is loading (at start or in a swap). */
  get loading(): boolean {
    return this.#loading > 0;
  }

  /** Re-reads every pointer and swaps where a new version was published. */
  async reloadAll(): Promise<void> {
    await Promise.all([...this.#slots.keys()].map((name) => this.reload(name)));
  }

  /**
   * Re-reads one artifact's pointer; serialised per artifact so swaps never interleave. A load
   * pauses on a timer between slices of its work (requests go on meanwhile) unless told otherwise.
   */
  reload(name: string, pause: Pause = timerPause): Promise<void> {
    const slot = this.#slot(name);
    const run = slot.queue.then(() => this.#reload(slot, pause));
    slot.queue = run.catch(() => {});
    return run;
  }

  async #reload(slot: Slot, pause: Pause): Promise<void> {
    const dir = join(this.artifactsDir, slot.spec.name);
    const version = await readPointer(dir).catch(() => null);
    if (version === null) {
      if (slot.current === null) slot.problem = NO_VERSION;
      return;
    }
    if (slot.current?.version === version) {
      slot.problem = null; // the pointer is back on the version being served
      return;
    }
    let loaded: LoadedArtifact;
    this.#loading++;
    try {
      loaded = await this.#open(slot.spec, join(dir, version), version, pause);
    } catch (error) {
      const refused = error instanceof ArtifactRefused
        ? error
        : new ArtifactRefused("version could not be opened", String(error));
      slot.problem = `version ${version} refused: ${refused.reason}`;
      this.logger.error("artifact refused", {
        artifact: slot.spec.name,
        version,
        reason: refused.reason,
        detail: refused.detail,
        serving: slot.current?.version ?? null,
      });
      return;
    } finally {
      this.#loading--;
    }
    const previous = slot.current;
    slot.current = loaded;
    slot.problem = null;
    previous?.retire();
    this.logger.info("artifact activated", {
      artifact: slot.spec.name,
      version,
      previous: previous?.version ?? null,
      ...slot.spec.describe?.(loaded.data),
    });
    await this.onActivate(loaded).catch((error) =>
      this.logger.warn("artifact activation not recorded", {
        artifact: slot.spec.name,
        error: String(error),
      })
    );
  }

  async #open(
    spec: ArtifactSpec,
    dir: string,
    version: string,
    pause: Pause,
  ): Promise<LoadedArtifact> {
    let manifest: Manifest;
    try {
      manifest = parseManifest(await Deno.readTextFile(join(dir, "manifest.json")));
    } catch (error) {
      throw new ArtifactRefused("manifest missing or unreadable", String(error));
    }
    if (manifest.artifact !== spec.name || manifest.version !== version) {
      throw new ArtifactRefused("manifest does not describe this version");
    }
    if (manifest.schema_version !== spec.schemaVersion) {
      throw new ArtifactRefused(
        `schema version ${manifest.schema_version} is not the supported ${spec.schemaVersion}`,
      );
    }
    const listed = new Set(manifest.tables.map((t) => t.name));
    const missing = spec.tables.filter((t) => !listed.has(t));
    if (missing.length > 0) throw new ArtifactRefused(`tables missing: ${missing.join(", ")}`);
    if (manifest.tables.some((t) => !/^[a-z_][a-z0-9_]*$/.test(t.name))) {
      throw new ArtifactRefused("manifest names a table that is not a plain identifier");
    }
    const rejection = spec.accept?.(manifest);
    if (rejection) throw new ArtifactRefused(rejection);
    const file = join(dir, manifest.file.name);
    // The data file is checked while the version loads (a loader that reads only its snapshots
    // does not wait for it; at start that was 0.6-0.9 s, hashing beside the database's start),
    // and nothing reads the data file before it matched. A version whose file does not match is
    // refused either way, and what it loaded is disposed of.
    const verified = sha256File(file, pause).then(
      (digest) => {
        if (digest !== manifest.file.sha256) {
          throw new ArtifactRefused("data file checksum does not match its manifest");
        }
      },
      (error) => {
        throw new ArtifactRefused("data file missing or unreadable", String(error));
      },
    );
    verified.catch(() => {}); // awaited below, once the load is over
    let opened: Promise<Opened> | null = null;
    // A connection per call: a DuckDB query ends whatever result its connection is still
    // streaming, so two parts of a load reading at once each need their own.
    const connections: DuckDBConnection[] = [];
    let first = true;
    const tables: DataFile = async () => {
      await verified;
      const open = await (opened ??= openChecked(file, manifest));
      if (first) {
        first = false;
        return open.connection;
      }
      const connection = await open.instance.connect();
      connections.push(connection);
      return connection;
    };
    let data: unknown = undefined;
    try {
      data = await spec.load(tables, manifest, dir, pause);
      await verified;
      const dispose = (loaded: unknown) => spec.dispose?.(loaded);
      return new LoadedArtifact(spec.name, version, manifest, data, dispose);
    } catch (error) {
      if (data !== undefined) spec.dispose?.(data);
      await verified; // a data file that does not match is the reason, whatever the load did
      if (error instanceof ArtifactRefused) throw error;
      throw new ArtifactRefused("data file could not be opened or loaded", String(error));
    } finally {
      // Everything served is in memory now: closing hands DuckDB's buffers back (about 60 MB for
      // the full taxonomy).
      const open = await (opened as Promise<Opened> | null)?.catch(() => null);
      for (const connection of connections) connection.closeSync();
      open?.connection.closeSync();
      open?.instance.closeSync();
    }
  }

  /** Takes a lease on an artifact's current version, or null when none is loaded. */
  acquire<T>(name: string): Lease<T> | null {
    const current = this.#slot(name).current as LoadedArtifact<T> | null;
    if (!current) return null;
    current.lease();
    let released = false;
    return {
      artifact: current,
      release: () => {
        if (released) return;
        released = true;
        current.unlease();
      },
    };
  }

  /** Runs fn with a lease on the artifact's current version, released afterwards. */
  async use<T, R>(
    name: string,
    fn: (artifact: LoadedArtifact<T>) => Promise<R> | R,
  ): Promise<R | null> {
    const lease = this.acquire<T>(name);
    if (!lease) return null;
    try {
      return await fn(lease.artifact);
    } finally {
      lease.release();
    }
  }

  /** The state of every artifact. */
  status(): ArtifactStatus[] {
    return [...this.#slots.values()].map((slot) => ({
      name: slot.spec.name,
      required: slot.spec.required,
      state: slot.current ? "loaded" : slot.problem === NO_VERSION ? "missing" : "failed",
      version: slot.current?.version ?? null,
      release: slot.current?.manifest.release.version ?? null,
      problem: slot.problem,
    }));
  }

  /** Watches the artifact folders for pointer moves and reloads on SIGHUP. */
  watch(): void {
    this.watchPointers();
    this.reloadOnSighup();
  }

  /** Reloads when a `current` pointer below the artifacts folder is replaced. */
  watchPointers(): void {
    if (this.#watcher) return;
    Deno.mkdirSync(this.artifactsDir, { recursive: true });
    for (const name of this.#slots.keys()) {
      Deno.mkdirSync(join(this.artifactsDir, name), { recursive: true });
    }
    this.#watcher = Deno.watchFs(this.artifactsDir, { recursive: true });
    const watcher = this.#watcher;
    let timer: ReturnType<typeof setTimeout> | undefined;
    (async () => {
      for await (const event of watcher) {
        if (!event.paths.some((p) => p.endsWith("/current"))) continue;
        clearTimeout(timer);
        timer = setTimeout(() => void this.reloadAll(), 150);
      }
    })().catch((error) => this.logger.warn("artifact watch stopped", { error: String(error) }));
  }

  /** Reloads every artifact when the process receives SIGHUP. */
  reloadOnSighup(): void {
    if (this.#onSighup || Deno.build.os === "windows") return;
    this.#onSighup = () => {
      this.logger.info("SIGHUP: reloading artifacts");
      void this.reloadAll();
    };
    Deno.addSignalListener("SIGHUP", this.#onSighup);
  }

  /** Stops watching and closes every version (waits for pending reloads first). */
  async close(): Promise<void> {
    this.#watcher?.close();
    this.#watcher = null;
    if (this.#onSighup) Deno.removeSignalListener("SIGHUP", this.#onSighup);
    this.#onSighup = null;
    for (const slot of this.#slots.values()) {
      await slot.queue;
      slot.current?.retire();
      slot.current = null;
    }
  }

  #slot(name: string): Slot {
    const slot = this.#slots.get(name);
    if (!slot) throw new Error(`unknown artifact ${name}`);
    return slot;
  }
}
