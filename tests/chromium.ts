/**
 * Headless Chromium for tests: loads one URL over the Chrome DevTools Protocol (Deno's own
 * WebSocket, no package) and reports every request the page made, its console and log messages
 * (CSP violations show up there as "Refused to …"), its layout size and a full-page PNG.
 * The browser runs in a fresh profile that is removed afterwards, under a hard timeout.
 */

/** What one page load did. */
export interface PageLoad {
  /** Every Network.requestWillBeSent URL, in order (the document itself included). */
  requests: string[];
  /** Console API calls, exceptions and log entries, as "level source: text". */
  messages: string[];
  /** The full-page screenshot. */
  png: Uint8Array;
  /** Laid-out content size in CSS pixels, and the viewport width it was laid out in. */
  contentWidth: number;
  contentHeight: number;
  viewportWidth: number;
}

/** Options of one load. */
export interface LoadOptions {
  /** Viewport width and height in CSS pixels (default 1200 x 900). */
  width?: number;
  height?: number;
  /** Whole-run limit: launch, load, screenshot (default 60 s). */
  timeoutMs?: number;
}

/** The Chromium binary to use (CHROMIUM_BIN, else /usr/bin/chromium), or null if there is none. */
export function chromiumPath(): string | null {
  const candidates = [Deno.env.get("CHROMIUM_BIN"), "/usr/bin/chromium"];
  for (const path of candidates) {
    if (!path) continue;
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not there: try the next one
    }
  }
  return null;
}

// deno-lint-ignore no-explicit-any
type Json = any;
type Listener = (method: string, params: Json, sessionId: string | undefined) => void;

/** A minimal Chrome DevTools Protocol client over one browser WebSocket. */
class Cdp {
  readonly closed: Promise<void>;
  #ws: WebSocket;
  #nextId = 1;
  #pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
  #listeners = new Set<Listener>();

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    this.closed = new Promise((resolve) => {
      ws.addEventListener("close", () => {
        for (const { reject } of this.#pending.values()) {
          reject(new Error("DevTools connection closed"));
        }
        this.#pending.clear();
        resolve();
      });
    });
    ws.addEventListener("message", (event) => {
      const msg = JSON.parse(String(event.data));
      if (typeof msg.id === "number") {
        const call = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.error) call?.reject(new Error(`CDP: ${JSON.stringify(msg.error)}`));
        else call?.resolve(msg.result);
      } else {
        for (const listener of this.#listeners) listener(msg.method, msg.params, msg.sessionId);
      }
    });
  }

  /** Opens the browser-level DevTools connection. */
  static connect(url: string): Promise<Cdp> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.addEventListener("open", () => resolve(new Cdp(ws)), { once: true });
      ws.addEventListener("error", () => reject(new Error(`cannot connect to ${url}`)), {
        once: true,
      });
    });
  }

  /** Sends one command (to a page session when sessionId is given) and awaits its result. */
  send(method: string, params: Json = {}, sessionId?: string): Promise<Json> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Calls listener for every event. */
  on(listener: Listener): void {
    this.#listeners.add(listener);
  }

  /**
   * Resolves at the next `method` event of the session; rejects if the connection closes first (a
   * browser stopped by the timeout while a page loads must not leave the load waiting for ever).
   */
  once(method: string, sessionId: string): Promise<Json> {
    return new Promise((resolve, reject) => {
      const listener: Listener = (m, params, sid) => {
        if (m === method && sid === sessionId) {
          this.#listeners.delete(listener);
          resolve(params);
        }
      };
      this.#listeners.add(listener);
      this.closed.then(() => {
        this.#listeners.delete(listener);
        reject(new Error(`DevTools connection closed before ${method}`));
      });
    });
  }

  /** Closes the connection (pending calls are rejected) and waits until it is closed. */
  async close(): Promise<void> {
    if (this.#ws.readyState === WebSocket.OPEN || this.#ws.readyState === WebSocket.CONNECTING) {
      this.#ws.close();
    }
    await this.closed;
  }
}

/** Reads Chromium's stderr to the end; `url` resolves with the DevTools WebSocket address. */
function readStderr(
  stream: ReadableStream<Uint8Array>,
): { url: Promise<string>; done: Promise<void> } {
  let found: (url: string) => void = () => {};
  let failed: (e: Error) => void = () => {};
  const url = new Promise<string>((resolve, reject) => {
    found = resolve;
    failed = reject;
  });
  url.catch(() => {}); // a caller that timed out no longer listens
  const done = (async () => {
    let text = "";
    let seen = false;
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text = (text + chunk).slice(-20_000);
      const match = !seen && text.match(/DevTools listening on (ws:\/\/\S+)/);
      if (match) {
        seen = true;
        found(match[1]);
      }
    }
    if (!seen) failed(new Error(`Chromium exited without a DevTools address:\n${text}`));
  })();
  return { url, done };
}

/** Drives one page: enable domains, navigate, wait for load, measure and screenshot. */
async function loadPage(cdp: Cdp, url: string, width: number, height: number): Promise<PageLoad> {
  const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: true });
  const requests: string[] = [];
  const messages: string[] = [];
  cdp.on((method, params, sid) => {
    if (sid !== sessionId) return;
    if (method === "Network.requestWillBeSent") requests.push(params.request.url);
    if (method === "Log.entryAdded") {
      const e = params.entry;
      messages.push(`${e.level} ${e.source}: ${e.text}${e.url ? ` (${e.url})` : ""}`);
    }
    if (method === "Runtime.consoleAPICalled") {
      const text = params.args.map((a: Json) => a.value ?? a.description ?? "").join(" ");
      messages.push(`${params.type} console: ${text}`);
    }
    if (method === "Runtime.exceptionThrown") {
      messages.push(`error exception: ${params.exceptionDetails.text}`);
    }
  });
  for (const domain of ["Network", "Page", "Runtime", "Log"]) {
    await cdp.send(`${domain}.enable`, {}, sessionId);
  }
  await cdp.send("Emulation.setDeviceMetricsOverride", {
    width,
    height,
    deviceScaleFactor: 1,
    mobile: false,
  }, sessionId);
  const loaded = cdp.once("Page.loadEventFired", sessionId);
  const navigation = await cdp.send("Page.navigate", { url }, sessionId);
  if (navigation.errorText) throw new Error(`navigation failed: ${navigation.errorText}`);
  await loaded;
  // Late requests (a favicon, a lazy asset) and messages arrive after the load event.
  await new Promise((resolve) => setTimeout(resolve, 400));
  const metrics = await cdp.send("Page.getLayoutMetrics", {}, sessionId);
  const { width: contentWidth, height: contentHeight } = metrics.cssContentSize;
  const shot = await cdp.send("Page.captureScreenshot", {
    format: "png",
    captureBeyondViewport: true,
    clip: { x: 0, y: 0, width: contentWidth, height: contentHeight, scale: 1 },
  }, sessionId);
  const png = Uint8Array.from(atob(shot.data), (c) => c.charCodeAt(0));
  await cdp.send("Target.closeTarget", { targetId }).catch(() => {});
  return {
    requests,
    messages,
    png,
    contentWidth,
    contentHeight,
    viewportWidth: metrics.cssLayoutViewport.clientWidth,
  };
}

/**
 * Launches headless Chromium in a new profile, loads `url` and returns what the page did.
 * The browser is always stopped and the profile removed, also on failure or timeout.
 */
export async function loadInChromium(url: string, options: LoadOptions = {}): Promise<PageLoad> {
  const bin = chromiumPath();
  if (bin === null) throw new Error("Chromium is not installed (set CHROMIUM_BIN)");
  const { width = 1200, height = 900, timeoutMs = 60_000 } = options;
  const profile = await Deno.makeTempDir({ prefix: "chromium-profile-" });
  const child = new Deno.Command(bin, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-component-update",
      "--disable-sync",
      "--disable-extensions",
      "--disable-dev-shm-usage",
      "--hide-scrollbars",
      "--mute-audio",
      `--window-size=${width},${height}`,
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = readStderr(child.stderr);
  let cdp = null as Cdp | null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const session = (async () => {
    cdp = await Cdp.connect(await stderr.url);
    return await loadPage(cdp, url, width, height);
  })();
  session.catch(() => {}); // after a timeout its failure is not the news
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Chromium did not load ${url} within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    return await Promise.race([session, timeout]);
  } finally {
    clearTimeout(timer);
    await stopBrowser(child, cdp);
    await session.catch(() => {});
    await stderr.done.catch(() => {});
    await removeProfile(profile);
  }
}

/** Waits for a promise at most `ms` milliseconds (undefined when the time ran out). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((
    resolve,
  ) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks the browser to close, then kills it if it has not exited within 3 s. Without a DevTools
 * connection (a timeout before it was made) nothing asks it to close, so it is killed at once:
 * waiting let the abandoned session connect and load the page meanwhile.
 */
async function stopBrowser(child: Deno.ChildProcess, cdp: Cdp | null): Promise<void> {
  if (cdp !== null) await within(cdp.send("Browser.close").catch(() => {}), 1000);
  const exited = cdp !== null && await within(child.status.then(() => true), 3000);
  if (!exited) {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
  await child.status;
  if (cdp !== null) await cdp.close();
}

/** Removes the profile folder, retrying while helper processes finish writing into it. */
async function removeProfile(dir: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(dir, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      if (attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
