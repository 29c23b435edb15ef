// Drive the built demo in headless Chromium (Debian's, through playwright-core): watch the
// progress bar move while Python starts, open a PDF with the keyboard through the hidden file
// input, then check the summary (one line, details on demand), a rendered page, "More" (the
// tabs stay on screen), the table of contents, search notes apart from results, a search hit
// (and "show on page": pdf.js draws the page, the hit's boxes highlighted over it), a quote
// verified (its verdict, and its page) and the images against what CPython's pdfthin answered
// for the same file (--expect, written by tests/test_browser.py); that the status line clears
// on each new action and shows a spinner while busy; then an encrypted file the empty password
// opens (no prompt), an RC4 file (password prompt, a wrong password, the right one; a hit in it
// drawn on its page, so pdf.js had the password) and an AES one chosen while the prompt is up
// (the prompt goes, the cryptography message comes). Fails on any console error, page
// error, failed request or request that leaves the page's origin. Screenshots and a report go
// to --artifacts.
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
// File dialogs are intercepted from the start (listening only when one is expected races
// with the key press that opens it).
const choosers = [];
page.on("filechooser", (chooser) => choosers.push(chooser));
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

/** "show on page" drew `expected.page` (its displayed size in points, `width` × `height`) into a
 *  canvas with ink on it, and a highlight over each of `expected.boxes` (points, top left of
 *  the displayed page) at the same scale, in the window, with ink under each: pdf.js drew the
 *  text where pdfthin says it is (on a rotated page too). */
async function checkPageView(view, expected) {
  const sheet = view.locator(`.sheet[data-page="${expected.page}"]`);
  await sheet.locator("canvas").waitFor();
  const drawn = await sheet.evaluate((node, boxes) => {
    const canvas = node.querySelector("canvas");
    const scale = Number(node.dataset.scale);
    const ratio = canvas.width / canvas.getBoundingClientRect().width; // device pixels per CSS pixel
    const context = canvas.getContext("2d");
    const inked = ({ data }) => {
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && Math.min(data[i], data[i + 1], data[i + 2]) < 160) n += 1;
      return n;
    };
    const under = boxes.map((b) => {
      const [x, y] = [Math.floor(b.x0 * scale * ratio), Math.floor(b.y0 * scale * ratio)];
      const [w, h] = [Math.ceil((b.x1 - b.x0) * scale * ratio), Math.ceil((b.y1 - b.y0) * scale * ratio)];
      return inked(context.getImageData(x, y, Math.max(1, w), Math.max(1, h)));
    });
    const rect = (n) => {
      const r = n.getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width, height: r.height };
    };
    return { scale, canvas: rect(canvas), ink: inked(context.getImageData(0, 0, canvas.width, canvas.height)), pixels: canvas.width * canvas.height, under, marks: [...node.querySelectorAll(".highlight")].map(rect), window: window.innerHeight };
  }, expected.boxes);
  const { scale, canvas, marks } = drawn;
  const near = (a, b) => Math.abs(a - b) <= 1;
  check(drawn.ink >= 100 && drawn.ink < drawn.pixels / 2, `page ${expected.page} is drawn (${drawn.ink} of ${drawn.pixels} pixels inked)`);
  check(scale > 0.3 && near(canvas.width, expected.width * scale) && near(canvas.height, expected.height * scale), `the page is ${expected.width}×${expected.height} pt at scale ${scale} (${canvas.width}×${canvas.height} px)`);
  check(marks.length === expected.boxes.length, `${expected.boxes.length} highlight(s) on page ${expected.page} (got ${marks.length})`);
  expected.boxes.forEach((box, i) => {
    const mark = marks[i];
    const want = { left: box.x0 * scale, top: box.y0 * scale, width: (box.x1 - box.x0) * scale, height: (box.y1 - box.y0) * scale };
    const got = { left: mark.left - canvas.left, top: mark.top - canvas.top, width: mark.width, height: mark.height };
    check(Object.keys(want).every((k) => near(got[k], want[k])), `highlight ${i} at ${JSON.stringify(want)} (got ${JSON.stringify(got)})`);
  });
  check(drawn.under.every((n) => n >= 20), `ink under each highlight (${JSON.stringify(drawn.under)} pixels)`);
  check(marks[0].top >= 0 && marks[0].top + marks[0].height <= drawn.window, `the highlight is scrolled into view (top ${Math.round(marks[0].top)} px)`);
  return drawn;
}

const text = (selector) => page.locator(selector).first().innerText();
const count = (selector) => page.locator(selector).count();
const statusText = () => page.locator("#status").textContent();

// Every value the runtime's progress bar takes, with the phase it was in.
await page.addInitScript(() => {
  window.progressSeen = [];
  document.addEventListener("DOMContentLoaded", () => {
    const bar = document.getElementById("runtime-progress");
    const runtime = document.getElementById("runtime");
    const note = () => window.progressSeen.push({ value: bar.value, stage: runtime.dataset.stage });
    new MutationObserver(note).observe(bar, { attributes: true, attributeFilter: ["value"] });
  });
});

try {
  await step("ready", async () => {
    await page.goto(opts.url);
    await page.waitForSelector("#runtime[data-state=ready]");
    report.runtime = await text("#runtime-message");
    const seen = await page.evaluate(() => window.progressSeen);
    report.progress = seen.length;
    check(seen.every((s, i) => i === 0 || s.value >= seen[i - 1].value), `the progress bar never goes back (${JSON.stringify(seen.map((s) => s.value))})`);
    for (const stage of ["runtime", "wheels", "import"]) check(seen.some((s) => s.stage === stage), `the progress bar shows the ${stage} phase`);
    const duringRuntime = new Set(seen.filter((s) => s.stage === "runtime").map((s) => s.value));
    check(duringRuntime.size >= 4, `the bar moves while Pyodide loads (${duringRuntime.size} values)`);
    check(seen.at(-1).value === 1, "the bar ends full");
  });

  await step("file-input", async () => {
    // The native input is out of sight but in the tab order; its label is the visible button.
    const input = await page.evaluate(() => {
      const node = document.getElementById("file");
      const style = getComputedStyle(node);
      const box = node.getBoundingClientRect();
      return { width: box.width, height: box.height, display: style.display, visibility: style.visibility };
    });
    check(input.width <= 1 && input.height <= 1, `the file input is visually hidden (${input.width}×${input.height})`);
    check(input.display !== "none" && input.visibility !== "hidden", "the file input stays focusable");
    check(await page.locator("label.file-button[for=file]").isVisible(), "a button-like label opens it");
    await page.locator("h1").click();
    for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.id)) !== "file"; i += 1) await page.keyboard.press("Tab");
    check((await page.evaluate(() => document.activeElement?.id)) === "file", "Tab reaches the file input");
    const outline = await page.locator("label.file-button").evaluate((node) => getComputedStyle(node).outlineStyle);
    check(outline !== "none", `the focused input shows on its label (outline ${outline})`);
  });

  await step("summary", async () => {
    // While the document is read, the status line turns a CSS spinner (no emoji).
    const spinning = page.waitForFunction(() => {
      const status = document.getElementById("status");
      const before = getComputedStyle(status, "::before");
      return status.dataset.kind === "busy" && before.animationName === "pdfthin-spin" && !/\p{Extended_Pictographic}/u.test(before.content);
    }, null, { polling: 50, timeout: 60_000 });
    spinning.catch(() => {}); // awaited below, after the file is chosen
    await page.keyboard.press("Space");
    for (let waited = 0; !choosers.length && waited < 20_000; waited += 100) await page.waitForTimeout(100);
    check(choosers.length === 1, "Space on the focused input opens the file dialog");
    await choosers[0].setFiles(expect.file);
    await spinning;
    await page.waitForSelector("#doc-title");
    check((await text("#doc-title")) === expect.title, `title is ${expect.title}`);
    const statuses = await page.locator("#page-statuses .chip").allInnerTexts();
    check(JSON.stringify(statuses) === JSON.stringify(expect.statuses), `page statuses ${JSON.stringify(statuses)} = ${JSON.stringify(expect.statuses)}`);
    check((await text("#summary")).includes(`${expect.page_count} pages`), "the page count is shown");
  });

  await step("summary-details", async () => {
    // One line until asked: the reader starts on screen.
    check(!(await page.locator("#summary").evaluate((node) => node.open)), "the summary starts closed");
    check(!(await page.locator("#summary .facts").isVisible()), "the facts are hidden while it is closed");
    await page.waitForSelector("#reader article.page");
    const top = await page.locator("#reader article.page").first().evaluate((node) => node.getBoundingClientRect().top);
    check(top < 900 * 0.6, `the first page starts in the upper part of the window (at ${Math.round(top)} px)`);
    await page.click("#summary > summary");
    check(await page.locator("#summary .facts").isVisible(), "the facts open");
    check((await text("#summary .facts")).includes("Estimated tokens"), "the facts list the estimated tokens");
    await page.click("#summary > summary");
    check(!(await page.locator("#summary .facts").isVisible()), "and close again");
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
    // Far down the pages, the tabs are still at the top of the window.
    await page.locator("#reader article.page").last().scrollIntoViewIfNeeded();
    const tabs = await page.evaluate(() => ({ top: document.querySelector(".tabs").getBoundingClientRect().top, scrolled: window.scrollY }));
    check(tabs.scrolled > 1000 && Math.abs(tabs.top) <= 1, `the tabs stay on screen (top ${tabs.top} px, scrolled ${tabs.scrolled} px)`);
  });

  await step("toc", async () => {
    check((await statusText()).includes("summary in"), "the status still tells how long the document took");
    await page.click("[data-tab=toc]");
    check((await statusText()) === "", "a new tab clears the status line");
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

  await step("search-notes", async () => {
    await page.click("[data-tab=search]");
    // A query pdfthin refuses: its error is in the status line ...
    await page.fill("#query", "a\u0007b");
    await page.click("#search-form button[type=submit]");
    await page.waitForFunction(() => document.getElementById("status").dataset.kind === "error");
    check((await statusText()).includes("invalid_argument"), "a refused query says why");
    // ... until the next search, which finds nothing: said as a note, not as a result.
    await page.fill("#query", expect.search.absent);
    await page.click("#search-form button[type=submit]");
    await page.waitForSelector("#search-notes .note");
    check((await statusText()) === "", "a new search clears the status line");
    check((await count("#results li")) === 0, "a note is not a result item");
    // (Coverage warnings come first when some pages could not be searched.)
    const said = await page.locator("#search-notes .note").allInnerTexts();
    check(said.some((note) => note.includes(expect.search.absent)), `a note names the query (${JSON.stringify(said)})`);
    const looks = await page.evaluate(() => {
      const note = getComputedStyle(document.querySelector("#search-notes .note"));
      return { style: note.fontStyle, border: note.borderLeftStyle };
    });
    check(looks.style === "italic" && looks.border === "solid", `notes look like notes (${JSON.stringify(looks)})`);
  });

  await step("search", async () => {
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
    const notes = await page.locator("#search-notes .note").allInnerTexts();
    check(!notes.some((note) => note.includes(expect.search.absent)), "the note of the search before is gone");
    if (expect.search.complete) check(notes.length === 0, "a complete search with matches has no note");
  });

  await step("highlight", async () => {
    const hit = page.locator("#results li.result").first();
    await hit.locator(".show-on-page").click();
    report.highlight = await checkPageView(hit.locator(".pageview"), expect.highlight);
    check((await hit.locator(".show-on-page").getAttribute("aria-expanded")) === "true", "the button says the page is shown");
  });

  await step("verify", async () => {
    await page.fill("#quote", expect.verify.quote);
    await page.fill("#quote-page", String(expect.verify.cited));
    await page.click("#verify-form button[type=submit]");
    const verdict = page.locator("#verdict [data-result]");
    await verdict.waitFor();
    check((await verdict.getAttribute("data-result")) === expect.verify.result, `the verdict is ${expect.verify.result} (got ${await verdict.getAttribute("data-result")})`);
    check((await text("#verdict")).includes(`page ${expect.verify.on_page.page}`), "the verdict names the page the quote is on");
    await page.locator("#verdict .show-on-page").click();
    await checkPageView(page.locator("#verdict .pageview"), expect.verify.on_page);
    check((await count(".pageview")) === 1, "one page view at a time: the hit's went");
    check((await page.locator("#results .show-on-page[aria-expanded=true]").count()) === 0, "the hit's button says so");
    // Pressed again, the page goes; once more, it comes back.
    await page.locator("#verdict .show-on-page").click();
    check((await count(".pageview")) === 0, "pressed again, the page goes");
    await page.locator("#verdict .show-on-page").click();
    await checkPageView(page.locator("#verdict .pageview"), expect.verify.on_page);
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

  await step("figure", async () => {
    // From the images list to the page: the reference stands in the text as a placeholder,
    // and shows the picture when asked.
    const { id, page: number } = expect.figure;
    await page.locator(`#images li.image[data-image="${id}"] .page-link`).click();
    const figure = page.locator(`#reader article.page[data-page="${number}"] .figure[data-image="${id}"]`);
    await figure.waitFor();
    check((await figure.innerText()).includes(`image ${id}`), `page ${number} shows the reference to ${id}`);
    check((await figure.locator("img").count()) === 0, "the picture is not fetched before it is asked for");
    await figure.locator("button").click();
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].some((img) => img.complete && img.naturalWidth > 0), `#reader .figure[data-image="${id}"] img`);
  });

  await step("empty-password", async () => {
    // Encrypted, but the empty user password opens it: no prompt.
    await page.setInputFiles("#file", expect.empty_password.file);
    await page.waitForFunction((t) => document.querySelector("#doc-title")?.textContent === t && !document.querySelector("#document").hidden, expect.empty_password.title);
    check(await page.locator("#password-form").isHidden(), "no password is asked");
    await page.click("#summary > summary");
    check((await text("#summary .facts")).includes("Encrypted"), "the summary says it is encrypted");
  });

  await step("coverage-notes", async () => {
    // Page 2 is a scan: the search says it could not search it, as notes, not as results.
    await page.click("[data-tab=search]");
    await page.fill("#query", expect.empty_password.query);
    await page.click("#search-form button[type=submit]");
    await page.waitForSelector("#search-notes .note.warning");
    const notes = (await page.locator("#search-notes .note").allInnerTexts()).join(" | ");
    check(notes.includes(`pages ${expect.empty_password.pages_needing_ocr}`), `the notes name the pages not searched (${notes})`);
    if (expect.empty_password.matches === 0) check(notes.includes(`No match for “${expect.empty_password.query}” in the pages that could be searched`), "the note says nothing was found where it could search");
    check((await count("#results li")) === expect.empty_password.matches, "notes are not result items");
    check((await text("#coverage")).includes("incomplete"), "the coverage line says incomplete");
  });

  await step("rotated", async () => {
    // One page for each /Rotate (90, 180, 270, 0): the highlight lies on the drawn text.
    await page.setInputFiles("#file", expect.rotated.file);
    await page.waitForFunction((t) => document.querySelector("#doc-title")?.textContent === t && !document.querySelector("#document").hidden, expect.rotated.title);
    await page.click("[data-tab=search]");
    await page.fill("#query", expect.rotated.query);
    await page.click("#search-form button[type=submit]");
    await page.waitForFunction((n) => document.querySelectorAll("#results li.result").length === n, expect.rotated.hits.length);
    report.rotated = [];
    for (const [i, hit] of expect.rotated.hits.entries()) {
      const item = page.locator("#results li.result").nth(i);
      await item.locator(".show-on-page").click();
      const drawn = await checkPageView(item.locator(".pageview"), hit);
      report.rotated.push({ page: hit.page, rotation: hit.rotation, canvas: drawn.canvas, under: drawn.under });
    }
  });

  await step("password", async () => {
    await dropFile(expect.encrypted.file);
    await page.waitForSelector("#password-form:not([hidden])");
    check((await statusText()).includes("needs a password"), "the status says a password is needed");
    await page.fill("#password", "not-the-password");
    await page.click("#password-form button");
    await page.waitForFunction(() => document.querySelector("#status").textContent.includes("wrong"));
    check(await page.locator("#password-form").isVisible(), "a wrong password asks again");
    await page.fill("#password", expect.encrypted.password);
    await page.click("#password-form button");
    await page.waitForFunction((t) => document.querySelector("#doc-title")?.textContent === t && !document.querySelector("#document").hidden, expect.encrypted.title);
    check(await page.locator("#password-form").isHidden(), "the prompt goes once the file opens");
  });

  await step("password-page", async () => {
    // pdf.js opens the encrypted file with the password the user typed.
    await page.click("[data-tab=search]");
    check((await count("#verdict *")) === 0, "the verdict of the file before is gone");
    await page.fill("#query", expect.encrypted.query);
    await page.click("#search-form button[type=submit]");
    const hit = page.locator("#results li.result").first();
    await hit.waitFor();
    await hit.locator(".show-on-page").click();
    await checkPageView(hit.locator(".pageview"), expect.encrypted.on_page);
  });

  await step("aes", async () => {
    // The prompt is up for the RC4 file when an AES one is chosen: the prompt goes, and the
    // AES file is never asked a password (even the right one could not open it here).
    await dropFile(expect.encrypted.file);
    await page.waitForSelector("#password-form:not([hidden])");
    // Whether the prompt shows, at each change of the status line from here on.
    await page.evaluate(() => {
      const status = document.getElementById("status");
      window.statusSeen = [];
      const note = () => window.statusSeen.push({ text: status.textContent, prompt: !document.getElementById("password-form").hidden });
      new MutationObserver(note).observe(status, { childList: true, characterData: true, subtree: true });
    });
    await page.setInputFiles("#file", expect.aes.file);
    await page.waitForFunction(() => document.querySelector("#status").textContent.includes("cryptography"));
    const seen = await page.evaluate(() => window.statusSeen);
    check(seen.length > 0 && seen.every((s) => !s.prompt), `the prompt goes as soon as another file is chosen (${JSON.stringify(seen)})`);
    check(await page.locator("#password-form").isHidden(), "the prompt of the file before is gone, and AES asks none");
    check(!(await statusText()).includes("needs a password"), "the status line is the new file's");
  });
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
