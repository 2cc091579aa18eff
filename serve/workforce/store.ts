/** Evidence pack persistence: account-scoped, immutable rows in Postgres (PGlite or a server). */
import type { Kysely } from "kysely";
import type { DB } from "../stores/schema.ts";

/** A stored pack. */
export interface StoredPack {
  id: string;
  soc_code: string;
  request_json: string;
  evidence_version: string;
  document_json: string;
  document_sha256: string;
  created_at: Date;
}

const COLUMNS = [
  "id",
  "soc_code",
  "request_json",
  "evidence_version",
  "document_json",
  "document_sha256",
  "created_at",
] as const;

/** Reads and writes packs; every read is scoped to the account. */
export class PackStore {
  constructor(private readonly db: Kysely<DB>) {}

  /** The account's pack with this id, or null (another account's id is null too). */
  async get(accountId: string, id: string): Promise<StoredPack | null> {
    return await this.db.selectFrom("workforce_evidence_packs").select(COLUMNS)
      .where("id", "=", id).where("account_id", "=", accountId).executeTakeFirst() ?? null;
  }

  /**
   * Inserts a new pack; when a concurrent request inserted the same id first, returns that one
   * with created false.
   */
  async insert(
    accountId: string,
    pack: StoredPack & { evidence_content_hash: string },
  ): Promise<{ pack: StoredPack; created: boolean }> {
    const inserted = await this.db.insertInto("workforce_evidence_packs")
      .values({ ...pack, account_id: accountId })
      .onConflict((oc) => oc.column("id").doNothing())
      .returning(COLUMNS).executeTakeFirst();
    if (inserted) return { pack: inserted, created: true };
    const existing = await this.get(accountId, pack.id);
    if (!existing) throw new Error("evidence pack id collision across accounts");
    return { pack: existing, created: false };
  }
}
