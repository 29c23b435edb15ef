// Build the static demo: web/dist/ (or --out DIR), a folder any static host can serve.
//
//   node web/build.mjs [--out DIR] [--python PYTHON] [--pypdf SPEC]
//
// It builds the pdfthin wheel from this checkout (pip wheel --no-deps), fetches the pypdf wheel
// for Pyodide's Python (pip download --python-version 3.14), copies the Pyodide runtime from
// node_modules, markdown-it's browser bundle and pdf.js (which draws a page to show a search hit or
// a quote on), and writes the page, the worker and manifest.json (the wheels and their SHA-256).
// Nothing in the output points at a CDN.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const web = dirname(fileURLToPath(import.meta.url));
const root = resolve(web, "..");
const modules = join(web, "node_modules");

// The Pyodide files a page needs: the loader, the Emscripten module, the interpreter and the
// standard library. The lock file is written trimmed (see below).
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"];
const SOURCES = ["index.html", "app.js", "worker.js", "markdown.js", "pageview.js", "style.css", "favicon.svg"];
// pdf.js (pdfjs-dist): the legacy build (polyfilled for browsers a year or two old as well; the
// modern one needs this year's), its worker, and the data it fetches from this origin when a PDF
// needs it: character maps (CJK fonts), the standard 14 fonts (when not embedded), the
// WebAssembly decoders (JPEG 2000, JBIG2, ICC colour) and the default CMYK profile. Left out:
// source maps, the scripting sandbox (QuickJS: the demo runs no PDF JavaScript), the
// off-main-thread renderer and the decoders' JavaScript fallbacks for browsers without
// WebAssembly (Pyodide needs it anyway).
const PDFJS_FILES = [
  ["legacy/build/pdf.min.mjs", "pdf.min.mjs"],
  ["legacy/build/pdf.worker.min.mjs", "pdf.worker.min.mjs"],
  ["LICENSE", "LICENSE"],
];
const PDFJS_DIRS = ["cmaps", "standard_fonts", "iccs"];
const PDFJS_WASM = /^(LICENSE_(?!.*QUICKJS).*|openjpeg\.wasm|jbig2\.wasm|qcms_bg\.wasm)$/;

function defaultPython() {
  if (process.env.PYTHON) return process.env.PYTHON;
  const venv = join(root, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

function run(command, args, options = {}) {
  execFileSync(command, args, { stdio: ["ignore", "inherit", "inherit"], ...options });
}

async function sha256(path) {
  return createHash("sha256").update(await readFile(path)).digest("hex");
}

async function onlyFile(dir, prefix) {
  const names = (await readdir(dir)).filter((n) => n.startsWith(prefix) && n.endsWith(".whl"));
  if (names.length !== 1) throw new Error(`expected one ${prefix}*.whl in ${dir}, found ${names}`);
  return names[0];
}

// pip builds in the source tree (setuptools' build/); build from a private copy so that
// parallel builds (tox environments, tests) never share a half-written tree.
async function buildPdfthinWheel(python, into) {
  const tree = await mkdtemp(join(tmpdir(), "pdfthin-src-"));
  try {
    const skip = (src) => !/(__pycache__|\.pyc$)/.test(src);
    await cp(join(root, "pdfthin"), join(tree, "pdfthin"), { recursive: true, filter: skip });
    for (const name of ["pyproject.toml", "README.md", "LICENSE"]) {
      if (existsSync(join(root, name))) await cp(join(root, name), join(tree, name));
    }
    run(python, ["-m", "pip", "wheel", "-q", "--no-deps", "--no-cache-dir", tree, "-w", into]);
  } finally {
    await rm(tree, { recursive: true, force: true });
  }
  return onlyFile(into, "pdfthin-");
}

async function fetchPypdfWheel(python, spec, into) {
  run(python, [
    "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
    "--python-version", "3.14", "--implementation", "py", spec, "-d", into,
  ]);
  return onlyFile(into, "pypdf-");
}

export async function build({ out = join(web, "dist"), python = defaultPython(), pypdf = "pypdf>=7,<8" } = {}) {
  if (!existsSync(join(modules, "pyodide", "pyodide.mjs"))) {
    throw new Error("web/node_modules is missing: run `npm ci` in web/ first");
  }
  out = resolve(out);
  await rm(out, { recursive: true, force: true });
  for (const dir of ["pyodide", "wheels", "vendor"]) await mkdir(join(out, dir), { recursive: true });

  const scratch = await mkdtemp(join(tmpdir(), "pdfthin-wheels-"));
  const wheels = [];
  try {
    for (const file of [await buildPdfthinWheel(python, scratch), await fetchPypdfWheel(python, pypdf, scratch)]) {
      await cp(join(scratch, file), join(out, "wheels", file));
      wheels.push({ file, sha256: await sha256(join(out, "wheels", file)) });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }

  const pyodideDir = join(modules, "pyodide");
  const pyodideVersion = JSON.parse(await readFile(join(pyodideDir, "package.json"), "utf8")).version;
  for (const name of PYODIDE_FILES) await cp(join(pyodideDir, name), join(out, "pyodide", name));
  // The npm lock file lists Pyodide's optional packages at CDN addresses. The page loads none
  // of them (the two wheels are unpacked from ./wheels), so keep only its header: a stray
  // loadPackage then fails here instead of reaching out.
  const lock = JSON.parse(await readFile(join(pyodideDir, "pyodide-lock.json"), "utf8"));
  await writeFile(join(out, "pyodide", "pyodide-lock.json"), JSON.stringify({ info: lock.info, packages: {} }));

  const markdownIt = join(modules, "markdown-it");
  const markdownVersion = JSON.parse(await readFile(join(markdownIt, "package.json"), "utf8")).version;
  await cp(join(markdownIt, "dist", "browser", "markdown-it.esm.min.mjs"), join(out, "vendor", "markdown-it.mjs"));
  await cp(join(markdownIt, "LICENSE"), join(out, "vendor", "markdown-it.LICENSE"));

  const pdfjsDir = join(modules, "pdfjs-dist");
  const pdfjsVersion = JSON.parse(await readFile(join(pdfjsDir, "package.json"), "utf8")).version;
  const pdfjsOut = join(out, "vendor", "pdfjs");
  await mkdir(join(pdfjsOut, "wasm"), { recursive: true });
  for (const [from, to] of PDFJS_FILES) await cp(join(pdfjsDir, from), join(pdfjsOut, to));
  for (const dir of PDFJS_DIRS) await cp(join(pdfjsDir, dir), join(pdfjsOut, dir), { recursive: true });
  for (const name of (await readdir(join(pdfjsDir, "wasm"))).filter((n) => PDFJS_WASM.test(n))) {
    await cp(join(pdfjsDir, "wasm", name), join(pdfjsOut, "wasm", name));
  }

  for (const name of SOURCES) await cp(join(web, "src", name), join(out, name));

  const manifest = {
    wheels,
    pyodide: pyodideVersion,
    "markdown-it": markdownVersion,
    "pdfjs-dist": pdfjsVersion,
    licenses: {
      pdfthin: "MIT",
      pypdf: "BSD-3-Clause",
      pyodide: "MPL-2.0 (CPython: PSF-2.0)",
      "markdown-it": "MIT",
      "pdfjs-dist": "Apache-2.0; vendor/pdfjs/ holds the licences of what it bundles (Foxit fonts: BSD-3-Clause; Liberation fonts: GPL-2.0 with the font exception; OpenJPEG, JBIG2, qcms: BSD/MIT; the CMYK profile: CC0)",
    },
  };
  await writeFile(join(out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return { out, manifest };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { out: { type: "string" }, python: { type: "string" }, pypdf: { type: "string" } },
  });
  const { out, manifest } = await build(Object.fromEntries(Object.entries(values).filter(([, v]) => v)));
  console.log(`built ${out}: Pyodide ${manifest.pyodide}, ${manifest.wheels.map((w) => w.file).join(", ")}`);
}
