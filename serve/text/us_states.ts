/**
 * The 50 US states, the District of Columbia and Puerto Rico: USPS code, state FIPS code (QWI's
 * `state` key) and name. One table for the title cleaner (a part of a title that names only
 * states, a "City, ST" location), the workforce packs' state labels and the market pipeline's
 * location reading, which each kept a list of their own until 2026-11-26.
 */
export interface UsState {
  /** USPS code, upper case ("NC"). */
  code: string;
  /** State FIPS code, two digits ("37"). */
  fips: string;
  name: string;
}

// deno-fmt-ignore
const TABLE = `AL 01 Alabama|AK 02 Alaska|AZ 04 Arizona|AR 05 Arkansas|CA 06 California|CO 08 Colorado
CT 09 Connecticut|DE 10 Delaware|DC 11 District of Columbia|FL 12 Florida|GA 13 Georgia|HI 15 Hawaii
ID 16 Idaho|IL 17 Illinois|IN 18 Indiana|IA 19 Iowa|KS 20 Kansas|KY 21 Kentucky|LA 22 Louisiana
ME 23 Maine|MD 24 Maryland|MA 25 Massachusetts|MI 26 Michigan|MN 27 Minnesota|MS 28 Mississippi
MO 29 Missouri|MT 30 Montana|NE 31 Nebraska|NV 32 Nevada|NH 33 New Hampshire|NJ 34 New Jersey
NM 35 New Mexico|NY 36 New York|NC 37 North Carolina|ND 38 North Dakota|OH 39 Ohio|OK 40 Oklahoma
OR 41 Oregon|PA 42 Pennsylvania|RI 44 Rhode Island|SC 45 South Carolina|SD 46 South Dakota
TN 47 Tennessee|TX 48 Texas|UT 49 Utah|VT 50 Vermont|VA 51 Virginia|WA 53 Washington
WV 54 West Virginia|WI 55 Wisconsin|WY 56 Wyoming|PR 72 Puerto Rico`;

/** Every entry, in FIPS order. */
export const US_STATES: readonly UsState[] = TABLE.split(/[|\n]/).map((entry) => {
  const [code, fips, ...name] = entry.trim().split(" ");
  return { code, fips, name: name.join(" ") };
});

const BY_CODE = new Map(US_STATES.map((s) => [s.code, s]));

/** The state with this USPS code (upper case), or undefined. */
export function usStateByCode(code: string): UsState | undefined {
  return BY_CODE.get(code);
}
