/**
 * Opaque, tamper-evident page cursors for the catalog: base64url of {version, query, offset}
 * with an HMAC-SHA256 tag. A forged or altered cursor fails the tag; a cursor of another
 * evidence version or another query is stale. Both are 422.
 */
import { base64url, fromBase64url } from "../platform/secrets.ts";

const encoder = new TextEncoder();

/** Why a cursor was refused. */
export class CursorError extends Error {}

/** Signs and checks cursors with one HMAC key. */
export class CursorCodec {
  constructor(private readonly key: CryptoKey) {}

  async encode(state: { v: string; q: string; o: number }): Promise<string> {
    const body = base64url(encoder.encode(JSON.stringify(state)));
    const tag = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, encoder.encode(body)));
    return `${body}.${base64url(tag.slice(0, 16))}`;
  }

  /** The offset a cursor carries for this version and query; throws CursorError otherwise. */
  async decode(cursor: string, version: string, query: string): Promise<number> {
    const [body, tag, extra] = cursor.split(".");
    if (!body || !tag || extra !== undefined || !/^[A-Za-z0-9_-]+$/.test(body + tag)) {
      throw new CursorError("the cursor is not one this service issued");
    }
    // The tag is compared as the text this service issues, not as decoded bytes: base64url's
    // last character carries padding bits, so decoding would accept several spellings of one tag.
    const expected = base64url(
      new Uint8Array(await crypto.subtle.sign("HMAC", this.key, encoder.encode(body))).slice(0, 16),
    );
    let differ = tag.length ^ expected.length;
    for (let i = 0; i < expected.length; i++) {
      differ |= (tag.charCodeAt(i) | 0) ^ expected.charCodeAt(i);
    }
    if (differ !== 0) {
      throw new CursorError("the cursor is not one this service issued (its signature fails)");
    }
    const state = JSON.parse(new TextDecoder().decode(fromBase64url(body))) as {
      v: string;
      q: string;
      o: number;
    };
    if (state.v !== version) {
      throw new CursorError(
        "the cursor is stale: the catalog changed since it was issued; " +
          "start again without a cursor",
      );
    }
    if (state.q !== query) {
      throw new CursorError("the cursor belongs to another query; start again without a cursor");
    }
    return state.o;
  }
}
