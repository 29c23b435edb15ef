"""pdfthin batch on Step Functions, as far as it runs without AWS: the batch item contract of
the Lambda handler (pdfthin/adapters/aws/items.py) through the real runtime client against a
local S3 (moto), the Distributed Map played locally over the same definition
(deploy/local_map.py), the template linted by cfn-lint and the state machine definitions
validated by asl-validator (npm, pinned in tests/asl_validator/)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cfnlint.decode import decode_str
from conftest import CORPUS_FILES, require_corpus
from lambda_support import (
    ROOT,
    dense_pdf,
    local_runtime,
    moto_server,
    report_pdf,
    s3_client,
    s3_env,
)

sys.path.insert(0, str(ROOT / "deploy"))
import local_map

from pdfthin.adapters.aws.config import Config
from pdfthin.adapters.aws.events import DIRECT, ITEM, kind_of
from pdfthin.adapters.aws.handler import STATUS, LambdaApp
from pdfthin.adapters.aws.items import (
    ERROR_NAMES,
    RETRYABLE,
    ItemError,
    parse_item,
)
from pdfthin.batch import Options, run_batch, sources
from pdfthin.errors import ERROR_CODES

TEMPLATE = ROOT / "deploy" / "batch-template.yaml"
MACHINES = ROOT / "deploy" / "statemachine"
ASL_VALIDATOR = ROOT / "tests" / "asl_validator" / "node_modules" / ".bin" / "asl-validator"

ALPHA = report_pdf("alpha", pages=3)
BETA = report_pdf("beta", pages=2)
NOT_A_PDF = b"%PDF-1.7\nthis is no PDF at all\n"


def item(key: str, **extra: Any) -> dict[str, Any]:
    return {
        "batch_item": {
            "source": {"bucket": "docs", "key": key, "prefix": "in/"},
            "output": {"bucket": "results", "prefix": "pdfthin/"},
            "format": "chunks",
            **extra,
        }
    }


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with moto_server() as url:
        s3 = s3_client(url)
        s3.create_bucket(Bucket="docs")
        s3.create_bucket(Bucket="results")
        s3.put_object(Bucket="docs", Key="in/", Body=b"")  # a console "folder"
        s3.put_object(Bucket="docs", Key="in/a/alpha.pdf", Body=ALPHA)
        s3.put_object(Bucket="docs", Key="in/beta.PDF", Body=BETA)
        s3.put_object(Bucket="docs", Key="in/notes.txt", Body=b"not a document")
        s3.put_object(Bucket="docs", Key="in/broken.pdf", Body=NOT_A_PDF)
        yield url


def function_env(endpoint: str) -> dict[str, str]:
    return {
        **s3_env(endpoint),
        "PDFTHIN_NATIVE": "off",  # the zip has no native accelerator
        "PDFTHIN_S3_BUCKETS": "docs/in/, docs/corpus/",
        "PDFTHIN_S3_OUTPUT": "results/pdfthin/",
    }


@pytest.fixture(scope="module")
def batch_outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What ``pdfthin batch`` writes for the same two files, chunks and Markdown."""
    folder = tmp_path_factory.mktemp("local")
    (folder / "in" / "a").mkdir(parents=True)
    (folder / "in" / "a" / "alpha.pdf").write_bytes(ALPHA)
    (folder / "in" / "beta.PDF").write_bytes(BETA)
    for fmt in ("chunks", "markdown"):
        run = run_batch(sources(str(folder / "in")), folder / fmt, Options(format=fmt))
        assert all(r.status == "ok" for r in run.results)
    return folder


# --- the item contract through the runtime client ---------------------------------------------


@pytest.fixture(scope="module")
def functions(lambda_code: Path, endpoint: str) -> Iterator[local_map.Functions]:
    """Two containers of the zip under the real runtime client, polling one local Runtime
    API (deploy/local_map.py), configured as deploy/batch-template.yaml configures them."""
    with local_map.Functions(lambda_code, function_env(endpoint), jobs=2) as started:
        yield started


def test_items_through_the_runtime_client_write_what_pdfthin_batch_writes(
    functions: local_map.Functions, endpoint: str, batch_outputs: Path
) -> None:
    s3 = s3_client(endpoint)

    def invoke(event: dict[str, Any]) -> Any:
        return functions.runtime.invoke(event, function_timeout=60)

    # A document: its chunks written where pdfthin batch would, byte for byte the same.
    done = invoke(item("in/a/alpha.pdf"))
    assert done.error is None, (done.error, [p.output for p in functions.processes])
    record = done.result
    assert record["source"] == "a/alpha.pdf" and record["status"] == "ok"
    assert record["fingerprint"] == hashlib.sha256(ALPHA).hexdigest()
    assert record["options"] == Options(format="chunks").digest()
    assert (record["page_count"], record["page_statuses"]) == (3, {"text": 3})
    key = "pdfthin/a/alpha.chunks.jsonl"
    assert record["output"]["bucket"] == "results" and record["output"]["key"] == key
    written = s3.get_object(Bucket="results", Key=key)["Body"].read()
    assert written == (batch_outputs / "chunks" / "a" / "alpha.chunks.jsonl").read_bytes()
    assert record["output"]["bytes"] == len(written)
    # The same record pdfthin batch keeps in its manifest.
    manifest = [
        json.loads(line)
        for line in (batch_outputs / "chunks" / "manifest.jsonl").read_text().splitlines()
    ]
    (local,) = (m for m in manifest if m["source"] == "a/alpha.pdf")
    assert {k: record[k] for k in local if k != "output"} == {
        k: v for k, v in local.items() if k != "output"
    }

    # Markdown, and a page selection.
    done = invoke(item("in/beta.PDF", format="markdown"))
    assert done.error is None, done.error
    written = s3.get_object(Bucket="results", Key="pdfthin/beta.md")["Body"].read()
    assert written == (batch_outputs / "markdown" / "beta.md").read_bytes()
    done = invoke(item("in/a/alpha.pdf", format="markdown", pages="2"))
    assert done.result["page_count"] == 1, done.error

    # Not a document: passed over as a folder walk would, not failed.
    for key in ("in/", "in/notes.txt"):
        done = invoke(item(key))
        assert done.error is None and done.result["status"] == "ignored", done.error

    # Failures are raised with a typed Error name and the envelope's code first.
    failures = {
        "in/broken.pdf": ("PdfthinBadDocument", ("not_a_pdf", "malformed")),
        "in/missing.pdf": ("PdfthinBadDocument", ("not_found",)),
    }
    for key, (name, codes) in failures.items():
        done = invoke(item(key))
        assert done.result is None
        assert done.error["errorType"] == name, done.error
        assert done.error["errorMessage"].split(":")[0] in codes, done.error
    # Writing outside PDFTHIN_S3_OUTPUT, and a bad item: the item, not the document.
    outside = item("in/a/alpha.pdf")
    outside["batch_item"]["output"]["prefix"] = "elsewhere/"
    for event in (outside, item("in/a/alpha.pdf", format="pdf")):
        done = invoke(event)
        assert done.error["errorType"] == "PdfthinBadItem", done.error
    assert not s3.list_objects_v2(Bucket="results", Prefix="elsewhere/").get("Contents")
    # Plain requests still answer as before in the same container.
    assert "operation must be one of" in invoke({"operation": "nope"}).result["error"]["message"]


def test_a_rerun_skips_an_output_made_from_the_same_object_with_the_same_options(
    functions: local_map.Functions, endpoint: str
) -> None:
    s3 = s3_client(endpoint)
    key = "in/rerun/doc.pdf"

    def record(**extra: Any) -> dict[str, Any]:
        done = functions.runtime.invoke(item(key, **extra), function_timeout=60)
        assert done.error is None, done.error
        return done.result  # type: ignore[no-any-return]

    s3.put_object(Bucket="docs", Key=key, Body=ALPHA)
    try:
        first = record()
        assert first["status"] == "ok"
        again = record()
        assert again["status"] == "skipped"
        assert {k: again[k] for k in first if k != "seconds"} == {
            **{k: first[k] for k in first if k != "seconds"},
            "status": "skipped",
        }
        assert record(pages="1")["status"] == "ok"  # other options: made again
        assert record(pages="1")["status"] == "skipped"
        s3.put_object(Bucket="docs", Key=key, Body=BETA)  # another object at the key
        changed = record(pages="1")
        assert changed["status"] == "ok"
        assert changed["fingerprint"] == hashlib.sha256(BETA).hexdigest()
    finally:
        s3.delete_object(Bucket="docs", Key=key)


def test_an_item_out_of_time_is_a_retryable_timeout(
    functions: local_map.Functions, endpoint: str
) -> None:
    s3 = s3_client(endpoint)
    key = "in/slow/dense.pdf"
    s3.put_object(Bucket="docs", Key=key, Body=dense_pdf(10))
    try:
        # Lambda's deadline 1.3 s away: the handler keeps 1 s back, the document gets 0.3 s.
        done = functions.runtime.invoke(item(key), function_timeout=1.3)
        assert done.result is None
        assert done.error["errorType"] == "PdfthinTimeout", done.error
        assert done.error["errorMessage"].startswith("timeout:")
        assert "PdfthinTimeout" in RETRYABLE
    finally:
        s3.delete_object(Bucket="docs", Key=key)
    assert not s3.list_objects_v2(Bucket="results", Prefix="pdfthin/slow/").get("Contents")


def test_an_item_finished_after_its_timeout_writes_no_output(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The document is done just as the time runs out (the answer ``timeout`` already given
    # by then, as the runtime's thread may give it): its output is not written after it.
    from types import SimpleNamespace

    from pdfthin.adapters.aws import items as aws_items
    from pdfthin.batch import work
    from pdfthin.deadline import Deadline

    deadline = Deadline(60)
    uploads: list[str] = []

    def finished_late(task: Any) -> Any:
        Path(task.output).write_text("done")
        deadline.cancel()  # the time ran out while the last page was read
        return SimpleNamespace(
            error=None, seconds=0.1, manifest_entry=lambda digest: {"status": "ok"}
        )

    monkeypatch.setattr(work, "process", finished_late)
    monkeypatch.setattr(aws_items, "_still_good", lambda *args: None)
    monkeypatch.setattr(aws_items, "_check_output", lambda *args: None)
    monkeypatch.setattr(aws_items, "_upload", lambda docs, path, *rest: uploads.append(path))
    documents = SimpleNamespace(load=lambda spec: SimpleNamespace(version="1", etag="e"))
    config = SimpleNamespace(outputs=(), max_output_bytes=1 << 20)
    app = SimpleNamespace(config=config, documents=documents)
    with pytest.raises(ItemError) as raised:
        aws_items.run_item(app, item("in/a/alpha.pdf"), deadline)
    assert type(raised.value).__name__ == "PdfthinTimeout", raised.value
    assert uploads == []


# --- the Map, played locally ------------------------------------------------------------------


def machine(**values: str) -> dict[str, Any]:
    base = {
        "SourceBucket": "docs",
        "SourcePrefix": "in/",
        "OutputBucket": "results",
        "OutputPrefix": "pdfthin/",
    }
    return local_map.definition(MACHINES / "listing.asl.json", {**base, **values})


def test_the_distributed_map_played_locally(functions: local_map.Functions, endpoint: str) -> None:
    s3 = s3_client(endpoint)
    invoke = functions
    run = local_map.run_map(
        machine(ToleratedFailurePercentage="25"), s3, invoke, jobs=2, run_id="ok"
    )
    # 5 objects, 1 bad: 20 % failed, under 25 %.
    assert run.status == "SUCCEEDED", run
    strict = local_map.run_map(
        machine(ToleratedFailurePercentage="0", ToleratedFailureCount="0", MaxConcurrency="1"),
        s3,
        invoke,
        jobs=2,
        run_id="strict",
    )
    # alpha's output may be there already from the test above (skipped: made from the same
    # object with the same options).
    statuses = sorted(o.output["status"].replace("skipped", "ok") for o in run.succeeded)
    assert statuses == ["ignored", "ignored", "ok", "ok"]
    (failed,) = run.failed
    assert failed.error is not None and failed.error[0] == "PdfthinBadDocument"
    assert failed.attempts == 1  # a bad document is not retried
    assert failed.input["batch_item"]["source"]["key"] == "in/broken.pdf"
    # The ResultWriter's files, as Step Functions writes them.
    manifest = json.loads(
        s3.get_object(Bucket="results", Key="pdfthin/_manifests/ok/manifest.json")["Body"].read()
    )
    assert manifest["DestinationBucket"] == "results"
    (succeeded_file,) = manifest["ResultFiles"]["SUCCEEDED"]
    succeeded = json.loads(
        s3.get_object(Bucket="results", Key=succeeded_file["Key"])["Body"].read()
    )
    outputs = {json.loads(e["Output"]).get("output", {}).get("key") for e in succeeded}
    assert {"pdfthin/a/alpha.chunks.jsonl", "pdfthin/beta.chunks.jsonl"} <= outputs
    for key in outputs - {None}:
        s3.head_object(Bucket="results", Key=key)
    (failed_file,) = manifest["ResultFiles"]["FAILED"]
    (entry,) = json.loads(s3.get_object(Bucket="results", Key=failed_file["Key"])["Body"].read())
    assert entry["Error"] == "PdfthinBadDocument" and "errorMessage" in json.loads(entry["Cause"])
    # No failure tolerated, one at a time: the run stops at the bad document.
    assert strict.status == "FAILED" and len(strict.failed) == 1
    assert len(strict.succeeded) + len(strict.failed) + len(strict.pending) == 5


def test_the_retry_of_the_definition_retries_throttles_and_timeouts_only() -> None:
    (task,) = local_map.map_state(machine())["ItemProcessor"]["States"].values()
    retried = {name for rule in task["Retry"] for name in rule["ErrorEquals"]}
    assert {n for n in retried if n.startswith("Pdfthin")} == set(RETRYABLE)

    def failing(name: str, times: int) -> Any:
        calls: list[int] = []

        def invoke(event: dict[str, Any]) -> Any:
            calls.append(1)
            return (name, "{}") if len(calls) <= times else {"status": "ok"}

        return invoke

    busy = local_map.run_task(task, failing("PdfthinBusy", 2), {}, retry_scale=0)
    assert (busy.error, busy.attempts) == (None, 3)
    timeout = local_map.run_task(task, failing("PdfthinTimeout", 5), {}, retry_scale=0)
    assert (timeout.error is not None, timeout.attempts) == (True, 2)
    for name in ("PdfthinBadDocument", "PdfthinBadItem", "PdfthinInternal"):
        bad = local_map.run_task(task, failing(name, 1), {}, retry_scale=0)
        assert (bad.error is not None, bad.attempts) == (True, 1)


# --- the contract in process --------------------------------------------------------------------


def test_every_error_code_has_an_error_name() -> None:
    assert set(ERROR_NAMES) == set(ERROR_CODES) == set(STATUS)
    assert set(RETRYABLE) <= set(ERROR_NAMES.values())


def test_requests_do_not_load_the_batch_code() -> None:
    code = (
        "import sys\n"
        "from pdfthin.adapters.aws.handler import APP\n"
        "APP({'operation': 'nope'})\n"
        "print(sorted(m for m in sys.modules"
        " if m.startswith(('pdfthin.batch', 'pdfthin.exports'))))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PDFTHIN_NATIVE": "off"}
    env.pop("PDFTHIN_S3_BUCKETS", None)
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env
    )
    assert out.stdout.strip() == "[]"


def test_an_item_is_told_apart_from_requests() -> None:
    assert kind_of(item("in/a.pdf")) == ITEM
    assert kind_of({"operation": "read_pages", "document": {}}) == DIRECT
    assert kind_of({"operation": "read_pages", "batch_item": {}}) == ITEM  # refused below
    app = LambdaApp(Config())
    with pytest.raises(ItemError) as raised:
        app({"operation": "read_pages", "batch_item": {}})
    assert type(raised.value).__name__ == "PdfthinBadItem"


@pytest.mark.parametrize(
    "change",
    [
        {"format": "jsonl"},
        {"pages": 5},
        {"max_tokens": -1},
        {"stitch": "yes"},
        {"timeout_seconds": 0},
        {"extra": 1},
        {"source": {"bucket": "docs"}},
        {"source": {"bucket": "docs", "key": "a.pdf", "key_encoding": "base64"}},
        {"output": "results"},
    ],
)
def test_a_bad_item_is_invalid_argument(change: dict[str, Any]) -> None:
    event = item("in/a.pdf")
    event["batch_item"].update(change)
    from pdfthin.errors import PdfthinError

    with pytest.raises(PdfthinError) as raised:
        parse_item(event)
    assert raised.value.code in ("invalid_argument", "invalid_pages")
    with pytest.raises(ItemError) as failed:
        LambdaApp(Config())(event)
    assert type(failed.value).__name__ == "PdfthinBadItem"


def test_an_inventory_key_is_url_decoded() -> None:
    event = item("in/r%C3%A9sum%C3%A9+2024%2B.pdf")
    event["batch_item"]["source"]["key_encoding"] = "url"
    parsed = parse_item(event)
    assert (parsed.key, parsed.name) == ("in/résumé 2024+.pdf", "résumé 2024+.pdf")


# --- the template and the definitions ---------------------------------------------------------


def template() -> dict[str, Any]:
    decoded, problems = decode_str(TEMPLATE.read_text(encoding="utf-8"))
    assert not problems
    return decoded  # type: ignore[no-any-return]


def test_the_batch_template_matches_the_code_and_the_definitions() -> None:
    resources = template()["Resources"]
    function = resources["BatchFunction"]["Properties"]
    assert function["Handler"] == local_runtime.HANDLER
    assert (TEMPLATE.parent / function["CodeUri"]).resolve() == (
        ROOT / "dist" / "pdfthin-lambda.zip"
    )
    # The function reads the source prefix and writes the output prefix, nothing else.
    (policy,) = function["Policies"]
    actions = {s["Sid"]: (s["Action"], s["Resource"]) for s in policy["Statement"]}
    assert actions == {
        "ReadDocuments": (
            ["s3:GetObject", "s3:GetObjectVersion"],
            {"Fn::Sub": "arn:${AWS::Partition}:s3:::${SourceBucket}/${SourcePrefix}*"},
        ),
        "WriteOutputs": (
            ["s3:GetObject", "s3:PutObject"],
            {"Fn::Sub": "arn:${AWS::Partition}:s3:::${OutputBucket}/${OutputPrefix}*"},
        ),
    }
    variables = function["Environment"]["Variables"]
    config = Config.from_env(
        {name: "bucket/prefix/" if "_S3_" in name else "1000" for name in variables}
    )
    assert config.buckets and config.outputs  # the variables the code reads
    # Each machine's substitutions are exactly its definition's placeholders.
    for name, file in (("ListingMachine", "listing"), ("InventoryMachine", "inventory")):
        props = resources[name]["Properties"]
        assert props["DefinitionUri"] == f"statemachine/{file}.asl.json"
        text = (MACHINES / f"{file}.asl.json").read_text(encoding="utf-8")
        assert set(re.findall(r"\$\{(\w+)\}", text)) == set(props["DefinitionSubstitutions"])
        assert set(props["DefinitionSubstitutions"]) <= set(template()["Parameters"]) | {
            "FunctionArn"
        }
    # The two definitions differ only in their ItemReader (and the inventory's URL-encoded keys).
    listing, inventory = (
        json.loads((MACHINES / f"{f}.asl.json").read_text()) for f in ("listing", "inventory")
    )
    for d in (listing, inventory):
        d.pop("Comment")
        d["States"]["Documents"].pop("ItemReader")
        d["States"]["Documents"]["ItemSelector"]["batch_item"]["source"].pop("key_encoding", None)
    assert listing == inventory


def require_asl_validator() -> str:
    if ASL_VALIDATOR.is_file() and shutil.which("node"):
        return str(ASL_VALIDATOR)
    message = "asl-validator is not installed: npm ci --prefix tests/asl_validator"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def test_the_state_machine_definitions_are_valid_asl(tmp_path: Path) -> None:
    validator = require_asl_validator()
    files = sorted(MACHINES.glob("*.asl.json"))
    assert len(files) == 2
    # ... and the validator would catch a broken one: a Map without its ItemProcessor's start
    # (checked in the same run: one Node start).
    broken = json.loads(files[0].read_text())
    del broken["States"]["Documents"]["ItemProcessor"]["StartAt"]
    (tmp_path / "broken.asl.json").write_text(json.dumps(broken))
    paths = [*files, tmp_path / "broken.asl.json"]
    args = [validator, *(a for f in paths for a in ("--json-path", str(f)))]
    result = subprocess.run(args, check=False, capture_output=True, text=True, timeout=120)
    out = result.stdout + result.stderr
    for file in files:
        assert f'"{file}" is valid' in out, out
    assert f'"{tmp_path / "broken.asl.json"}" is invalid' in out, out
    assert "must have required property 'StartAt'" in out


#: Corpus documents the local Map run reads: the shortest, so the sweep stays short.
CORPUS_DOCUMENTS = 8


@pytest.mark.corpus
def test_the_map_played_locally_over_corpus_documents(
    functions: local_map.Functions, endpoint: str, tmp_path: Path
) -> None:
    """The same item loop over a few real PDFs: each output is what ``pdfthin batch`` writes
    for the file, and each failure is the failure it records, with a typed name."""
    require_corpus()
    chosen = sorted(
        (f for f in CORPUS_FILES if f.password is None and f.pages.isdigit()),
        key=lambda f: (int(f.pages), f.relpath),
    )[:CORPUS_DOCUMENTS]
    s3 = s3_client(endpoint)
    local = tmp_path / "corpus"
    for f in chosen:
        s3.put_object(Bucket="docs", Key=f"corpus/{f.relpath}", Body=f.path.read_bytes())
        (local / f.relpath).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f.path, local / f.relpath)
    run = local_map.run_map(
        machine(
            SourcePrefix="corpus/", OutputPrefix="pdfthin/corpus/", ToleratedFailurePercentage="100"
        ),
        s3,
        functions,
        jobs=2,
        run_id="corpus",
    )
    assert run.status == "SUCCEEDED" and not run.pending
    batch = run_batch(sources(str(local)), tmp_path / "out", Options(format="chunks"))
    expected = {r.name: r for r in batch.results}
    assert len(expected) == len(chosen) == len(run.succeeded) + len(run.failed)
    for outcome in run.succeeded:
        record = outcome.output
        want = expected[record["source"]]
        assert (record["status"], record["fingerprint"]) == ("ok", want.fingerprint)
        written = s3.get_object(Bucket="results", Key=record["output"]["key"])["Body"].read()
        assert written == Path(want.output or "").read_bytes(), record["source"]
    for outcome in run.failed:
        assert outcome.error is not None
        name, cause = outcome.error
        source = outcome.input["batch_item"]["source"]["key"].removeprefix("corpus/")
        want = expected[source]
        assert want.status == "failed" and want.error is not None
        assert name == ERROR_NAMES[want.error.code]
        assert json.loads(cause)["errorMessage"].startswith(want.error.code + ":")
