/**
 * The developer console in headless Chromium (Debian's package, driven by puppeteer-core):
 * sign up, the verification link from the outbox, log in, create a key and copy it, a try-it
 * call to candidates, usage showing that call, feedback, revoke the key, log out. Every page
 * is checked with axe-core (injected from node_modules, 0 violations), no request may leave
 * for another host, no CSP violation may be reported, and the console cookie must not open an
 * API route. Screenshots of each page go to CONSOLE_SCREENSHOTS (a folder; default a
 * temporary one): `CONSOLE_SCREENSHOTS=docs/images deno test -A tests/console_browser_test.ts`
 * refreshes the README's.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import puppeteer, { type Page } from "puppeteer-core";
import { testApp } from "./helpers.ts";
import { chromiumPath } from "./chromium.ts";
import { freePort } from "../bench/load.ts";
import { PASSWORD } from "./platform.ts";

const NO_CHROMIUM = chromiumPath() === null;
const SKIP = NO_CHROMIUM ? " (skipped: Chromium not installed; .ci/run installs it)" : "";
const AXE = new URL("../node_modules/axe-core/axe.min.js", import.meta.url);

/** Evaluates an expression in the page (a string: this file is not type-checked with DOM types). */
function js<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

/** Polls an expression (waitForFunction would need eval, which the page's CSP forbids). */
async function until(page: Page, expression: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await js<string>(page, expression);
    if (value || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs axe-core in the page; returns its violations as readable lines. */
async function axeViolations(page: Page, source: string): Promise<string[]> {
  if (await js(page, "typeof axe") === "undefined") await page.evaluate(source);
  return await js<string[]>(
    page,
    `axe.run(document, { resultTypes: ["violations"] }).then((result) =>
      result.violations.map((v) => v.id + " (" + v.impact + "): " + v.help + " at " +
        v.nodes.map((n) => n.target.join(" ")).join(", ")))`,
  );
}

Deno.test({
  name: `console in Chromium: sign up to log out, axe clean, nothing from another host${SKIP}`,
  ignore: NO_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const t = await testApp({ env: { PUBLIC_BASE_URL: base } });
    const server = Deno.serve(
      { port, hostname: "127.0.0.1", onListen: () => {} },
      (request, info) => t.app.fetch(request, { remoteAddr: info.remoteAddr }),
    );
    const shots = Deno.env.get("CONSOLE_SCREENSHOTS") ??
      await Deno.makeTempDir({ prefix: "console-shots-" });
    const axeSource = await Deno.readTextFile(AXE);
    const browser = await puppeteer.launch({
      executablePath: chromiumPath()!,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
      ],
      defaultViewport: { width: 1100, height: 800 },
    });
    try {
      const context = browser.defaultBrowserContext();
      await context.overridePermissions(base, [
        "clipboard-read",
        "clipboard-write",
        "clipboard-sanitized-write",
      ]);
      const page = await browser.newPage();
      const requests: string[] = [];
      const messages: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      page.on("console", (m) => messages.push(`${m.type()}: ${m.text()}`));
      page.on("pageerror", (e) => messages.push(`pageerror: ${String(e)}`));
      const checked: string[] = [];
      /** axe on the page as it is now, then a full-page screenshot. */
      const check = async (name: string) => {
        assert.deepEqual(await axeViolations(page, axeSource), [], `axe violations on ${name}`);
        checked.push(name);
        await page.screenshot({ path: join(shots, `console-${name}.png`), fullPage: true });
      };
      const go = async (path: string) => {
        const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
        return response!;
      };
      const submitForm = async (selector = "main form button[type=submit]") => {
        await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(selector)]);
      };
      const path = () => new URL(page.url()).pathname + new URL(page.url()).search;
      const text = () => js<string>(page, 'document.querySelector("main").innerText');

      // 1. Sign up (keyboard first: the skip link is the first stop).
      await go("/console/signup");
      await check("signup");
      await page.keyboard.press("Tab");
      assert.equal(await js(page, "document.activeElement.className"), "skip");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      assert.equal(await js(page, "document.activeElement.id"), "email", "Tab reaches the form");
      await page.type("#email", "ada@example.com");
      await page.type("#password", PASSWORD);
      await page.type("#full_name", "Ada Lovelace");
      await page.type("#company_name", "Engines Ltd");
      await submitForm();
      assert.equal(path(), "/console/sent/signup");
      await check("check-email");

      // 2. The verification link from the outbox.
      const mail = (await t.outbox()).find((m) => m.kind === "verify_email")!;
      const link = mail.text.match(/https?:\/\/\S+/)![0];
      assert.ok(link.startsWith(`${base}/console/verify?token=`), link);
      await page.goto(link, { waitUntil: "load" });
      await check("verify");
      await submitForm();
      assert.equal(path(), "/console/login?notice=verified");

      // 3. Log in.
      await check("login");
      await page.type("#email", "ada@example.com");
      await page.type("#password", PASSWORD);
      await submitForm();
      assert.equal(path(), "/console/keys");
      const cookies = await browser.cookies();
      const session = cookies.find((c) => c.name === "oi_console");
      assert.ok(session?.httpOnly, "an HttpOnly session cookie");
      assert.equal(session.sameSite, "Strict");
      assert.equal(await js(page, "document.cookie"), "", "script cannot read it");

      // The console cookie cannot call an API route, from the page or from anywhere.
      const fromPage = await js(
        page,
        'fetch("/api/v1/platform/api-keys", { credentials: "include" }).then((r) => r.status)',
      );
      assert.equal(fromPage, 401);
      const direct = await fetch(`${base}/api/v1/platform/usage`, {
        headers: { cookie: `oi_console=${session.value}` },
      });
      await direct.body?.cancel();
      assert.equal(direct.status, 401);

      // 4. Create a key and copy it.
      await page.type("#name", "first key");
      await submitForm("form[action='/console/keys'] button[type=submit]");
      const key = await page.$eval(
        "#new-key-value",
        (e) => (e as unknown as { value: string }).value,
      );
      assert.match(key, /^oik_/);
      await page.bringToFront();
      await page.click("#copy-key");
      const said = await until(page, 'document.getElementById("copy-status").textContent');
      assert.match(said, /^Copied/, said);
      assert.equal(await js(page, "navigator.clipboard.readText()"), key);
      await check("keys");

      // 5. A try-it call to candidates.
      await go("/console/try");
      await page.type("#key", key);
      await page.click("#try-form button[type=submit]");
      await page.waitForSelector("#try-table table tbody tr");
      const rows = await page.$$eval("#try-table tbody tr", (trs) => trs.length);
      assert.ok(rows >= 1, "a readable table of candidates");
      assert.match(await page.$eval("#try-status", (e) => e.textContent!), /^200 OK/);
      const answer = JSON.parse(await page.$eval("#try-json", (e) => e.textContent!));
      assert.equal(answer.decision, "candidates_only");
      assert.match(await page.$eval("#try-curl", (e) => e.textContent!), /curl -s -X POST/);
      assert.ok(
        !(await page.$eval("#try-curl", (e) => e.textContent!)).includes(key),
        "the curl command names $OI_API_KEY, not the key",
      );
      assert.equal(
        await js(page, "localStorage.length + sessionStorage.length"),
        0,
        "the key is kept in no storage",
      );
      await check("try");

      // 6. Usage shows that call.
      await go("/console/usage");
      const usage = await text();
      assert.match(usage, /Last 30 days: 1 requests/);
      assert.match(usage, /\/api\/v1\/occupation\/candidates/);
      await check("usage");

      // Feedback about the answer, from its "report this result" link.
      await go("/console/try");
      await page.type("#key", key);
      await page.click("#try-form button[type=submit]");
      // Visible means laid out with a box: clicking as soon as `hidden` drops raced the layout.
      const report = await page.waitForSelector("#try-report:not([hidden])", { visible: true });
      await Promise.all([page.waitForNavigation({ waitUntil: "load" }), report!.click()]);
      const related = await page.$eval(
        "#related_request_id",
        (e) => (e as unknown as { value: string }).value,
      );
      assert.match(related, /^[0-9a-f-]{36}$/);
      await page.type("#message", "The first candidate is right; the third is not.");
      await page.select("#category", "accuracy");
      await submitForm("#feedback-form button[type=submit]");
      assert.equal(path(), "/console/feedback?notice=sent");
      assert.match(await text(), /The first candidate is right/);
      await check("feedback");

      // 7. Revoke the key, with a confirmation.
      await go("/console/keys");
      await Promise.all([
        page.waitForNavigation({ waitUntil: "load" }),
        page.click("a[href$='/revoke']"),
      ]);
      await check("revoke");
      await submitForm();
      assert.equal(path(), "/console/keys?notice=revoked");
      assert.match(await text(), /was revoked/);
      const refused = await fetch(`${base}/api/v1/occupation/candidates`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "nurse" }),
      });
      await refused.body?.cancel();
      assert.equal(refused.status, 401);

      // 8. Log out.
      await submitForm("nav form button[type=submit]");
      assert.equal(path(), "/console/login?notice=logged_out");
      assert.equal((await go("/console/keys")).url(), `${base}/console/login`);
      assert.ok(!(await browser.cookies()).some((c) => c.name === "oi_console"));

      // The recovery pages, signed out.
      await go("/console/forgot");
      await check("forgot");
      await go("/console/reset?token=example-token-from-an-email");
      await check("reset");

      const elsewhere = requests.filter((u) => !u.startsWith(`${base}/`));
      assert.deepEqual(elsewhere, [], "no request left for another host");
      const refusedByCsp = messages.filter((m) =>
        /refused|content security policy|blocked/i.test(m)
      );
      assert.deepEqual(refusedByCsp, [], "no CSP violation");
      // The one error expected: the 401 of the cookie-only API call made above.
      const errors = messages.filter((m) => /^(error|pageerror)/.test(m));
      assert.deepEqual(errors, [
        "error: Failed to load resource: the server responded with a status of 401 (Unauthorized)",
      ]);
      assert.equal(checked.length, 11);
    } finally {
      await browser.close();
      await server.shutdown();
      await t.cleanup();
    }
  },
});
