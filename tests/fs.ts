/** Small file-system helpers shared by tests. */

/** Runs fn with a fresh temporary folder that is removed afterwards. */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Bookkeeping files an artifact folder keeps beside its versions (pointer history). */
const BOOKKEEPING = new Set([".history", ".rebuild-state.json"]);

/** Sorted names in a folder (bookkeeping files left out), or [] when it does not exist. */
export async function listNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!BOOKKEEPING.has(entry.name)) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names.sort();
}
