// Pyodide against CPython on the same files, the same wheel and the same measuring code
// (benchmarks/pyodide_measure.py): interpreter start, import, first page (the document's
// profile and the page), a cached page, all pages.
//
//   node web/build.mjs                     # once: web/dist with the wheels
//   node benchmarks/pyodide_bench.mjs [--repeat 3] [--python .venv/bin/python] [--files REL ...]
//
// Writes benchmarks/results/pyodide.json and pyodide.md. Pyodide runs in Node here (the browser
// adds its own costs: download, a worker, rendering).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FILES = [
  "sample-files/pdflatex-outline.pdf",
  "pypdf-benchmarks/1601.03642.pdf",
  "pypdf-benchmarks/2201.00021.pdf",
  "pdfplumber/WARN-Report-for-7-1-2015-to-03-25-2016.pdf",
  "sample-files/GeoTopo-komprimiert.pdf",
  "pdfjs/freeculture.pdf",
];
const { values: opts } = parseArgs({
  options: {
    dist: { type: "string", default: join(root, "web", "dist") },
    python: { type: "string", default: existsSync(join(root, ".venv/bin/python")) ? join(root, ".venv/bin/python") : "python3" },
    corpus: { type: "string", default: resolve(root, "..", "shared", "corpus") },
    repeat: { type: "string", default: "3" },
    files: { type: "string", multiple: true },
    generated: { type: "string", default: "1,10,100,1000" },
    out: { type: "string", default: join(root, "benchmarks", "results", "pyodide") },
  },
});
// Generated documents (benchmarks/generated.py) of these page counts, written once by CPython
// and read by both: how the first answer grows with the page count.
const generatedDir = mkdtempSync(join(tmpdir(), "pdfthin-generated-"));
const generated = opts.generated ? opts.generated.split(",").filter(Boolean).map((n) => `generated-${n}.pdf`) : [];
for (const name of generated) {
  const pages = Number(name.slice("generated-".length, -".pdf".length));
  const made = spawnSync(opts.python, ["-c", `from pathlib import Path; from benchmarks.generated import write_document; write_document(Path(${JSON.stringify(join(generatedDir, name))}), ${pages})`], { cwd: root, encoding: "utf8" });
  if (made.status !== 0) throw new Error(`generating ${name}: ${made.stderr}`);
}
const files = [...generated.map((n) => `generated/${n}`), ...(opts.files ?? FILES)];
const hostPath = (f) => (f.startsWith("generated/") ? join(generatedDir, f.slice("generated/".length)) : join(opts.corpus, f));
const loadBefore = loadavg()[0];
const repeat = Number(opts.repeat);
const wheelsDir = join(opts.dist, "wheels");
if (!existsSync(wheelsDir)) throw new Error(`${wheelsDir} is missing: run node web/build.mjs first`);
const wheels = readdirSync(wheelsDir).filter((n) => n.endsWith(".whl"));
const measureCode = await readFile(join(root, "benchmarks", "pyodide_measure.py"));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (seconds) => Math.round(seconds * 1000);

// --- CPython: the pdfthin wheel unpacked on PYTHONPATH, pure engine, fresh processes ---------
const site = mkdtempSync(join(tmpdir(), "pdfthin-bench-"));
for (const wheel of wheels.filter((n) => n.startsWith("pdfthin-"))) {
  spawnSync(opts.python, ["-m", "zipfile", "-e", join(wheelsDir, wheel), site], { stdio: "inherit" });
}
const env = { ...process.env, PYTHONPATH: site, PDFTHIN_NATIVE: "off" };
function timed(args) {
  const started = performance.now();
  const done = spawnSync(opts.python, args, { env, cwd: site, encoding: "utf8", maxBuffer: 1 << 26 });
  if (done.status !== 0) throw new Error(`${opts.python} ${args.join(" ")}: ${done.stderr}`);
  return { ms: performance.now() - started, stdout: done.stdout };
}
const cpythonBare = median(Array.from({ length: 5 }, () => timed(["-c", "pass"]).ms));
// pdfthin.operations loads its operations on first use, so import what a first page needs (as
// pyodide_measure.py does), not the bare package.
const cpythonImport = median(Array.from({ length: 5 }, () => timed(["-c", "from pdfthin.operations import Context, read_pages"]).ms));
console.error(`CPython: start ${Math.round(cpythonBare)} ms, with import ${Math.round(cpythonImport)} ms; measuring…`);
const cpython = JSON.parse(
  timed([join(root, "benchmarks", "pyodide_measure.py"), "--repeat", String(repeat), ...files.map(hostPath)]).stdout,
);

// --- Pyodide in Node: the same wheels, the same code -------------------------------------
const { loadPyodide } = await import(pathToFileURL(join(root, "web", "node_modules", "pyodide", "pyodide.mjs")).href);
let mark = performance.now();
const pyodide = await loadPyodide({ packages: [] });
const pyStart = performance.now() - mark;
mark = performance.now();
for (const wheel of wheels) pyodide.unpackArchive(new Uint8Array(await readFile(join(wheelsDir, wheel))), "wheel");
const pyWheels = performance.now() - mark;
pyodide.FS.mkdirTree("/corpus");
pyodide.mountNodeFS("/corpus", resolve(opts.corpus));
pyodide.FS.mkdirTree("/generated");
pyodide.mountNodeFS("/generated", generatedDir);
pyodide.FS.writeFile("/tmp/pyodide_measure.py", measureCode);
console.error(`Pyodide: start ${Math.round(pyStart)} ms, wheels ${Math.round(pyWheels)} ms; measuring…`);
const paths = JSON.stringify(files.map((f) => (f.startsWith("generated/") ? `/${f}` : `/corpus/${f}`)));
const pyResult = JSON.parse(
  pyodide.runPython(`
import json, sys
sys.path.insert(0, "/tmp")
import pyodide_measure
json.dumps(pyodide_measure.measure(json.loads(${JSON.stringify(paths)}), ${repeat}))
`),
);

// --- report --------------------------------------------------------------------------------
const rows = {
  cpython: Object.fromEntries(files.map((f) => [f, cpython.files[hostPath(f)]])),
  pyodide: Object.fromEntries(files.map((f) => [f, pyResult.files[f.startsWith("generated/") ? `/${f}` : `/corpus/${f}`]])),
};
const result = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, load_1min: [loadBefore, loadavg()[0]].map((x) => Number(x.toFixed(1))) },
  repeat,
  cpython: { python: cpython.python, pypdf: cpython.pypdf, start_ms: Math.round(cpythonBare), start_with_import_ms: Math.round(cpythonImport), import_ms: ms(cpython.import_s) },
  pyodide: { pyodide: pyodide.version, python: pyResult.python, pypdf: pyResult.pypdf, start_ms: Math.round(pyStart), wheels_ms: Math.round(pyWheels), import_ms: ms(pyResult.import_s) },
  files: rows,
};
const ratio = (a, b) => (b / a).toFixed(1);
const lines = [
  `# pdfthin: Pyodide ${result.pyodide.pyodide} (Python ${result.pyodide.python}, Node ${process.version}) against CPython ${result.cpython.python}`,
  "",
  `Same pdfthin wheel, pypdf ${result.cpython.pypdf}, pure engine; median of ${repeat} runs per file on a fresh cache; ${result.machine.cpus} × ${result.machine.model}, load average ${result.machine.load_1min.join(" → ")} (CPython and Pyodide ran one after the other, so both saw it).`,
  "",
  "| start | CPython | Pyodide |",
  "|---|---:|---:|",
  `| interpreter | ${result.cpython.start_ms} ms | ${result.pyodide.start_ms} ms |`,
  `| install wheels | — | ${result.pyodide.wheels_ms} ms |`,
  `| import Context, read_pages from pdfthin.operations | ${result.cpython.import_ms} ms | ${result.pyodide.import_ms} ms |`,
  `| ready (total) | ${result.cpython.start_with_import_ms} ms | ${result.pyodide.start_ms + result.pyodide.wheels_ms + result.pyodide.import_ms} ms |`,
  "",
  "| file | pages | first page CPython | first page Pyodide | × | per page CPython | per page Pyodide | cached page CPython / Pyodide |",
  "|---|---:|---:|---:|---:|---:|---:|---:|",
  ...files.map((f) => {
    const c = rows.cpython[f];
    const p = rows.pyodide[f];
    return `| ${f} | ${c.pages} | ${ms(c.first_page_s)} ms | ${ms(p.first_page_s)} ms | ${ratio(c.first_page_s, p.first_page_s)} | ${c.per_page_ms} ms | ${p.per_page_ms} ms | ${(c.cached_page_s * 1000).toFixed(1)} / ${(p.cached_page_s * 1000).toFixed(1)} ms |`;
  }),
  "",
  "First page = time until read_pages(pages=\"1\") answers on a fresh cache: pdfthin reads the document's profile (at most 16 sample pages) and the page; per page = that time / pages. Cached page = the same call again.",
  "",
];
await mkdir(dirname(opts.out), { recursive: true });
await writeFile(`${opts.out}.json`, JSON.stringify(result, null, 2) + "\n");
await writeFile(`${opts.out}.md`, lines.join("\n"));
console.log(lines.join("\n"));
