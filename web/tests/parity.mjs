// Pyodide side of the parity test: load Pyodide from web/node_modules (offline), install the
// pdfthin and pypdf wheels from local files, and run web/tests/parity_driver.py (the same calls
// tests/test_pyodide.py runs under CPython) through pdfthin.adapters.browser. Writes JSON to --out.
//
//   node web/tests/parity.mjs --wheels DIR --out FILE [--corpus DIR] [--cases FILE]
import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadPyodide } from "pyodide";

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, "..");
const { values: opts } = parseArgs({
  options: {
    wheels: { type: "string" },
    out: { type: "string" },
    corpus: { type: "string", default: resolve(web, "..", "..", "shared", "corpus") },
    cases: { type: "string", default: join(here, "parity_cases.json") },
  },
});
if (!opts.wheels || !opts.out) {
  console.error("usage: node web/tests/parity.mjs --wheels DIR --out FILE [--corpus DIR] [--cases FILE]");
  process.exit(2);
}

const started = performance.now();
const pyodide = await loadPyodide({ packages: [] });
const timings = { start_ms: Math.round(performance.now() - started) };

const wheels = (await readdir(opts.wheels)).filter((name) => name.endsWith(".whl")).sort();
for (const prefix of ["pdfthin-", "pypdf-"]) {
  if (wheels.filter((name) => name.startsWith(prefix)).length !== 1) {
    throw new Error(`${opts.wheels} must hold exactly one ${prefix}*.whl (has: ${wheels.join(", ")})`);
  }
}
for (const name of wheels) {
  // A Node Buffer is rejected by unpackArchive: wrap it.
  pyodide.unpackArchive(new Uint8Array(await readFile(join(opts.wheels, name))), "wheel");
}
const site = pyodide.runPython("import site; site.getsitepackages()[0]");
pyodide.FS.writeFile(`${site}/parity_driver.py`, await readFile(join(here, "parity_driver.py")));
pyodide.FS.writeFile("/tmp/parity_cases.json", await readFile(opts.cases));
pyodide.FS.mkdirTree("/corpus");
pyodide.mountNodeFS("/corpus", resolve(opts.corpus));

const runStarted = performance.now();
const output = pyodide.runPython(`
import json, sys, pypdf, pdfthin, parity_driver
json.dumps({
    "interpreter": "pyodide " + sys.version.split()[0],
    "versions": {"pdfthin": pdfthin.__version__, "pypdf": pypdf.__version__},
    "results": parity_driver.run("/tmp/parity_cases.json", "/corpus"),
})
`);
timings.run_ms = Math.round(performance.now() - runStarted);
const result = JSON.parse(output);
result.versions.pyodide = pyodide.version;
result.timings = timings;
await writeFile(opts.out, JSON.stringify(result));
console.log(
  `pyodide ${pyodide.version}: ${Object.keys(result.results).length} files in ${timings.run_ms} ms ` +
    `(start ${timings.start_ms} ms) -> ${opts.out}`,
);
