// Markdown from a PDF is untrusted text. It is rendered by markdown-it with raw HTML off (every
// "<" in the text is escaped), images never fetched (an image reference could make the browser
// fetch an address named by the PDF), links neutralised to inert text with the address shown,
// and no inline styles (the page's CSP forbids them). Nothing from the PDF becomes markup or a
// request. pdfthin's own image references (`![image p3-x12 (640×480 px)](pdfthin:image/p3-x12)`;
// the PDF's text cannot make one, pdfthin escapes it) become a figure placeholder that the app
// fills from the document on request.
import MarkdownIt from "./vendor/markdown-it.mjs";

const md = new MarkdownIt("default", { html: false, linkify: false, typographer: false });
md.disable(["autolink", "html_inline", "html_block"]);

const FIGURE = /^pdfthin:image\/([A-Za-z0-9./-]{1,64})$/;

md.renderer.rules.image = (tokens, index) => {
  const token = tokens[index];
  const alt = md.utils.escapeHtml(token.content);
  const found = FIGURE.exec(token.attrGet("src") ?? "");
  if (!found) return `<span class="image-alt">${alt}</span>`; // never a request
  return `<span class="figure" data-image="${md.utils.escapeHtml(found[1])}">${alt}</span>`;
};

// A link is shown as its text followed by its address, never as a live <a>.
md.renderer.rules.link_open = (tokens, index) => {
  const href = tokens[index].attrGet("href") ?? "";
  tokens[index].meta = { href };
  return '<span class="link">';
};
md.renderer.rules.link_close = (tokens, index) => {
  let open = index;
  while (open > 0 && tokens[open].type !== "link_open") open -= 1;
  const href = tokens[open].meta?.href ?? "";
  return `</span><span class="href"> (${md.utils.escapeHtml(href)})</span>`;
};

// Table alignment would come out as style="text-align:…": drop every style attribute.
md.core.ruler.push("no_inline_styles", (state) => {
  for (const token of state.tokens) {
    if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== "style");
  }
});

// `<!-- page N -->`, or `<!-- page N: needs_ocr (image_only) -->` for a page not read whole.
const PAGE_MARKER = /^<!-- page (\d+)(?:: ([a-z_]+) \(([a-z_]+)\))? -->$/gm;

/** Render pdfthin Markdown into `container` (its children are replaced). Page markers
 *  (read_section puts them between pages) become page dividers, saying when a page could not
 *  be read; `onFigure(element, imageId)` is called for each image reference's placeholder. */
export function renderMarkdown(container, text, onFigure = null) {
  container.replaceChildren();
  const pieces = text.split(PAGE_MARKER);
  // split with three capture groups: [text, page, status, reason, text, ...]
  for (let i = 0; i < pieces.length; i += 1) {
    if (i % 4 === 1) {
      const divider = document.createElement("div");
      divider.className = "page-divider";
      const [status, reason] = [pieces[i + 1], pieces[i + 2]];
      divider.textContent = status ? `page ${pieces[i]}: not read (${status}: ${reason.replaceAll("_", " ")})` : `page ${pieces[i]}`;
      if (status) divider.classList.add("unreadable");
      container.append(divider);
    } else if (i % 4 === 0 && pieces[i].trim()) {
      const block = document.createElement("div");
      block.className = "markdown";
      block.innerHTML = md.render(pieces[i]); // safe: html off, see above
      container.append(block);
    }
  }
  if (onFigure) for (const figure of container.querySelectorAll(".figure[data-image]")) onFigure(figure, figure.dataset.image);
}
