/** Progress output of the build CLI: one line per step on stderr, and a download bar. */

/** Receives the progress of a build. */
export interface Progress {
  step(index: number, total: number, name: string): void;
  done(detail: string): void;
  info(message: string): void;
  /** Bytes received of a download, with its total when known. */
  transfer(received: number, total: number | null): void;
}

/** A progress sink that prints nothing, for tests and embedded builds. */
export const silentProgress: Progress = {
  step() {},
  done() {},
  info() {},
  transfer() {},
};

const encoder = new TextEncoder();

/** Progress on stderr; the download bar redraws in place when stderr is a terminal. */
export function consoleProgress(write = (s: string) => Deno.stderr.writeSync(encoder.encode(s))) {
  let started = 0;
  let lastBar = 0;
  const tty = Deno.stderr.isTerminal();
  const progress: Progress = {
    step(index, total, name) {
      started = performance.now();
      write(`[${String(index).padStart(2)}/${total}] ${name} … `);
    },
    done(detail) {
      write(`${detail} (${((performance.now() - started) / 1000).toFixed(2)} s)\n`);
    },
    info(message) {
      write(`${message}\n`);
    },
    transfer(received, total) {
      const now = performance.now();
      const finished = total !== null && received >= total;
      if (!finished && now - lastBar < (tty ? 100 : 2000)) return;
      lastBar = now;
      const mib = (n: number) => (n / 1048576).toFixed(1);
      if (total) {
        const width = 30;
        const filled = Math.round((received / total) * width);
        const bar = "#".repeat(filled) + "-".repeat(width - filled);
        const pct = Math.floor((received / total) * 100);
        write(`${tty ? "\r" : ""}download [${bar}] ${pct}% ${mib(received)}/${mib(total)} MiB`);
      } else {
        write(`${tty ? "\r" : ""}download ${mib(received)} MiB`);
      }
      write(tty && !finished ? "" : "\n");
    },
  };
  return progress;
}
