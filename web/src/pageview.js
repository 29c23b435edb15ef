// The page as drawn: pdf.js (vendor/pdfjs/, served from this origin) renders a page of the open
// PDF into a canvas, and the boxes pdfthin answered for a search hit or a verified quote are
// drawn over it. The boxes are in points, origin at the top left of the page as displayed (after
// its /Rotate and crop box), y down: pdf.js's viewport with the page's own rotation has that same
// origin and orientation, so a box is its points times the scale, in CSS pixels.
//
// pdf.js gets a copy of the bytes the page already holds (pdf.js transfers what it is given to
// its worker, which detaches it), and the password the user typed. It is loaded on first use:
// a page that never shows a hit never parses it.

const VENDOR = new URL("./vendor/pdfjs/", import.meta.url);
const MAX_SCALE = 1.5; // CSS pixels per point: a wide window does not blow a page up further
const MIN_WIDTH = 240; // CSS pixels: a narrow container still gets a legible page

let library = null;

/** pdf.js's module, with its worker set (once). */
function pdfjs() {
  library ??= import(new URL("pdf.min.mjs", VENDOR).href).then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = new URL("pdf.worker.min.mjs", VENDOR).href;
    return lib;
  });
  return library;
}

/** One open PDF, as pdf.js sees it: opened on the first page shown, then kept. */
export class PageSource {
  /** `bytes`: the PDF (an ArrayBuffer the caller keeps; pdf.js gets a copy); `password`: the
   *  one the user typed, or null. */
  constructor(bytes, password) {
    this.bytes = bytes;
    this.password = password;
    this.task = null;
  }

  async document() {
    if (!this.task) {
      const lib = await pdfjs();
      this.task = lib.getDocument({
        data: new Uint8Array(this.bytes.slice(0)),
        password: this.password ?? undefined,
        // The data pdf.js may need beside the file, all from this origin (see build.mjs):
        // character maps, the 14 standard fonts, its WebAssembly decoders (JPEG 2000, JBIG2,
        // colour profiles) and the default ICC profile.
        cMapUrl: new URL("cmaps/", VENDOR).href,
        standardFontDataUrl: new URL("standard_fonts/", VENDOR).href,
        wasmUrl: new URL("wasm/", VENDOR).href,
        iccUrl: new URL("iccs/", VENDOR).href,
        enableXfa: false,
      });
    }
    return this.task.promise;
  }

  /** Let pdf.js go (another file was opened). */
  destroy() {
    this.task?.destroy();
    this.task = null;
  }
}

/** The pages `boxes` lie on, in order (each box names its page), or `page` when there are none. */
function pagesOf(boxes, page) {
  const pages = [...new Set(boxes.map((box) => box.page))];
  return pages.length ? pages : [page];
}

/**
 * Draw the page(s) of a passage into `view` (an element the caller placed), with a highlight
 * over each of its boxes; answers once drawn. `passage`: {page, bbox: [{page, x0, y0, x1, y1}]}
 * as find_in_document's matches and verify_quote's match carry them.
 */
export async function showPassage(view, source, passage) {
  const boxes = passage.bbox ?? [];
  const width = Math.max(MIN_WIDTH, view.clientWidth || MIN_WIDTH);
  const pdf = await source.document();
  const sheets = [];
  for (const number of pagesOf(boxes, passage.page)) {
    const page = await pdf.getPage(number);
    // scale 1: the displayed page in points (rotation: the page's own /Rotate)
    const scale = Math.min(MAX_SCALE, width / page.getViewport({ scale: 1 }).width);
    const viewport = page.getViewport({ scale });
    const ratio = window.devicePixelRatio || 1;
    const canvas = document.createElement("canvas");
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    // Sizes and positions go through the CSSOM: the policy's style-src allows no inline
    // style attribute, and needs none for these.
    canvas.style.width = `${viewport.width}px`;
    canvas.style.height = `${viewport.height}px`;
    await page.render({ canvas, viewport, transform: ratio === 1 ? null : [ratio, 0, 0, ratio, 0, 0] }).promise;

    const sheet = document.createElement("div");
    sheet.className = "sheet";
    sheet.dataset.page = String(number);
    sheet.dataset.scale = String(scale);
    sheet.style.width = canvas.style.width;
    sheet.style.height = canvas.style.height;
    sheet.append(canvas);
    for (const box of boxes.filter((b) => b.page === number)) {
      const mark = document.createElement("div");
      mark.className = "highlight";
      mark.style.left = `${box.x0 * scale}px`;
      mark.style.top = `${box.y0 * scale}px`;
      mark.style.width = `${(box.x1 - box.x0) * scale}px`;
      mark.style.height = `${(box.y1 - box.y0) * scale}px`;
      sheet.append(mark);
    }
    sheets.push(sheet);
  }
  view.replaceChildren(...sheets);
  (view.querySelector(".highlight") ?? view).scrollIntoView({ block: "center" });
}

/** A page pdf.js could not open or draw, said for people. */
export function pageViewError(error) {
  if (error?.name === "PasswordException") return "pdf.js needs the password to draw this page.";
  return `The page could not be drawn: ${error?.message ?? error}`;
}
