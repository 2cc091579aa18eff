/** The entitlements a contract and a key can carry. */

/** Every known entitlement name. */
export const ENTITLEMENTS = ["customer_grounding", "workforce_evidence_packs"] as const;

/** One entitlement name. */
export type Entitlement = (typeof ENTITLEMENTS)[number];

/** Whether a string names a known entitlement. */
export function isEntitlement(name: string): name is Entitlement {
  return (ENTITLEMENTS as readonly string[]).includes(name);
}
