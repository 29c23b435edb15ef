"""Play the Step Functions Distributed Map of deploy/batch-template.yaml on this machine: no
AWS, no Docker. It reads the same state machine definition (deploy/statemachine/*.asl.json,
with the template's substitutions), lists the source prefix (or reads an S3 inventory
report) as its ItemReader does, shapes each item with its ItemSelector, invokes the Lambda
handler under the real runtime client (deploy/local_runtime.py) for each, ``--jobs`` at a
time, retries as its Retry says, stops once the failures pass its tolerated percentage or
count, and writes the run's results as its ResultWriter does (``manifest.json``,
``SUCCEEDED_0.json``, ``FAILED_0.json``, ``PENDING_0.json`` under
``<prefix>_manifests/<run>/``)::

    python deploy/local_map.py --endpoint http://127.0.0.1:5000 --code . \\
        --set SourceBucket=docs --set SourcePrefix=in/ --set OutputBucket=out \\
        --set OutputPrefix=pdfthin/ --jobs 2

S3 is whatever ``--endpoint`` serves (a moto server in the tests). What only AWS does is not
played: child executions, their history and redrive, Lambda's scaling and throttling.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import local_runtime

ROOT = Path(__file__).resolve().parent.parent
LISTING = ROOT / "deploy" / "statemachine" / "listing.asl.json"
#: The template's defaults for what a run need not set.
DEFAULTS = {
    "SourcePrefix": "",
    "OutputPrefix": "pdfthin/",
    "Format": "chunks",
    "Pages": "",
    "FunctionArn": "arn:aws:lambda:us-east-1:123456789012:function:pdfthin-local",
    "MaxConcurrency": "100",
    "ToleratedFailurePercentage": "5",
    "ToleratedFailureCount": "1000000",
    "InventoryBucket": "",
    "InventoryManifestKey": "",
}

#: An error answer: (Error, Cause) as Step Functions sees a failed Lambda task.
Failure = tuple[str, str]
Invoke = Callable[[dict[str, Any]], "dict[str, Any] | Failure"]


def definition(path: Path, substitutions: dict[str, str]) -> dict[str, Any]:
    """The definition with ``${Name}`` replaced, as DefinitionSubstitutions does."""
    values = {**DEFAULTS, **substitutions}
    text = path.read_text(encoding="utf-8")

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise SystemExit(f"{path.name}: ${{{name}}} needs a value (--set {name}=...)")
        return json.dumps(values[name])[1:-1]  # inside a JSON string

    return json.loads(re.sub(r"\$\{(\w+)\}", value, text))  # type: ignore[no-any-return]


def map_state(machine: dict[str, Any]) -> dict[str, Any]:
    (state,) = (s for s in machine["States"].values() if "ItemReader" in s)
    return state  # type: ignore[no-any-return]


def settings(machine: dict[str, Any]) -> dict[str, Any]:
    """The Pass state's numbers (``States.StringToJson('...')`` is the one intrinsic used)."""
    out: dict[str, Any] = {}
    for state in machine["States"].values():
        if state["Type"] == "Pass":
            for key, expr in state.get("Parameters", {}).items():
                match = re.fullmatch(r"States\.StringToJson\('(.*)'\)", expr)
                assert key.endswith(".$") and match, (key, expr)
                out[key[:-2]] = json.loads(match.group(1))
    return out


def items(s3: Any, reader: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The ItemReader's items: the listing's objects, or the inventory report's rows."""
    params = reader["Parameters"]
    if reader["Resource"].endswith(":s3:listObjectsV2"):
        pages = s3.get_paginator("list_objects_v2").paginate(
            Bucket=params["Bucket"], Prefix=params.get("Prefix", "")
        )
        for page in pages:
            for obj in page.get("Contents", ()):
                yield {
                    "Etag": obj["ETag"],
                    "Key": obj["Key"],
                    "LastModified": int(obj["LastModified"].timestamp()),
                    "Size": obj["Size"],
                    "StorageClass": obj.get("StorageClass", "STANDARD"),
                }
        return
    assert reader["ReaderConfig"]["InputType"] == "MANIFEST", reader
    body = s3.get_object(Bucket=params["Bucket"], Key=params["Key"])["Body"].read()
    manifest = json.loads(body)
    for file in manifest["files"]:
        data = s3.get_object(Bucket=params["Bucket"], Key=file["key"])["Body"].read()
        for line in gzip.decompress(data).decode("utf-8").splitlines():
            bucket, key = (part.strip('"') for part in line.split(",")[:2])
            yield {"Bucket": bucket, "Key": key}


def select(selector: Any, item: dict[str, Any]) -> Any:
    """``selector`` applied to one item (``$$.Map.Item.Value.<field>`` paths only)."""
    if isinstance(selector, dict):
        out = {}
        for key, value in selector.items():
            if key.endswith(".$"):
                path = value.removeprefix("$$.Map.Item.Value.")
                assert path != value and "." not in path, value
                out[key[:-2]] = item[path]
            else:
                out[key] = select(value, item)
        return out
    return selector


@dataclass
class Outcome:
    input: dict[str, Any]
    started: float
    stopped: float = 0.0
    output: Any = None
    error: Failure | None = None
    attempts: int = 0


def run_task(
    task: dict[str, Any], invoke: Invoke, event: dict[str, Any], retry_scale: float = 1.0
) -> Outcome:
    """One item through the Task state: invoked, retried as its Retry says."""
    outcome = Outcome(event, time.time())
    tries: dict[int, int] = {}
    while True:
        outcome.attempts += 1
        answer = invoke(event)
        if not isinstance(answer, tuple):
            outcome.output, outcome.error = answer, None
            break
        outcome.error = answer
        rule = next(
            (
                i
                for i, r in enumerate(task.get("Retry", ()))
                if answer[0] in r["ErrorEquals"] or "States.ALL" in r["ErrorEquals"]
            ),
            None,
        )
        if rule is None:
            break
        retrier = task["Retry"][rule]
        done = tries.get(rule, 0)
        if done >= retrier.get("MaxAttempts", 3):
            break
        tries[rule] = done + 1
        wait_s = retrier.get("IntervalSeconds", 1) * retrier.get("BackoffRate", 2.0) ** done
        time.sleep(wait_s * retry_scale)
    outcome.stopped = time.time()
    return outcome


@dataclass
class MapRun:
    status: str  # SUCCEEDED or FAILED
    succeeded: list[Outcome] = field(default_factory=list)
    failed: list[Outcome] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)
    manifest_key: str = ""
    error: str | None = None


def run_map(
    machine: dict[str, Any],
    s3: Any,
    invoke: Invoke,
    *,
    jobs: int,
    retry_scale: float = 1.0,
    run_id: str | None = None,
) -> MapRun:
    """The Map state over its items, ``min(jobs, MaxConcurrency)`` at a time."""
    state = map_state(machine)
    numbers = settings(machine)
    (task,) = state["ItemProcessor"]["States"].values()
    concurrency = min(jobs, int(numbers.get("max_concurrency") or jobs))
    events = [select(state["ItemSelector"], item) for item in items(s3, state["ItemReader"])]
    total = len(events)
    max_count = numbers.get("tolerated_failure_count")
    max_percent = numbers.get("tolerated_failure_percentage")
    run = MapRun("SUCCEEDED")
    lock = threading.Lock()

    def over() -> bool:
        failed = len(run.failed)
        return (max_count is not None and failed > max_count) or (
            max_percent is not None and total and failed * 100 / total > max_percent
        )

    queue = iter(events)
    with ThreadPoolExecutor(concurrency) as pool:
        running: set[Future[Outcome]] = set()
        while True:
            while not over() and len(running) < concurrency:
                event = next(queue, None)
                if event is None:
                    break
                running.add(pool.submit(run_task, task, invoke, event, retry_scale))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            with lock:
                for future in done:
                    outcome = future.result()
                    (run.failed if outcome.error else run.succeeded).append(outcome)
            if over():
                run.status, run.error = "FAILED", "States.ExceedToleratedFailureThreshold"
    run.pending = list(queue)
    if run.status == "FAILED" or run.pending:
        run.status = "FAILED"
    writer = state.get("ResultWriter")
    if writer is not None:
        run.manifest_key = write_results(s3, writer["Parameters"], run, run_id)
    return run


def write_results(s3: Any, where: dict[str, str], run: MapRun, run_id: str | None) -> str:
    """The ResultWriter's files: ``<Prefix>/<run>/manifest.json`` and one file per status,
    each an array of child executions (Input and Output as JSON text, as AWS writes them)."""
    bucket, prefix = where["Bucket"], where["Prefix"].rstrip("/")
    run_id = run_id or uuid.uuid4().hex
    arn = f"arn:aws:states:us-east-1:123456789012:mapRun:pdfthin-local/{run_id}"
    files: dict[str, list[dict[str, Any]]] = {"FAILED": [], "PENDING": [], "SUCCEEDED": []}

    def record(status: str, outcome: Outcome) -> dict[str, Any]:
        entry = {
            "ExecutionArn": f"{arn}:{uuid.uuid4()}",
            "Input": json.dumps(outcome.input),
            "Name": uuid.uuid4().hex,
            "StartDate": _date(outcome.started),
            "StopDate": _date(outcome.stopped),
            "Status": status,
        }
        if outcome.error is None:
            entry["Output"] = json.dumps(outcome.output)
        else:
            entry["Error"], entry["Cause"] = outcome.error
        return entry

    results = {
        "SUCCEEDED": [record("SUCCEEDED", o) for o in run.succeeded],
        "FAILED": [record("FAILED", o) for o in run.failed],
        "PENDING": [{"Input": json.dumps(e), "Status": "PENDING"} for e in run.pending],
    }
    for status, entries in results.items():
        if entries:
            key = f"{prefix}/{run_id}/{status}_0.json"
            body = json.dumps(entries).encode("utf-8")
            s3.put_object(Bucket=bucket, Key=key, Body=body)
            files[status].append({"Key": key, "Size": len(body)})
    manifest = {"DestinationBucket": bucket, "MapRunArn": arn, "ResultFiles": files}
    key = f"{prefix}/{run_id}/manifest.json"
    s3.put_object(Bucket=bucket, Key=key, Body=json.dumps(manifest).encode("utf-8"))
    return key


def _date(seconds: float) -> str:
    return (
        time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        + f".{int(seconds % 1 * 1000):03d}Z"
    )


class Functions:
    """``jobs`` function processes (containers) under the real runtime client, polling one
    local Runtime API: each invocation goes to whichever is free, as Lambda's would."""

    def __init__(
        self, code: Path, env: dict[str, str], jobs: int, function_timeout: float = 300.0
    ) -> None:
        self.runtime = local_runtime.LocalRuntime()
        self.function_timeout = function_timeout
        self.processes = [
            local_runtime.FunctionProcess(self.runtime, code, env) for _ in range(jobs)
        ]

    def __enter__(self) -> Functions:
        for process in self.processes:
            process.wait_ready()
        return self

    def __exit__(self, *exc: object) -> None:
        for process in self.processes:
            process.stop()
        self.runtime.close()

    def __call__(self, event: dict[str, Any]) -> dict[str, Any] | Failure:
        invocation = self.runtime.invoke(
            event, timeout=self.function_timeout + 60, function_timeout=self.function_timeout
        )
        if invocation.error is not None:
            error = invocation.error
            name = error.get("errorType", "") if isinstance(error, dict) else ""
            return (name or "Lambda.Unknown", json.dumps(error))
        return invocation.result  # type: ignore[no-any-return]


def s3_env(endpoint: str) -> dict[str, str]:
    """What boto3 in the function needs to reach the local S3 (and nothing else)."""
    return {
        "AWS_ENDPOINT_URL_S3": endpoint,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REGION": "us-east-1",
        "AWS_EC2_METADATA_DISABLED": "true",
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
    }


def function_env(values: dict[str, str], endpoint: str) -> dict[str, str]:
    """The function's environment as deploy/batch-template.yaml sets it."""
    v = {**DEFAULTS, **values}
    return {
        **s3_env(endpoint),
        "PDFTHIN_NATIVE": os.environ.get("PDFTHIN_NATIVE", "off"),
        "PDFTHIN_S3_BUCKETS": f"{v['SourceBucket']}/{v['SourcePrefix']}",
        "PDFTHIN_S3_OUTPUT": f"{v['OutputBucket']}/{v['OutputPrefix']}",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--endpoint", required=True, help="the S3 endpoint URL (e.g. moto)")
    parser.add_argument("--code", type=Path, default=ROOT, help="the function's code folder")
    parser.add_argument("--definition", type=Path, default=LISTING)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    values = dict(item.split("=", 1) for item in args.set)
    machine = definition(args.definition, values)
    import boto3

    s3 = boto3.client("s3", endpoint_url=args.endpoint, **_credentials())
    started = time.perf_counter()
    with Functions(args.code, function_env(values, args.endpoint), args.jobs) as invoke:
        run = run_map(machine, s3, invoke, jobs=args.jobs)
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "status": run.status,
                "error": run.error,
                "succeeded": len(run.succeeded),
                "failed": len(run.failed),
                "pending": len(run.pending),
                "manifest": run.manifest_key,
                "seconds": round(seconds, 2),
            }
        )
    )
    return 0 if run.status == "SUCCEEDED" else 1


def _credentials() -> dict[str, str]:
    env = s3_env("")
    return {
        "region_name": "us-east-1",
        "aws_access_key_id": env["AWS_ACCESS_KEY_ID"],
        "aws_secret_access_key": env["AWS_SECRET_ACCESS_KEY"],
        "aws_session_token": env["AWS_SESSION_TOKEN"],
    }


if __name__ == "__main__":
    raise SystemExit(main())
