import { US_STATES } from "../text/us_states.ts";

/** State FIPS codes (QWI's `state` key) and their names (serve/text/us_states.ts). */
export const STATE_FIPS: Record<string, string> = Object.fromEntries(
  US_STATES.map((s) => [s.fips, s.name]),
);

/** "North Carolina (state FIPS 37)", or "state FIPS NN" for a code not in the list. */
export function stateLabel(fips: string): string {
  const name = STATE_FIPS[fips.padStart(2, "0")];
  return name ? `${name} (state FIPS ${fips})` : `state FIPS ${fips}`;
}
