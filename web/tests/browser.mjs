// Drive the built demo in headless Chromium (Debian's, through playwright-core): open a PDF with
// the file input, then check the summary, a rendered page, "More", the table of contents, a
// search hit and the images against what CPython's pdfthin answered for the same file (--expect,
// written by tests/test_browser.py); then drop an RC4 file (password prompt) and open an AES one
// (the cryptography message). Fails on any console error, page error, failed
// request or request that leaves the page's origin. Screenshots and a report go to --artifacts.
//
//   node web/tests/browser.mjs --url http://127.0.0.1:PORT/ --expect expect.json --artifacts DIR
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const { values: opts } = parseArgs({
  options: {
    url: { type: "string" },
    expect: { type: "string" },
    artifacts: { type: "string", default: "web/test-artifacts" },
    chromium: { type: "string", default: process.env.CHROMIUM ?? "/usr/bin/chromium" },
  },
});
if (!opts.url || !opts.expect) {
  console.error("usage: node web/tests/browser.mjs --url URL --expect FILE [--artifacts DIR] [--chromium PATH]");
  process.exit(2);
}
const expect = JSON.parse(await readFile(opts.expect, "utf8"));
await mkdir(opts.artifacts, { recursive: true });

const origin = new URL(opts.url).origin;
const problems = []; // console errors, page errors, failed or foreign requests
const report = { url: opts.url, steps: [], problems };
const TIMEOUT = 180_000;

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

const browser = await chromium.launch({
  executablePath: opts.chromium,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
  ],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
page.setDefaultTimeout(TIMEOUT);

const watch = (where) => (message) => {
  if (message.type() === "error") problems.push(`${where} console error: ${message.text()}`);
};
page.on("console", watch("page"));
page.on("worker", (worker) => worker.on("console", watch("worker")));
page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
context.on("request", (request) => {
  const url = request.url();
  if (request.method() !== "GET") problems.push(`${request.method()} request (the PDF must not be sent): ${url}`);
  if (!url.startsWith(`${origin}/`) && !url.startsWith("blob:") && !url.startsWith("data:")) {
    problems.push(`request outside ${origin}: ${url}`);
  }
});
page.on("response", (response) => {
  if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
});

let shot = 0;
async function step(name, action) {
  const started = Date.now();
  try {
    await action();
  } finally {
    const file = `${String(++shot).padStart(2, "0")}-${name}.png`;
    await page.screenshot({ path: join(opts.artifacts, file), fullPage: true }).catch(() => {});
    report.steps.push({ name, ms: Date.now() - started, screenshot: file });
  }
}

/** Drop a file on the drop zone, as a user dragging it from the desktop would. */
async function dropFile(path) {
  const payload = { data: (await readFile(path)).toString("base64"), name: basename(path) };
  const transfer = await page.evaluateHandle(({ data, name }) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const dataTransfer = new DataTransfer();
    dataTransfer.items.add(new File([bytes], name, { type: "application/pdf" }));
    return dataTransfer;
  }, payload);
  await page.dispatchEvent("#dropzone", "drop", { dataTransfer: transfer });
}

const text = (selector) => page.locator(selector).first().innerText();
const count = (selector) => page.locator(selector).count();

try {
  await step("ready", async () => {
    await page.goto(opts.url);
    await page.waitForSelector("#runtime[data-state=ready]");
    report.runtime = await text("#runtime-message");
  });

  await step("summary", async () => {
    await page.setInputFiles("#file", expect.file);
    await page.waitForSelector("#doc-title");
    check((await text("#doc-title")) === expect.title, `title is ${expect.title}`);
    const statuses = await page.locator("#page-statuses .chip").allInnerTexts();
    check(JSON.stringify(statuses) === JSON.stringify(expect.statuses), `page statuses ${JSON.stringify(statuses)} = ${JSON.stringify(expect.statuses)}`);
    check((await text("#summary")).includes(`${expect.page_count}`), "the page count is shown");
  });

  await step("page", async () => {
    await page.waitForSelector("#reader article.page");
    const first = page.locator(`#reader article.page[data-page="${expect.heading.page}"]`);
    await first.waitFor();
    const heading = first.locator(`.markdown ${expect.heading.tag}`).filter({ hasText: expect.heading.text });
    check((await heading.count()) >= 1, `page ${expect.heading.page} shows <${expect.heading.tag}>${expect.heading.text}`);
    check((await page.locator("#reader script, #reader img, #reader a[href]").count()) === 0, "no markup from the PDF");
    await first.scrollIntoViewIfNeeded();
  });

  await step("more", async () => {
    const before = await count("#reader article.page");
    const last = await page.locator("#reader article.page").last().getAttribute("data-page");
    check(await page.locator("#reader-more").isVisible(), "a long document has More");
    await page.click("#reader-more");
    await page.waitForFunction((n) => document.querySelectorAll("#reader article.page").length > n, before);
    const next = await page.locator("#reader article.page").nth(before).getAttribute("data-page");
    check(Number(next) >= Number(last), `More continues after page ${last} (got ${next})`);
    report.pages_after_more = await count("#reader article.page");
  });

  await step("toc", async () => {
    await page.click("[data-tab=toc]");
    await page.waitForSelector("#toc li");
    const titles = await page.locator("#toc li .section-link").allInnerTexts();
    check(JSON.stringify(titles.slice(0, expect.toc.length)) === JSON.stringify(expect.toc), `TOC starts ${JSON.stringify(expect.toc)} (got ${JSON.stringify(titles.slice(0, 5))})`);
    if (expect.toc_more) {
      await page.click("#toc-more");
      await page.waitForFunction((n) => document.querySelectorAll("#toc li").length > n, titles.length);
    }
    report.toc_entries = await count("#toc li");
  });

  await step("section", async () => {
    await page.locator("#toc li .section-link").filter({ hasText: expect.section.title }).first().click();
    await page.waitForSelector("#reader article.section-part");
    check((await text("#reader-title")).includes(expect.section.title), "the reader names the section");
    check((await text("#reader article.section-part")).includes(expect.section.contains), `the section shows "${expect.section.contains}"`);
  });

  await step("search", async () => {
    await page.click("[data-tab=search]");
    await page.fill("#query", expect.search.query);
    await page.click("#search-form button[type=submit]");
    await page.waitForSelector("#results li.result");
    const hit = page.locator("#results li.result").first();
    check((await hit.getAttribute("data-page")) === String(expect.search.page), `first hit on page ${expect.search.page}`);
    check((await hit.locator(".page-link").innerText()).startsWith(`p. ${expect.search.page}`), "the hit shows its page number");
    check((await hit.locator("mark").count()) === 1, "the match is in a <mark>");
    const marked = await hit.locator("mark").innerText();
    check(marked.toLowerCase() === expect.search.query.toLowerCase(), `the match is highlighted (${marked})`);
    check((await text("#coverage")).includes("coverage complete") === expect.search.complete, "coverage is shown");
  });

  await step("hit-page", async () => {
    await page.locator("#results li.result .page-link").first().click();
    await page.waitForSelector(`#reader article.page[data-page="${expect.search.page}"]`);
  });

  await step("inspect", async () => {
    const article = page.locator(`#reader article.page[data-page="${expect.search.page}"]`).first();
    await article.locator(".inspect-toggle").click();
    await article.locator(".inspect figcaption").waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll("#reader .inspect img")].some((img) => img.complete && img.naturalWidth > 0));
    const caption = await article.locator(".inspect figcaption").innerText();
    check(caption.startsWith(`${expect.inspect.blocks} blocks`), `the layout of page ${expect.search.page} is drawn (${caption})`);
  });

  await step("images", async () => {
    await page.click("[data-tab=images]");
    await page.waitForSelector("#images li.image");
    check((await count("#images li.image")) >= 1, "images are listed");
    await page.waitForFunction(() => [...document.querySelectorAll("#images img")].some((img) => img.complete && img.naturalWidth > 0));
    report.images_shown = await page.locator("#images img").count();
  });

  if (expect.encrypted) {
    await step("password", async () => {
      await dropFile(expect.encrypted.file);
      await page.waitForSelector("#password-form:not([hidden])");
      await page.fill("#password", expect.encrypted.password);
      await page.click("#password-form button");
      await page.waitForFunction((t) => document.querySelector("#doc-title")?.textContent === t && !document.querySelector("#document").hidden, expect.encrypted.title);
    });
  }

  if (expect.aes) {
    await step("aes", async () => {
      await page.setInputFiles("#file", expect.aes.file);
      await page.waitForSelector("#password-form:not([hidden])");
      await page.fill("#password", expect.aes.password);
      await page.click("#password-form button");
      await page.waitForFunction(() => document.querySelector("#status").textContent.includes("cryptography"));
      check((await text("#status")).includes("cryptography"), "AES without cryptography says why");
    });
  }
} catch (error) {
  report.failure = String(error?.message ?? error);
} finally {
  await browser.close();
  await writeFile(join(opts.artifacts, "report.json"), JSON.stringify(report, null, 2));
}

if (problems.length) report.failure ??= `${problems.length} console/page/network problem(s)`;
if (report.failure) {
  console.error(`FAILED: ${report.failure}`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`browser test passed: ${report.steps.map((s) => `${s.name} ${s.ms} ms`).join(", ")}`);
