/**
 * Email delivery: the `.eml` file transport, real SMTP on loopback, and the transactional
 * outbox (retries through an outage, restarts, crashed claims, rollbacks, concurrent senders).
 * Time is an injected clock, so nothing here waits for a backoff to pass.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { Kysely } from "kysely";
import {
  fileTransport,
  type OutgoingEmail,
  smtpTransport,
  type Transport,
} from "../serve/email/mailer.ts";
import {
  defaultBackoff,
  describeError,
  enqueueEmail,
  OutboxSender,
  type OutboxSenderOptions,
} from "../serve/email/outbox.ts";
import { deriveKeys } from "../serve/platform/secrets.ts";
import type { DB } from "../serve/stores/schema.ts";
import { migrate } from "../serve/stores/migrate.ts";
import { memoryLogger } from "../serve/http/log.ts";
import { testDatabase, waitFor } from "./helpers.ts";
import { listNames, withTempDir } from "./fs.ts";

const FROM = "Occupation API <noreply@platform.example>";
const TOKEN = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0";
const { outboxKey } = await deriveKeys("email-test-root-secret");

function email(to: string, n = 1): OutgoingEmail {
  return {
    kind: "verify_email",
    to,
    subject: `Vérifiez votre adresse ${n}`,
    text: `Hello ${to},\nconfirm here: https://platform.example/verify?token=${TOKEN}-${n}\nThanks`,
  };
}

/** A clock the test moves by hand. */
function fakeClock(start = "2026-11-21T12:00:00.000Z") {
  let now = new Date(start).getTime();
  return { clock: () => new Date(now), advance: (ms: number) => void (now += ms) };
}

interface Received {
  to: string[];
  raw: string;
}

/** A loopback SMTP server that keeps every message it accepts. */
async function startSmtp(port = 0) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((a) => a.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (bound, read, released). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Decodes `=XX` escapes into bytes; other characters are ASCII. */
function qpBytes(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "=" && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i));
  }
  return new Uint8Array(bytes);
}

/** RFC 2047 encoded words back to text. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, "?==?").replace(
    /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
    (_, charset: string, encoding: string, data: string) =>
      new TextDecoder(charset).decode(
        encoding.toUpperCase() === "B"
          ? Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
          : qpBytes(data.replaceAll("_", " ")),
      ),
  );
}

/** Splits an RFC 5322 message into unfolded headers and its decoded text body. */
function parseMessage(raw: string) {
  const split = raw.indexOf("\r\n\r\n");
  assert.ok(split > 0, "headers end with an empty line");
  const headers = new Map<string, string>();
  for (const line of raw.slice(0, split).replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    assert.ok(colon > 0, `header line: ${line}`);
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = raw.slice(split + 4);
  if (headers.get("content-transfer-encoding") === "quoted-printable") {
    body = new TextDecoder().decode(qpBytes(body.replaceAll("=\r\n", "")));
  }
  return { headers, body: body.replace(/\r\n$/, "") };
}

/** Asserts a received message is `sent`, as the outbox should have delivered it. */
function assertMessage(raw: string, sent: OutgoingEmail) {
  const { headers, body } = parseMessage(raw);
  assert.equal(headers.get("to"), sent.to);
  assert.equal(decodeWords(headers.get("subject") ?? ""), sent.subject);
  assert.equal(body, sent.text.replaceAll("\n", "\r\n"));
}

function outboxRows(db: Kysely<DB>) {
  return db.selectFrom("email_outbox").selectAll().orderBy("id").execute();
}

/** Runs fn with a migrated test database. */
async function withDatabase(fn: (db: Kysely<DB>) => Promise<void>): Promise<void> {
  const { database, cleanup } = await testDatabase();
  try {
    await migrate(database);
    await fn(database.db);
  } finally {
    await cleanup();
  }
}

function sender(
  db: Kysely<DB>,
  transport: Transport,
  more: Partial<OutboxSenderOptions> = {},
): OutboxSender {
  return new OutboxSender({
    db,
    transport,
    outboxKey,
    from: FROM,
    logger: memoryLogger(),
    ...more,
  });
}

Deno.test("fileTransport writes one parseable .eml and logs no body or token", async () => {
  await withTempDir("test-eml-", async (tmp) => {
    const dir = `${tmp}/outbox`; // missing on purpose: the transport creates it
    const logger = memoryLogger();
    const transport = fileTransport(dir, logger);
    const sent = email("alice@example.com");
    try {
      await transport.send(sent, FROM);
    } finally {
      await transport.close();
    }
    const names = await listNames(dir);
    assert.equal(names.length, 1, "one file, no temp file left behind");
    assert.match(
      names[0],
      /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-verify_email-[0-9a-f]{8}\.eml$/,
    );
    const path = `${dir}/${names[0]}`;
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    const raw = await Deno.readTextFile(path);
    assert.ok(raw.includes("\r\n") && !/[^\r]\n/.test(raw), "CRLF line endings only");
    const { headers } = parseMessage(raw);
    for (const name of ["from", "to", "subject", "date", "message-id", "mime-version"]) {
      assert.ok(headers.has(name), `${name} header`);
    }
    assert.equal(headers.get("from"), FROM);
    assert.equal(headers.get("mime-version"), "1.0");
    assert.equal(headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(headers.get("content-transfer-encoding"), "8bit", "readable body");
    assert.match(headers.get("subject")!, /^[\x20-\x7e]+$/, "non-ASCII subject is encoded");
    assert.match(headers.get("date")!, /^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}$/);
    assert.match(headers.get("message-id")!, /^<[^@\s<>]+@platform\.example>$/);
    assertMessage(raw, sent);

    assert.equal(logger.lines.length, 1);
    const [line] = logger.lines;
    assert.equal(line.msg, "email written to outbox");
    assert.equal(line.kind, "verify_email");
    assert.equal(line.file, path);
    const logged = JSON.stringify(logger.lines);
    for (const secret of [TOKEN, "confirm here", "alice@example.com"]) {
      assert.ok(!logged.includes(secret), `log must not hold ${secret}`);
    }
  });
});

Deno.test("transports keep CR/LF out of the headers", async () => {
  await withTempDir("test-eml-", async (dir) => {
    const transport = fileTransport(dir, memoryLogger());
    try {
      await transport.send(
        { ...email("bob@example.com"), subject: "Hi\r\nBcc: evil@x.test" },
        FROM,
      );
      const [name] = await listNames(dir);
      const { headers } = parseMessage(await Deno.readTextFile(`${dir}/${name}`));
      assert.ok(!headers.has("bcc"));
      assert.equal(decodeWords(headers.get("subject")!), "Hi Bcc: evil@x.test");
      await assert.rejects(
        transport.send(email("bob@example.com\r\nBcc: evil@x.test"), FROM),
        /control characters/,
      );
      assert.equal((await listNames(dir)).length, 1);
    } finally {
      await transport.close();
    }
  });
  await withDatabase(async (db) => {
    await assert.rejects(
      enqueueEmail(db, outboxKey, email("a@example.com\nBcc: evil@x.test"), new Date()),
      /control characters/,
    );
    assert.equal((await outboxRows(db)).length, 0);
  });
});

Deno.test("the outbox delivers over real SMTP and erases bodies once sent", async () => {
  await withDatabase(async (db) => {
    const smtp = await startSmtp();
    const transport = smtpTransport(`smtp://127.0.0.1:${smtp.port}`);
    try {
      const { clock } = fakeClock();
      const mails = [email("alice@example.com", 1), email("bob@example.com", 2)];
      await db.transaction().execute(async (trx) => {
        for (const mail of mails) await enqueueEmail(trx, outboxKey, mail, clock());
      });
      const pending = await outboxRows(db);
      assert.equal(pending.length, 2);
      for (const row of pending) {
        assert.match(row.body_encrypted!, /^v1\./);
        assert.ok(!row.body_encrypted!.includes(TOKEN), "body is encrypted at rest");
      }

      const outbox = sender(db, transport, { clock });
      assert.deepEqual(await outbox.deliverDue(), { sent: 2, failed: 0 });
      assert.equal(smtp.received.length, 2);
      for (const mail of mails) {
        const got = smtp.received.filter((r) => r.to.includes(mail.to));
        assert.equal(got.length, 1, `one message to ${mail.to}`);
        assert.deepEqual(got[0].to, [mail.to]);
        assertMessage(got[0].raw, mail);
      }
      for (const row of await outboxRows(db)) {
        assert.deepEqual(row.sent_at, clock());
        assert.equal(row.body_encrypted, null);
        assert.equal(row.last_error, null);
        assert.equal(row.attempts, 1);
      }
      assert.deepEqual(await outbox.deliverDue(), { sent: 0, failed: 0 }, "nothing sent twice");
      assert.equal(smtp.received.length, 2);
    } finally {
      await transport.close();
      await smtp.close();
    }
  });
});

Deno.test("an SMTP outage delays email and loses none", async () => {
  await withDatabase(async (db) => {
    const port = freePort();
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
    let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
    try {
      const time = fakeClock();
      const logger = memoryLogger();
      const outbox = sender(db, transport, { clock: time.clock, logger });
      const mail = email("carol@example.com");
      await enqueueEmail(db, outboxKey, mail, time.clock());

      assert.deepEqual(await outbox.deliverDue(), { sent: 0, failed: 1 });
      const [row] = await outboxRows(db);
      assert.equal(row.sent_at, null);
      assert.equal(row.attempts, 1);
      assert.ok(row.last_error && row.last_error.length <= 300);
      assert.ok(!row.last_error.includes(TOKEN));
      assert.ok(row.body_encrypted, "body kept for the retry");
      const delay = row.next_attempt_at.getTime() - time.clock().getTime();
      assert.ok(delay >= 4500 && delay <= 5500, `first retry after ~5 s, got ${delay} ms`);
      const warn = logger.lines.find((l) => l.level === "warn");
      assert.deepEqual(
        { id: warn?.email_id, attempts: warn?.attempts, error: warn?.error },
        { id: String(row.id), attempts: 1, error: row.last_error },
      );
      assert.ok(!JSON.stringify(logger.lines).includes(TOKEN));

      assert.deepEqual(await outbox.deliverDue(), { sent: 0, failed: 0 }, "not due yet");
      smtp = await startSmtp(port);
      time.advance(6_000);
      assert.deepEqual(await outbox.deliverDue(), { sent: 1, failed: 0 });
      assert.deepEqual(await outbox.deliverDue(), { sent: 0, failed: 0 });
      assert.equal(smtp.received.length, 1);
      assertMessage(smtp.received[0].raw, mail);
      const [after] = await outboxRows(db);
      assert.equal(after.attempts, 2);
      assert.ok(after.sent_at);
      assert.equal(after.last_error, null);
    } finally {
      await transport.close();
      await smtp?.close();
    }
  });
});

Deno.test("a restarted sender delivers what the old one left, and crashed claims expire", async () => {
  await withDatabase(async (db) => {
    const smtp = await startSmtp();
    const url = `smtp://127.0.0.1:${smtp.port}`;
    const transportA = smtpTransport(url);
    const transportB = smtpTransport(url);
    try {
      const time = fakeClock();
      const first = email("dave@example.com", 1);
      await enqueueEmail(db, outboxKey, first, time.clock());
      const a = sender(db, transportA, { clock: time.clock });
      a.start();
      await a.stop(); // before its first pass could run
      await transportA.close();
      assert.equal(smtp.received.length, 0);
      const b = sender(db, transportB, { clock: time.clock });
      assert.deepEqual(await b.deliverDue(), { sent: 1, failed: 0 });
      assertMessage(smtp.received[0].raw, first);

      // A sender that claims a row and then hangs (its process about to die).
      const second = email("erin@example.com", 2);
      await enqueueEmail(db, outboxKey, second, time.clock());
      let sendStarted!: () => void;
      const started = new Promise<void>((resolve) => (sendStarted = resolve));
      let failSend!: (error: Error) => void;
      const hanging: Transport = {
        name: "smtp",
        send: () => {
          sendStarted();
          return new Promise<void>((_, reject) => (failSend = reject));
        },
        close: () => Promise.resolve(),
      };
      const crashed = sender(db, hanging, { clock: time.clock, claimMs: 60_000 });
      const crashedPass = crashed.deliverDue();
      await started;
      time.advance(59_999);
      assert.deepEqual(await b.deliverDue(), { sent: 0, failed: 0 }, "claim still held");
      time.advance(1);
      assert.deepEqual(await b.deliverDue(), { sent: 1, failed: 0 }, "claim expired");
      assert.equal(smtp.received.length, 2);
      assertMessage(smtp.received[1].raw, second);

      failSend(new Error("socket closed"));
      assert.deepEqual(await crashedPass, { sent: 0, failed: 1 });
      const rows = await outboxRows(db);
      assert.equal(rows[1].attempts, 2);
      assert.ok(rows[1].sent_at, "the late failure does not undo the delivery");
      assert.equal(rows[1].last_error, null);
    } finally {
      await transportB.close();
      await smtp.close();
    }
  });
});

Deno.test("a slow pass hands its untried rows back instead of outliving its claim", async () => {
  await withDatabase(async (db) => {
    const time = fakeClock();
    for (let n = 1; n <= 3; n++) {
      await enqueueEmail(db, outboxKey, email(`u${n}@example.com`, n), time.clock());
    }
    const sentTo: string[] = [];
    const slow: Transport = {
      name: "smtp",
      send: (mail) => {
        sentTo.push(mail.to);
        time.advance(40_000); // beyond half the 60 s claim
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    };
    const outbox = sender(db, slow, { clock: time.clock, claimMs: 60_000 });
    assert.deepEqual(await outbox.deliverDue(), { sent: 1, failed: 0 });
    const rows = await outboxRows(db);
    assert.deepEqual(rows.map((r) => r.attempts), [1, 0, 0]);
    assert.deepEqual(rows.map((r) => r.sent_at !== null), [true, false, false]);
    assert.ok(rows.slice(1).every((r) => r.next_attempt_at <= time.clock()), "due again now");
    assert.deepEqual(await outbox.deliverDue(), { sent: 1, failed: 0 });
    assert.deepEqual(await outbox.deliverDue(), { sent: 1, failed: 0 });
    assert.deepEqual(sentTo, ["u1@example.com", "u2@example.com", "u3@example.com"]);
  });
});

Deno.test("an email enqueued in a rolled-back transaction never exists", async () => {
  await withDatabase(async (db) => {
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await enqueueEmail(trx, outboxKey, email("frank@example.com"), new Date());
        throw new Error("the sign-up failed");
      }),
      /the sign-up failed/,
    );
    assert.equal((await outboxRows(db)).length, 0);
    await db.transaction().execute((trx) =>
      enqueueEmail(trx, outboxKey, email("frank@example.com"), new Date())
    );
    assert.equal((await outboxRows(db)).length, 1, "the committed one does");
  });
});

Deno.test("two senders running at once deliver each email exactly once", async () => {
  await withDatabase(async (db) => {
    const smtp = await startSmtp();
    const transports = [0, 1].map(() => smtpTransport(`smtp://127.0.0.1:${smtp.port}`));
    try {
      const { clock } = fakeClock();
      const recipients = Array.from({ length: 7 }, (_, n) => `user${n}@example.com`);
      for (const [n, to] of recipients.entries()) {
        await enqueueEmail(db, outboxKey, email(to, n), clock());
      }
      const senders = transports.map((t) => sender(db, t, { clock, batchSize: 2 }));
      let total = 0;
      for (;;) {
        const results = await Promise.all(senders.map((s) => s.deliverDue()));
        const sent = results.reduce((sum, r) => sum + r.sent + r.failed, 0);
        if (sent === 0) break;
        total += sent;
      }
      assert.equal(total, recipients.length);
      assert.deepEqual(smtp.received.map((r) => r.to[0]).sort(), [...recipients].sort());
      for (const row of await outboxRows(db)) {
        assert.equal(row.attempts, 1, "no row claimed twice");
        assert.ok(row.sent_at);
      }
    } finally {
      for (const t of transports) await t.close();
      await smtp.close();
    }
  });
});

Deno.test("start() keeps polling through failing passes; stop() leaves no timer", async () => {
  const { database, cleanup } = await testDatabase();
  const smtp = await startSmtp();
  const transport = smtpTransport(`smtp://127.0.0.1:${smtp.port}`);
  const logger = memoryLogger();
  const outbox = sender(database.db, transport, { logger, pollMs: 10 });
  try {
    outbox.start(); // the outbox table does not exist yet: passes fail
    await waitFor(() => logger.lines.some((l) => l.msg === "email outbox pass failed"));
    await migrate(database);
    await enqueueEmail(database.db, outboxKey, email("gina@example.com"), new Date());
    await waitFor(() => smtp.received.length === 1);
    await outbox.stop();
    assert.ok((await outboxRows(database.db))[0].sent_at);
  } finally {
    await outbox.stop();
    await transport.close();
    await smtp.close();
    await cleanup();
  }
});

Deno.test("failures keep being retried, and turn into error logs from the 10th attempt", async () => {
  await withDatabase(async (db) => {
    const logger = memoryLogger();
    const down: Transport = {
      name: "smtp",
      send: () => Promise.reject(Object.assign(new Error("relay down"), { code: "ECONNECTION" })),
      close: () => Promise.resolve(),
    };
    const outbox = sender(db, down, { logger, backoff: () => 0 });
    await enqueueEmail(db, outboxKey, email("hank@example.com"), new Date());
    for (let n = 1; n <= 12; n++) {
      assert.deepEqual(await outbox.deliverDue(), { sent: 0, failed: 1 }, `attempt ${n}`);
    }
    assert.deepEqual(logger.lines.map((l) => l.level), [
      ...Array(9).fill("warn"),
      ...Array(3).fill("error"),
    ]);
    const [row] = await outboxRows(db);
    assert.equal(row.attempts, 12);
    assert.equal(row.last_error, "Error ECONNECTION: relay down");
  });
});

Deno.test("default backoff doubles from 5 s to a 30 min cap; errors are described briefly", () => {
  for (const [attempt, base] of [[1, 5_000], [2, 10_000], [3, 20_000], [30, 1_800_000]]) {
    const delay = defaultBackoff(attempt);
    assert.ok(delay >= base * 0.9 && delay <= base * 1.1, `attempt ${attempt}: ${delay}`);
  }
  const error = Object.assign(new Error("x".repeat(500)), { code: "ECONNECTION" });
  const text = describeError(error);
  assert.equal(text.length, 300);
  assert.ok(text.startsWith("Error ECONNECTION: xxx"));
});

Deno.test("a recipient the server refuses for good is not retried, and its body is erased", async () => {
  await withDatabase(async (db) => {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      closeTimeout: 1000,
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith("gone@")) {
          const refusal = Object.assign(new Error("no such mailbox"), { responseCode: 550 });
          return callback(refusal);
        }
        callback();
      },
      onData(stream, _session, callback) {
        stream.on("data", () => {});
        stream.on("end", () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const port = (server.server.address() as AddressInfo).port;
    const transport = smtpTransport(`smtp://127.0.0.1:${port}`);
    try {
      const { clock, advance } = fakeClock();
      await enqueueEmail(db, outboxKey, email("gone@example.com"), clock());
      await enqueueEmail(db, outboxKey, email("here@example.com"), clock());
      const outbox = sender(db, transport, { clock });
      assert.deepEqual(await outbox.deliverDue(), { sent: 1, failed: 1 });
      const [gone, here] = await outboxRows(db);
      assert.ok(gone.failed_at, "marked failed");
      assert.equal(gone.body_encrypted, null);
      assert.match(gone.last_error ?? "", /550|no such mailbox/);
      assert.ok(here.sent_at);
      advance(24 * 3_600_000);
      assert.deepEqual(await outbox.deliverDue(), { sent: 0, failed: 0 }, "never retried");
    } finally {
      await transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
