"""The AWS Lambda adapter's cold start and invocation times, and the deployment zip's size.

    .venv/bin/python benchmarks/lambda_bench.py [--repeat 7] [--pdf FILE ...] [--json OUT]

For each zip variant (``bytecode``: the default build, sourceless ``.pyc``; ``sources``: built
with ``--sources``) the zip is built into a temporary directory, unpacked, and run ``--repeat``
times as a new container: ``python -m awslambdaric pdfthin.adapters.aws.handler.handler``
against the local stand-in for the Lambda Runtime API (deploy/local_runtime.py), with the
unpacked zip as its only code, no bytecode writing (Lambda's ``/var/task`` is read-only) and the
pure-Python engine.
Each container measures:

- ``init``: from the process spawn until the runtime client asks for its first event
  (interpreter start, runtime client, the handler module's import: what Lambda reports as
  Init Duration);
- ``first``: the first invocation, ``describe_document`` with the PDF base64-encoded (the
  document is extracted);
- ``warm``: the same request again (served from the container's cache), then ``read_pages``
  of page 1 and a ``find_in_document``;
- ``init, empty handler``: the floor, the same with a handler that imports nothing;
- with moto installed (``pip install 'moto[server]'``), ``s3 first`` / ``s3 warm``: the same
  document from a local S3 (moto in server mode on 127.0.0.1): the first one imports boto3.

Wall times are medians over the containers; CPU times (user + system of the function process,
from ``/proc``) are given beside them because they move less when the machine is loaded. Every
request must succeed, or the run stops. Needs awslambdaric and pypdf in the interpreter that
runs it (``pip install -e '.[test]'``); the function runs under that same interpreter, so the
bytecode is compiled for it.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import platform
import statistics
import sys
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "deploy"))

import build_zip  # noqa: E402  (deploy/ is not a package)
from local_runtime import HANDLER, FunctionProcess, LocalRuntime, unpack  # noqa: E402

CORPUS = Path(os.environ.get("PDFTHIN_CORPUS", ROOT.parent / "shared" / "corpus"))
DEFAULT_PDFS = [ROOT / "examples" / "sample.pdf", CORPUS / "pypdf-benchmarks" / "1601.03642.pdf"]
RUNTIME = f"python{sys.version_info.major}.{sys.version_info.minor}"
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a live process (Linux), else ``None``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / _TICK


class Container:
    """One cold container: a runtime stand-in and the function process."""

    def __init__(self, code: Path, env: dict[str, str], handler: str = HANDLER) -> None:
        self.runtime = LocalRuntime()
        # The zip has no native accelerator: keep one installed in this venv out of the way.
        env = {"PDFTHIN_NATIVE": "off", **env}
        self.function = FunctionProcess(self.runtime, code, env, handler=handler)
        self.pid = self.function.process.pid

    def init(self) -> tuple[float, float | None]:
        wall = self.function.wait_ready()
        return wall, cpu_seconds(self.pid)

    def invoke(self, event: dict[str, Any]) -> tuple[float, float | None]:
        before = cpu_seconds(self.pid)
        invocation = self.runtime.invoke(event)
        after = cpu_seconds(self.pid)
        result = invocation.result
        if invocation.error is not None or (isinstance(result, dict) and "error" in result):
            raise SystemExit(f"{event['operation']} failed: {invocation.error or result}")
        cpu = after - before if before is not None and after is not None else None
        return invocation.seconds, cpu

    def close(self) -> None:
        self.function.stop()
        self.runtime.close()


def s3_endpoint(stack: ExitStack, pdfs: list[Path]) -> tuple[dict[str, str], list[dict]] | None:
    """A moto S3 server holding ``pdfs`` (bucket ``bench``), or ``None`` without moto."""
    try:
        sys.path.insert(0, str(ROOT / "tests"))
        from lambda_support import moto_server, s3_client, s3_env
    except ImportError as exc:
        print(f"S3 rows skipped: {exc} (pip install -e '.[test]')", file=sys.stderr)
        return None
    endpoint = stack.enter_context(moto_server())
    s3 = s3_client(endpoint)
    s3.create_bucket(Bucket="bench")
    docs = []
    for pdf in pdfs:
        s3.put_object(Bucket="bench", Key=pdf.name, Body=pdf.read_bytes())
        docs.append({"s3": {"bucket": "bench", "key": pdf.name}})
    return {**s3_env(endpoint), "PDFTHIN_S3_BUCKETS": "bench"}, docs


Samples = dict[str, list[tuple[float, float | None]]]


def run(code: Path, pdf: Path, s3: tuple[dict[str, str], dict] | None, repeat: int) -> Samples:
    """``repeat`` cold containers, each asked the requests below in order."""
    document = {"base64": base64.b64encode(pdf.read_bytes()).decode("ascii")}
    samples: Samples = {}

    def add(name: str, sample: tuple[float, float | None]) -> None:
        samples.setdefault(name, []).append(sample)

    requests: list[tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = [
        ("first", lambda doc: {"operation": "describe_document", "document": doc}),
        ("warm", lambda doc: {"operation": "describe_document", "document": doc}),
        ("warm read_pages", lambda doc: {"operation": "read_pages", "document": doc, "pages": 1}),
        (
            "warm find",
            lambda doc: {"operation": "find_in_document", "document": doc, "query": "the"},
        ),
    ]
    for _ in range(repeat):
        container = Container(code, s3[0] if s3 else {})
        try:
            add("init", container.init())
            for name, make in requests:
                add(name, container.invoke(make(document)))
            if s3 is not None:
                add("s3 first", container.invoke(requests[0][1](s3[1])))
                add("s3 warm", container.invoke(requests[1][1](s3[1])))
        finally:
            container.close()
    return samples


def summary(samples: list[tuple[float, float | None]]) -> dict[str, float | None]:
    walls = [wall for wall, _ in samples]
    cpus = [cpu for _, cpu in samples if cpu is not None]
    return {
        "wall_ms": round(statistics.median(walls) * 1000, 1),
        "wall_min_ms": round(min(walls) * 1000, 1),
        "cpu_ms": round(statistics.median(cpus) * 1000, 1) if cpus else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="cold containers per variant")
    parser.add_argument(
        "--pdf",
        type=Path,
        action="append",
        help="documents (default: the sample and an 8-page arXiv paper from the corpus)",
    )
    parser.add_argument("--variants", default="bytecode,sources")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    pdfs = [p for p in (args.pdf or DEFAULT_PDFS) if p.is_file()]
    results: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}",
        "variants": {},
    }
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        s3 = s3_endpoint(stack, pdfs)
        for variant in args.variants.split(","):
            archive = build_zip.build(
                Path(tmp) / f"{variant}.zip", sys.executable, variant == "bytecode", RUNTIME
            )
            code = unpack(archive, Path(tmp) / variant)
            entry: dict[str, Any] = {"zip_bytes": archive.stat().st_size, "documents": {}}
            for index, pdf in enumerate(pdfs):
                s3_doc = (s3[0], s3[1][index]) if s3 else None
                samples = run(code, pdf, s3_doc, args.repeat)
                entry["documents"][pdf.name] = {k: summary(v) for k, v in samples.items()}
            results["variants"][variant] = entry
        # The floor: the same interpreter and runtime client with a handler that imports
        # nothing (json.dumps), so the rest of "init" is pdfthin's import.
        floor = []
        for _ in range(args.repeat):
            container = Container(code, {}, handler="json.dumps")
            try:
                floor.append(container.init())
            finally:
                container.close()
        results["empty_handler_init"] = summary(floor)
    results["machine"] += f" (at the end: {os.getloadavg()[0]:.1f})"
    print(render(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


def render(results: dict[str, Any]) -> str:
    lines = [
        f"Python {results['python']}; {results['machine']}",
        "",
        "| zip | bytes | document | measure | wall median (ms) | wall min (ms) | CPU (ms) |",
        "|---|---:|---|---|---:|---:|---:|",
    ]
    floor = results["empty_handler_init"]
    lines.append(
        f"| (any) | | (none) | init, empty handler | {floor['wall_ms']:.0f} | "
        f"{floor['wall_min_ms']:.0f} | {floor['cpu_ms'] or 0:.0f} |"
    )
    for variant, entry in results["variants"].items():
        for document, measures in entry["documents"].items():
            for measure, s in measures.items():
                cpu = "" if s["cpu_ms"] is None else f"{s['cpu_ms']:.0f}"
                lines.append(
                    f"| {variant} | {entry['zip_bytes']:,} | {document} | {measure} | "
                    f"{s['wall_ms']:.0f} | {s['wall_min_ms']:.0f} | {cpu} |"
                )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
