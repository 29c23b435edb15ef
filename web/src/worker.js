// The web worker: Pyodide, the pdfthin and pypdf wheels, and pdfthin's browser adapter
// (pdfthin.adapters.browser, in the wheel). The page talks to it by
// messages; the PDF's bytes come in as a transferred ArrayBuffer and never leave this tab.
//
//   page → worker  {id, type: "open", buffer}                  → {id, result: {handle}}
//                  {id, type: "call", op, handle, args}        → {id, result: <response JSON>}
//                  {id, type: "close", handle}                 → {id, result: null}
//   worker → page  {type: "progress", stage, message, fraction, until} at each phase of
//                                                                starting (until: where the next begins)
//                  {type: "ready", versions, timings}           once started
//                  {type: "extract", done, total}               while a document is extracted
//                  {id, failure: message}                       when something broke (not a PDF error)
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;
const post = (message) => self.postMessage(message);
const progress = (stage, message, fraction, until) => post({ type: "progress", stage, message, fraction, until });

async function fetchBytes(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function start() {
  const timings = {};
  let mark = performance.now();
  const lap = (name) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };

  // Phases and their share of the bar: the runtime (download, compile, start: most of the
  // wait), the two wheels, the import.
  progress("runtime", "Loading the Python runtime (Pyodide, about 13 MB)…", 0.03, 0.7);
  const manifest = await (await fetch(here("manifest.json"))).json();
  // packageBaseUrl: Pyodide would otherwise look for packages on its CDN; there are none to load.
  const pyodide = await loadPyodide({ indexURL: here("./pyodide/"), packageBaseUrl: here("./pyodide/"), packages: [] });
  lap("runtime_ms");

  let done = 0;
  for (const wheel of manifest.wheels) {
    const share = 0.15 / manifest.wheels.length;
    progress("wheels", `Installing ${wheel.file}…`, 0.7 + share * done, 0.7 + share * (done + 1));
    done += 1;
    const bytes = await fetchBytes(`wheels/${wheel.file}`);
    if ((await sha256(bytes)) !== wheel.sha256) throw new Error(`${wheel.file}: checksum mismatch`);
    pyodide.unpackArchive(bytes, "wheel");
  }
  lap("wheels_ms");

  progress("import", "Importing pdfthin…", 0.85, 0.98);
  const bridge = pyodide.pyimport("pdfthin.adapters.browser");
  bridge.set_progress((doneCount, total) => post({ type: "extract", done: doneCount, total }));
  // Time limits from the page's address (app.js passes them on); a bad value stops the start
  // with the bridge's own message rather than being ignored.
  const query = new URLSearchParams(self.location.search);
  const seconds = (name) => (query.has(name) ? Number(query.get(name)) : undefined);
  if (query.has("page_seconds") || query.has("document_seconds")) {
    bridge.set_limits.callKwargs({ page_seconds: seconds("page_seconds"), document_seconds: seconds("document_seconds") });
  }
  lap("import_ms");

  const versions = JSON.parse(
    pyodide.runPython(
      "import json, sys, pdfthin, pypdf; json.dumps({'python': sys.version.split()[0], " +
        "'pdfthin': pdfthin.__version__, 'pypdf': pypdf.__version__})",
    ),
  );
  versions.pyodide = pyodide.version;
  post({ type: "ready", versions, timings });
  return { pyodide, bridge };
}

const ready = start();
ready.catch((error) => post({ type: "fatal", message: String(error?.message ?? error) }));

async function handle(message, { pyodide, bridge }) {
  switch (message.type) {
    case "open": {
      const bytes = pyodide.toPy(new Uint8Array(message.buffer));
      try {
        return { handle: bridge.open_document(bytes) };
      } finally {
        bytes.destroy();
      }
    }
    case "call":
      return JSON.parse(bridge.call(message.op, message.handle, JSON.stringify(message.args ?? {})));
    case "close":
      bridge.close_document(message.handle);
      return null;
    default:
      throw new Error(`unknown message ${message.type}`);
  }
}

// One request at a time, in order: Python runs synchronously here anyway.
let queue = Promise.resolve();
self.onmessage = ({ data: message }) => {
  queue = queue.then(async () => {
    try {
      const started = performance.now();
      const result = await handle(message, await ready);
      post({ id: message.id, result, elapsed_ms: Math.round(performance.now() - started) });
    } catch (error) {
      post({ id: message.id, failure: String(error?.message ?? error) });
    }
  });
};
