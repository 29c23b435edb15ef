// The page: open or drop a PDF, hand its bytes to the worker, show what pdfthin answers.
// Everything from the PDF is put in the page as text nodes (or through markdown.js, which
// escapes it): never as markup.
import { renderMarkdown } from "./markdown.js";
import { PageSource, pageViewError, showPassage } from "./pageview.js";

const $ = (id) => document.getElementById(id);

/** A DOM element; string children become text nodes. */
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  return fill(node, children, true);
}

/** Replace (or, with `append`, extend) `node`'s children; nested arrays are flattened, null and
 *  false left out, strings become text nodes. */
function fill(node, children, append = false) {
  const nodes = [children].flat(Infinity).filter((c) => c != null && c !== false).map((c) => (c instanceof Node ? c : String(c)));
  if (append) node.append(...nodes);
  else node.replaceChildren(...nodes);
  return node;
}

const READ_BUDGET = 20_000; // characters per response: "More" follows the cursor
const LIST_BUDGET = 8_000;
const INSPECT_BUDGET = 400_000; // one page's layout picture: its SVG holds a box per run
const AUTO_THUMBNAILS = 24;

// --- the worker -------------------------------------------------------------------------

/** The time limits of a page address's query, as the worker's query ("" when none). */
function limitsQuery(search) {
  const given = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of ["page_seconds", "document_seconds"]) {
    if (given.has(name)) kept.set(name, given.get(name));
  }
  const query = kept.toString();
  return query ? `?${query}` : "";
}

// The page's address may carry time limits for the worker (?page_seconds=60&document_seconds=600):
// a tab can afford to wait longer than the defaults, meant for an agent's server, allow.
const worker = new Worker(new URL(`./worker.js${limitsQuery(location.search)}`, import.meta.url), { type: "module" });
const pending = new Map();
let nextId = 1;

class PdfError extends Error {
  constructor({ code, message, details }) {
    super(message);
    this.code = code;
    this.details = details ?? {};
  }
}

function request(message, transfer = []) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ ...message, id }, transfer);
  });
}

worker.onmessage = ({ data }) => {
  if (data.id !== undefined) {
    const { resolve, reject } = pending.get(data.id);
    pending.delete(data.id);
    if ("failure" in data) reject(new Error(data.failure));
    else resolve(data.result);
    return;
  }
  switch (data.type) {
    case "progress":
      runtimeProgress(data);
      break;
    case "ready":
      runtimeReady(data);
      break;
    case "extract":
      setStatus(`Extracting page ${data.done} of ${data.total}…`, "busy");
      break;
    case "fatal":
      runtimeFailed(data.message);
      break;
  }
};
worker.onerror = (event) => runtimeFailed(event.message || "the worker could not start");

// --- runtime status ---------------------------------------------------------------------

// The worker reports each phase of starting (runtime, wheels, import) with the fraction it
// starts at and the one the next starts at (`until`); nothing inside loadPyodide reports how
// far it is, so the bar creeps toward `until` meanwhile, slower as it nears it, never back.
const startedAt = performance.now();
let progressTarget = 0;
const ticker = setInterval(() => {
  $("runtime-elapsed").textContent = `${((performance.now() - startedAt) / 1000).toFixed(0)} s`;
  const bar = $("runtime-progress");
  const step = (progressTarget - bar.value) * 0.06;
  if (step > 0.001) bar.value = Math.min(progressTarget, bar.value + step);
}, 150);
function runtimeProgress({ stage, message, fraction, until }) {
  const bar = $("runtime-progress");
  bar.value = Math.max(bar.value, fraction);
  progressTarget = Math.max(fraction, until ?? fraction);
  $("runtime").dataset.stage = stage;
  $("runtime-message").textContent = message;
}
function runtimeReady({ versions, timings }) {
  clearInterval(ticker);
  $("runtime").dataset.stage = "ready";
  $("runtime-elapsed").textContent = "";
  const runtime = $("runtime");
  runtime.dataset.state = "ready";
  $("runtime-progress").value = 1;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  $("runtime-message").textContent = `Ready in ${seconds} s — Python ${versions.python} (Pyodide ${versions.pyodide}), pdfthin ${versions.pdfthin}, pypdf ${versions.pypdf}`;
  runtime.title = Object.entries(timings).map(([k, v]) => `${k}: ${v}`).join(", ");
  $("versions").textContent = `pdfthin ${versions.pdfthin} · pypdf ${versions.pypdf} · Pyodide ${versions.pyodide} · nothing leaves this tab`;
}
function runtimeFailed(message) {
  clearInterval(ticker);
  $("runtime").dataset.state = "failed";
  $("runtime-message").textContent = `Python could not start: ${message}`;
}

// The status line says what is going on (kind "busy", with a spinner) or how the last action
// ended; a busy line gives way to that again when its request is done.
let resting = { text: "", kind: "" };
function setStatus(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.dataset.kind = kind;
  if (kind !== "busy") resting = { text, kind };
}

/** A new action (a file chosen, a search, a tab): what the status said belongs to the last one. */
function clearStatus() {
  setStatus("");
}

/** A request done: a busy line it left (Extracting page N of M…) is over. */
function settleStatus() {
  if ($("status").dataset.kind === "busy") setStatus(resting.text, resting.kind);
}

// --- the open document ------------------------------------------------------------------

let doc = null; // {handle, name, password, describe, bytes, pages}
let objectUrls = [];

async function call(op, args = {}) {
  const full = { ...args };
  if (doc.password) full.password = doc.password;
  const started = performance.now();
  const result = await request({ type: "call", op, handle: doc.handle, args: full });
  if (result?.error) throw new PdfError(result.error);
  result.elapsed_ms = Math.round(performance.now() - started);
  return result;
}

async function openFile(file) {
  if (!file) return;
  $("password-form").hidden = true; // it belonged to the file before
  $("password").value = "";
  clearStatus();
  setStatus(`Reading ${file.name}…`, "busy");
  const buffer = await file.arrayBuffer();
  // The page keeps a copy for pdf.js (showing a passage on its page): the original is
  // transferred to the worker, which leaves it detached here.
  const bytes = buffer.slice(0);
  if (doc) await request({ type: "close", handle: doc.handle });
  doc?.pages?.destroy();
  for (const url of objectUrls) URL.revokeObjectURL(url);
  objectUrls = [];
  $("document").hidden = true;
  if (!$("file").files?.[0] || $("file").files[0] !== file) $("file").value = ""; // dropped: not the input's file
  const { handle } = await request({ type: "open", buffer }, [buffer]);
  doc = { handle, name: file.name, password: null, bytes, pages: null };
  await showDocument();
}

async function showDocument() {
  // The first pages first: pdfthin reads pages when they are asked for, and the summary
  // (page statuses, token estimates) then covers the pages read so far, saying which.
  clearStatus();
  setStatus(`Reading ${doc.name}…`, "busy");
  const started = performance.now();
  $("summary").open = false;
  $("summary").replaceChildren(el("summary", {}, el("h2", { id: "doc-title-pending" }, doc.name)));
  $("summary-warnings").replaceChildren();
  $("search-notes").replaceChildren();
  $("pages-spec").value = "";
  $("results").replaceChildren();
  $("coverage").textContent = "";
  $("results-more").hidden = true;
  $("verdict").replaceChildren();
  selectTab("pages");
  const first = await reader.read("read", {}, "All pages");
  if (first?.error) {
    const error = first.error;
    // pdfthin tried the empty password already: a password is asked for only when the file
    // refused it (password_given false) or the one given (true). An AES file that Pyodide
    // cannot decrypt says so at once (needs: cryptography), with no prompt.
    if (error.code === "encrypted" && "password_given" in error.details) {
      $("password-form").hidden = false;
      $("password").select();
      $("password").focus();
    } else {
      $("password-form").hidden = true;
    }
    return showError(error);
  }
  $("password-form").hidden = true;
  $("document").hidden = false;
  setStatus(`${doc.name}: first pages in ${Math.round(performance.now() - started)} ms; summarising…`, "busy");
  let describe;
  try {
    describe = await call("describe");
  } catch (error) {
    return showError(error);
  }
  doc.describe = describe;
  setStatus(`${doc.name}: first pages in ${first.elapsed_ms} ms, summary in ${Math.round(performance.now() - started)} ms`, "done");
  renderSummary(describe);
  await toc.load();
  images.reset();
}

function showError(error) {
  const code = error.code ? `${error.code}: ` : "";
  setStatus(`${code}${error.message}`, "error");
}

// --- summary ----------------------------------------------------------------------------

const STATUS_LABELS = { text: "text", empty: "empty", needs_ocr: "needs OCR", ocr: "OCR", not_read: "not read yet" };

function renderSummary(d) {
  const meta = d.metadata ?? {};
  const chips = Object.entries(d.pages)
    .filter(([status]) => status in STATUS_LABELS)
    .map(([status, pages]) => el("span", { class: `chip status-${status}`, "data-status": status }, `${STATUS_LABELS[status]}: ${pages}`));
  const reasons = d.pages.needs_ocr_reasons
    ? el("p", { class: "muted" }, "Needs OCR because: ", Object.entries(d.pages.needs_ocr_reasons).map(([why, pages]) => `${why.replaceAll("_", " ")} (${pages})`).join("; "))
    : null;
  const facts = [
    ["Pages", d.document.page_count],
    ["Type", d.type],
    ["Estimated tokens", `${d.estimated_tokens.total.toLocaleString()} (≈ ${d.estimated_tokens.per_page_mean} per page${d.read.complete ? "" : `, from the ${d.read.count} pages read so far`})`],
    ["Outline", d.has_outline ? "yes" : "no"],
    ["Author", meta.author],
    ["Producer", meta.producer],
    ["Created", meta.created],
    ["PDF version", meta.pdf_version],
    ["Encrypted", meta.encrypted ? "yes" : null],
    ["Page labels", d.page_labels ? `${d.page_labels.first} … ${d.page_labels.last}` : null],
  ].filter(([, value]) => value != null && value !== "");
  // One line while closed (title, pages, statuses); the facts open under it. Warnings stay
  // in sight outside it.
  const pageCount = d.document.page_count;
  fill($("summary"), [
    el(
      "summary",
      {},
      el("h2", { id: "doc-title" }, meta.title || doc.name),
      el("span", { class: "muted" }, `${pageCount} page${pageCount === 1 ? "" : "s"}`),
      el("span", { id: "page-statuses", class: "chips" }, chips),
      el("span", { class: "muted hint" }, "details"),
    ),
    reasons,
    el("dl", { class: "facts" }, facts.map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])),
  ]);
  fill($("summary-warnings"), [
    d.hidden_text ? el("p", { class: "warning" }, `Hidden text withheld on pages ${d.hidden_text.pages} (${d.hidden_text.runs} runs): ${d.hidden_text.message}.`) : null,
    d.recovered ? el("p", { class: "warning" }, `Recovered: ${d.recovered}`) : null,
    d.unreadable ? el("p", { class: "warning unreadable" }, d.unreadable.message) : null,
  ]);
}

// --- tabs -------------------------------------------------------------------------------

function selectTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  }
  for (const panel of document.querySelectorAll(".tab")) panel.hidden = panel.id !== `tab-${name}`;
  if (name === "images") images.load();
}

// --- a list that "More" continues through its cursor ------------------------------------

/** Runs `op` with `args`, renders each response with `render`, and shows the More button
 *  while the response has a next_cursor. */
function paged(moreButton, render) {
  let state = null;
  const run = async () => {
    const { op, args, cursor, generation } = state;
    moreButton.disabled = true;
    try {
      const response = await call(op, cursor ? { ...args, cursor } : args);
      if (generation !== state.generation) return null; // a newer request replaced this one
      render(response);
      settleStatus();
      state.cursor = response.next_cursor;
      moreButton.hidden = !state.cursor;
      return response;
    } catch (error) {
      showError(error);
      return { error };
    } finally {
      moreButton.disabled = false;
    }
  };
  moreButton.addEventListener("click", run);
  return {
    start(op, args) {
      state = { op, args, cursor: null, generation: (state?.generation ?? 0) + 1 };
      moreButton.hidden = true;
      return run();
    },
  };
}

// --- reader: pages and sections ---------------------------------------------------------

const reader = (() => {
  const container = $("reader");
  const list = paged($("reader-more"), (response) => {
    if (response.pages) {
      for (const page of response.pages) container.append(pageArticle(page));
    } else if (response.section) {
      const first = !response.part || response.part.start === 0;
      if (first && response.unreadable) container.append(el("p", { class: "warning unreadable" }, response.unreadable.message));
      const part = el("article", { class: "page section-part" });
      renderMarkdown(part, response.markdown ?? "", figureButton);
      container.append(part);
    }
    if (response.omitted) container.append(el("p", { class: "omitted muted" }, response.omitted.message));
  });
  return {
    read(op, args, title) {
      container.replaceChildren();
      $("reader-title").textContent = title;
      return list.start(op, { max_chars: READ_BUDGET, ...args });
    },
  };
})();

function pageArticle(page) {
  const continued = page.part && page.part.start > 0;
  const heading = el(
    "header",
    {},
    el("strong", {}, `Page ${page.page}`, page.page_label ? ` (${page.page_label})` : "", continued ? " — continued" : ""),
    " ",
    el("span", { class: `chip status-${page.status}` }, STATUS_LABELS[page.status] ?? page.status),
    page.reason ? el("span", { class: "muted" }, ` ${page.reason}`) : null,
    " ",
    el("button", { type: "button", class: "inspect-toggle", onclick: (event) => toggleInspect(event.target.closest("article"), page.page) }, "Inspect layout"),
  );
  const body = el("div", { class: "page-body" });
  if (page.markdown) renderMarkdown(body, page.markdown, figureButton);
  else body.append(el("p", { class: "muted" }, page.status === "empty" ? "(nothing is drawn on this page)" : "(no text)"));
  const hidden = page.hidden_text
    ? el("p", { class: "warning" }, `${page.hidden_text.runs} hidden text run(s) withheld (${Object.entries(page.hidden_text.reasons ?? {}).map(([why, n]) => `${why}: ${n}`).join(", ")})`)
    : null;
  return el("article", { class: "page", "data-page": page.page }, heading, body, hidden);
}

// What the layout decided on the page, drawn (inspect_layout's SVG, shown as an image: the
// page's own text never becomes markup here).
async function toggleInspect(article, number) {
  const shown = article.querySelector(".inspect");
  if (shown) {
    URL.revokeObjectURL(shown.querySelector("img")?.src ?? "");
    shown.remove();
    return;
  }
  const figure = el("figure", { class: "inspect" }, el("span", { class: "muted" }, "inspecting…"));
  article.querySelector("header").after(figure);
  try {
    const r = await call("inspect", { page: number, max_chars: INSPECT_BUDGET });
    const c = r.counts;
    const caption = el(
      "figcaption",
      { class: "muted" },
      `${c.blocks} blocks in reading order (numbered), ${c.lines} lines, ${c.runs} runs, ${c.furniture} header/footer left out, ${c.gutters} gutters, ${c.hidden} hidden text piece(s)`,
      r.omitted ? el("span", { class: "warning" }, ` — ${r.omitted.message}`) : null,
    );
    const picture = r.svg
      ? el("img", { src: URL.createObjectURL(new Blob([r.svg], { type: "image/svg+xml" })), alt: `Layout of page ${number}` })
      : null;
    fill(figure, [picture, caption]);
  } catch (error) {
    fill(figure, [el("span", { class: "warning" }, error.message ?? String(error))]);
  }
}

$("pages-form").addEventListener("submit", (event) => {
  event.preventDefault();
  clearStatus();
  const spec = $("pages-spec").value.trim();
  reader.read("read", spec ? { pages: spec } : {}, spec ? `Pages ${spec}` : "All pages");
});

function openPage(page) {
  $("pages-spec").value = String(page);
  selectTab("pages");
  return reader.read("read", { pages: String(page) }, `Page ${page}`);
}

// --- table of contents ------------------------------------------------------------------

const toc = (() => {
  const container = $("toc");
  const list = paged($("toc-more"), (response) => {
    $("toc-source").textContent =
      response.total_sections === 0
        ? "No sections: the PDF has no outline and no headings were found."
        : `${response.total_sections} sections, from the ${response.source === "outline" ? "PDF's outline" : "headings on the pages"}. Choose one to read it.`;
    if (response.unreadable) $("toc-source").textContent += ` Pages ${response.unreadable.pages} could not be read, so headings there are unknown.`;
    for (const section of response.sections) {
      const pages = section.page == null ? "" : section.end_page && section.end_page !== section.page ? `pp. ${section.page}–${section.end_page}` : `p. ${section.page}`;
      const item = el(
        "li",
        { class: `level-${Math.min(section.level, 6)}`, "data-section": section.id },
        el("button", { type: "button", class: "section-link", onclick: () => openSection(section) }, section.title || "(untitled)"),
        " ",
        el("span", { class: "muted" }, pages, section.images ? ` · ${section.images} image(s)` : ""),
        section.problem ? el("span", { class: "warning" }, ` ${section.problem}`) : null,
        section.unreadable ? el("span", { class: "warning" }, ` pages not read: ${section.unreadable}`) : null,
        section.preview ? el("div", { class: "preview muted" }, section.preview) : null,
      );
      container.append(item);
    }
  });
  return {
    load() {
      container.replaceChildren();
      return list.start("toc", { max_chars: LIST_BUDGET });
    },
  };
})();

function openSection(section) {
  clearStatus();
  selectTab("pages");
  return reader.read("section", { section: section.id }, `Section: ${section.title}`);
}

// --- search -----------------------------------------------------------------------------

/** The snippet with the match (between ** and **) in a <mark>. */
function snippetNode(snippet) {
  const node = el("span", { class: "snippet" });
  const start = snippet.indexOf("**");
  const end = start < 0 ? -1 : snippet.indexOf("**", start + 2);
  if (end < 0) {
    node.append(snippet);
    return node;
  }
  node.append(snippet.slice(0, start), el("mark", {}, snippet.slice(start + 2, end)), snippet.slice(end + 2));
  return node;
}

const search = (() => {
  const container = $("results");
  let count = 0;
  const notes = $("search-notes");
  const list = paged($("results-more"), (response) => {
    const coverage = response.coverage;
    const p = $("coverage");
    p.dataset.complete = String(coverage.complete);
    p.textContent = coverage.complete ? `Searched pages ${coverage.pages_searched}: coverage complete.` : "Coverage incomplete.";
    // What the search says about itself goes in the notes, apart from the results.
    const said = [];
    if (!coverage.complete) {
      said.push([coverage.message ?? "some pages were not searched", "warning"]);
      if (coverage.pages_needing_ocr) said.push([`Not searched (no readable text): pages ${coverage.pages_needing_ocr}.`, "warning"]);
      if (coverage.pages_not_yet_searched) said.push([`Not searched yet: pages ${coverage.pages_not_yet_searched} (More continues).`, "warning"]);
    }
    // The response's note is worded for agents (it names fields); the same said for people.
    if (response.note && count + response.matches.length === 0 && !coverage.complete) {
      said.push([`No match for “${query}” in the pages that could be searched; it may still be on the pages not searched.`, ""]);
    } else if (response.note) said.push([response.note, ""]);
    for (const match of response.matches) {
      count += 1;
      const where = match.end_page ? `pp. ${match.page}–${match.end_page}` : `p. ${match.page}`;
      container.append(
        el(
          "li",
          { class: "result", "data-page": match.page },
          el("button", { type: "button", class: "page-link", onclick: () => openPage(match.page) }, where, match.page_label ? ` (${match.page_label})` : ""),
          " ",
          snippetNode(match.snippet),
          " ",
          showOnPageButton(match),
        ),
      );
    }
    if (count === 0 && !response.note && !response.next_cursor) said.push([`No match for “${query}”.`, ""]);
    fill(notes, said.map(([text, kind]) => el("p", { class: kind ? `note ${kind}` : "note" }, text)));
  });
  let query = "";
  return {
    find(text, mode, caseSensitive) {
      container.replaceChildren();
      notes.replaceChildren();
      query = text;
      count = 0;
      return list.start("find", { query: text, match_mode: mode, case_sensitive: caseSensitive, max_results: 50, max_chars: LIST_BUDGET });
    },
  };
})();

$("search-form").addEventListener("submit", (event) => {
  event.preventDefault();
  clearStatus();
  setStatus("Searching…", "busy");
  search.find($("query").value, $("mode").value, $("case").checked);
});

// --- a passage on its page (pdf.js) ----------------------------------------------------

/** pdf.js's view of the open document, with the password the user typed (made again when
 *  that changes). */
function pageSource() {
  if (!doc.pages || doc.pages.password !== doc.password) {
    doc.pages?.destroy();
    doc.pages = new PageSource(doc.bytes, doc.password);
  }
  return doc.pages;
}

/** A "show on page" button for a passage ({page, bbox}): it draws the page under the item it
 *  stands in, with the passage highlighted; pressed again, it takes the page away. One page
 *  view is open at a time. */
function showOnPageButton(passage) {
  return el("button", { type: "button", class: "show-on-page", "aria-expanded": "false", onclick: (event) => togglePage(event.target, passage) }, "show on page");
}

async function togglePage(button, passage) {
  const item = button.parentElement;
  const open = item.querySelector(":scope > .pageview");
  for (const view of document.querySelectorAll(".pageview")) view.remove();
  for (const other of document.querySelectorAll(".show-on-page[aria-expanded=true]")) other.setAttribute("aria-expanded", "false");
  if (open) return;
  const pages = [...new Set((passage.bbox ?? []).map((box) => box.page))];
  const where = pages.length > 1 ? `Pages ${pages.join(" and ")}` : `Page ${pages[0] ?? passage.page}`;
  const sheets = el("div", { class: "sheets" }, el("span", { class: "muted" }, "drawing the page…"));
  const view = el(
    "figure",
    { class: "pageview", "data-page": pages[0] ?? passage.page },
    el("figcaption", { class: "muted" }, `${where} as pdf.js draws it, the passage's lines highlighted where pdfthin found them.`),
    sheets,
  );
  item.append(view);
  button.setAttribute("aria-expanded", "true");
  try {
    await showPassage(sheets, pageSource(), passage);
  } catch (error) {
    fill(sheets, [el("span", { class: "warning" }, pageViewError(error))]);
  }
}

// --- verifying a quote ------------------------------------------------------------------

const VERDICTS = {
  exact: "found as given",
  normalized: "found, once normalised",
  fuzzy: "only a similar passage",
  other_page: "found on another page",
  not_found: "not in the document",
  unverifiable: "could not be checked",
};

function renderVerdict(v) {
  const match = v.match;
  const found = match
    ? el(
        "p",
        { class: "verdict-match" },
        el("span", { class: "muted" }, match.end_page ? `pp. ${match.page}–${match.end_page}: ` : `p. ${match.page}: `),
        el("q", {}, match.text),
        match.similarity != null ? el("span", { class: "muted" }, ` (similarity ${match.similarity})`) : null,
        " ",
        match.bbox?.length ? showOnPageButton(match) : null,
      )
    : null;
  fill($("verdict"), [
    el("p", {}, el("span", { class: `chip verdict-${v.result}`, "data-result": v.result }, VERDICTS[v.result] ?? v.result), " ", v.message),
    found,
    v.coverage && !v.coverage.complete && v.coverage.pages_needing_ocr ? el("p", { class: "note warning" }, `Pages not read (no text): ${v.coverage.pages_needing_ocr}.`) : null,
  ]);
}

$("verify-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearStatus();
  setStatus("Verifying…", "busy");
  $("verdict").replaceChildren();
  const page = $("quote-page").value.trim();
  try {
    const v = await call("verify", { quote: $("quote").value, ...(page ? { page: Number(page) } : {}), ignore_case: $("quote-case").checked });
    renderVerdict(v);
    settleStatus();
  } catch (error) {
    showError(error);
  }
});

// --- images -----------------------------------------------------------------------------

const DISPLAYABLE = new Set(["image/png", "image/jpeg"]);

function base64Blob(data, type) {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

async function showImage(card, id) {
  const slot = card.querySelector(".thumb");
  slot.replaceChildren(el("span", { class: "muted" }, "loading…"));
  try {
    const image = await call("image", { image_id: id });
    if (!DISPLAYABLE.has(image.media_type)) {
      slot.replaceChildren(el("span", { class: "muted" }, `${image.format}: not shown by browsers`));
      return;
    }
    const url = URL.createObjectURL(base64Blob(image.data, image.media_type));
    objectUrls.push(url);
    const download = el("a", { href: url, download: `${id}.${image.extension}` }, "save");
    slot.replaceChildren(el("img", { src: url, alt: `image ${id} on page ${image.page}`, loading: "lazy" }));
    card.querySelector(".meta").append(" · ", download);
  } catch (error) {
    slot.replaceChildren(el("span", { class: "warning" }, `${error.code ?? "error"}: ${error.message}`));
  }
}

// An image reference in the text: a button that shows the picture in place, from the document
// (get_image), when asked.
function figureButton(figure, id) {
  const card = el("span", { class: "figure-card" }, el("span", { class: "thumb" }), el("span", { class: "meta" }));
  card.querySelector(".thumb").append(el("button", { type: "button", onclick: () => showImage(card, id) }, "show"));
  figure.append(" ", card);
}

const images = (() => {
  const container = $("images");
  let loaded = false;
  let shown = 0;
  const queue = [];
  const list = paged($("images-more"), (response) => {
    $("images-summary").textContent = `${response.total_images} image(s) on pages ${response.pages || "—"}` + (response.decorative_images ? `, ${response.decorative_images} decorative` : "");
    for (const image of response.images) {
      const card = el(
        "li",
        { class: "image", "data-image": image.id },
        el("div", { class: "thumb" }),
        el("div", { class: "meta" }, el("button", { type: "button", class: "page-link", onclick: () => openPage(image.page) }, `p. ${image.page}`), ` · ${image.id} · ${image.width}×${image.height} ${image.format}`),
      );
      const thumb = card.querySelector(".thumb");
      thumb.append(el("button", { type: "button", onclick: () => showImage(card, image.id) }, "show"));
      container.append(card);
      if (shown++ < AUTO_THUMBNAILS) queue.push(() => showImage(card, image.id));
    }
    drain();
  });
  let draining = false;
  async function drain() {
    if (draining) return;
    draining = true;
    while (queue.length) await queue.shift()();
    draining = false;
  }
  return {
    reset() {
      loaded = false;
      shown = 0;
      queue.length = 0;
      container.replaceChildren();
    },
    load() {
      if (loaded || !doc) return;
      loaded = true;
      return list.start("images", { max_chars: LIST_BUDGET });
    },
  };
})();

// --- wiring -----------------------------------------------------------------------------

for (const tab of document.querySelectorAll("[role=tab]")) {
  tab.addEventListener("click", () => {
    clearStatus();
    selectTab(tab.dataset.tab);
  });
}

$("file").addEventListener("change", (event) => openFile(event.target.files[0]).catch(showError));

const dropzone = $("dropzone");
for (const type of ["dragenter", "dragover"]) {
  document.addEventListener(type, (event) => {
    event.preventDefault();
    dropzone.classList.add("dragging");
  });
}
document.addEventListener("dragleave", () => dropzone.classList.remove("dragging"));
document.addEventListener("drop", (event) => {
  event.preventDefault();
  dropzone.classList.remove("dragging");
  openFile(event.dataTransfer?.files?.[0]).catch(showError);
});

$("password-form").addEventListener("submit", (event) => {
  event.preventDefault();
  doc.password = $("password").value;
  showDocument().catch(showError);
});
