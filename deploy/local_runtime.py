"""A local stand-in for the AWS Lambda Runtime API, to run a handler under the real runtime
client (``awslambdaric``) on this machine: no Docker, no AWS.

It serves the four endpoints the runtime client uses (``invocation/next``, ``.../response``,
``.../error``, ``init/error``) on 127.0.0.1, hands out queued events with Lambda's headers
(request id, deadline, function ARN), and, like Lambda, refuses a response larger than the
6 MB synchronous payload limit. Used by the tests, the benchmark, and by hand::

    python deploy/build_zip.py
    python deploy/local_runtime.py --zip dist/pdfthin-lambda.zip event.json [event.json ...]

prints each response, the init time and each invocation's time. The function runs as
``python -m awslambdaric pdfthin.adapters.aws.handler.handler`` with the unpacked zip as its code
(``PYTHONPATH``), its working directory and no bytecode writing, as on Lambda's read-only
``/var/task``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HANDLER = "pdfthin.adapters.aws.handler.handler"
#: Lambda's limit on a synchronous invocation's response (6 MB).
RESPONSE_LIMIT = 6 * 1024 * 1024
_PREFIX = "/2018-06-01/runtime"


@dataclass
class Invocation:
    request_id: str
    event: bytes
    deadline_ms: int
    done: threading.Event = field(default_factory=threading.Event)
    sent_at: float = 0.0  # when the runtime client received the event
    seconds: float = 0.0  # from then until the response (or error) arrived
    result: Any = None  # the response payload, parsed
    error: Any = None  # the error payload when the function failed (or answered too much)


class LocalRuntime:
    """The Runtime API on ``127.0.0.1:<port>``; ``address`` is the value of
    ``AWS_LAMBDA_RUNTIME_API``."""

    def __init__(self) -> None:
        self._pending: queue.Queue[Invocation] = queue.Queue()
        self._by_id: dict[str, Invocation] = {}
        self.polled = threading.Event()  # the function finished init and asked for work
        self.first_poll_at = 0.0
        self.init_error: Any = None
        runtime = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out as separate writes: without TCP_NODELAY, Nagle's
            # algorithm and the client's delayed ACK add 40 ms to every invocation.
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if self.path != f"{_PREFIX}/invocation/next":
                    self._reply(404, b"{}")
                    return
                if not runtime.polled.is_set():
                    runtime.first_poll_at = time.perf_counter()
                    runtime.polled.set()
                invocation = runtime._pending.get()
                headers = {
                    "Lambda-Runtime-Aws-Request-Id": invocation.request_id,
                    "Lambda-Runtime-Deadline-Ms": str(invocation.deadline_ms),
                    "Lambda-Runtime-Invoked-Function-Arn": (
                        "arn:aws:lambda:us-east-1:123456789012:function:pdfthin"
                    ),
                    "Lambda-Runtime-Trace-Id": "Root=1-00000000-000000000000000000000000",
                    "Content-Type": "application/json",
                }
                invocation.sent_at = time.perf_counter()
                self._reply(200, invocation.event, headers)

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                parts = self.path[len(_PREFIX) :].strip("/").split("/")
                if parts == ["init", "error"]:
                    runtime.init_error = _parse(body)
                    runtime.polled.set()
                    self._reply(202, b"{}")
                    return
                invocation = runtime._by_id.get(parts[1]) if len(parts) == 3 else None
                if invocation is None or parts[2] not in ("response", "error"):
                    self._reply(404, b"{}")
                    return
                invocation.seconds = time.perf_counter() - invocation.sent_at
                if parts[2] == "error":
                    invocation.error = _parse(body)
                elif len(body) > RESPONSE_LIMIT:
                    # What Lambda does with an oversized response.
                    invocation.error = {
                        "errorType": "Function.ResponseSizeTooLarge",
                        "errorMessage": f"Response payload size ({len(body)} bytes) exceeded "
                        f"maximum allowed payload size ({RESPONSE_LIMIT} bytes).",
                    }
                else:
                    invocation.result = _parse(body)
                invocation.done.set()
                self._reply(202, b'{"status":"OK"}')

            def _reply(
                self, status: int, body: bytes, headers: dict[str, str] | None = None
            ) -> None:
                self.send_response(status)
                for name, value in (headers or {"Content-Type": "application/json"}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def address(self) -> str:
        host, port = self._server.server_address[:2]
        return f"{host}:{port}"

    def invoke(
        self, event: Any, timeout: float = 120.0, function_timeout: float = 60.0
    ) -> Invocation:
        """Queue ``event`` (JSON-encoded here, as Lambda delivers it) and wait for the answer.
        ``function_timeout`` sets the deadline the handler sees."""
        invocation = Invocation(
            request_id=str(uuid.uuid4()),
            event=json.dumps(event).encode("utf-8"),
            deadline_ms=int((time.time() + function_timeout) * 1000),
        )
        self._by_id[invocation.request_id] = invocation
        self._pending.put(invocation)
        if not invocation.done.wait(timeout):
            raise TimeoutError(f"no answer to invocation {invocation.request_id} in {timeout} s")
        return invocation

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LocalRuntime:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A function process killed while it waits for an event drops its connection: that
        # is how every test and benchmark ends a container, not an error.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _parse(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")


class FunctionProcess:
    """The function: ``python -m awslambdaric HANDLER`` against ``runtime``, with ``code`` (a
    directory, e.g. the unpacked zip) first on its path and as its working directory."""

    def __init__(
        self,
        runtime: LocalRuntime,
        code: Path,
        env: dict[str, str] | None = None,
        python: str = sys.executable,
        handler: str = HANDLER,
    ) -> None:
        self.runtime = runtime
        environ = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PDFTHIN_", "AWS_", "PYTHON"))
        }
        environ.update(
            {
                "AWS_LAMBDA_RUNTIME_API": runtime.address,
                "AWS_LAMBDA_FUNCTION_NAME": "pdfthin",
                "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024",
                "AWS_REGION": "us-east-1",
                "AWS_DEFAULT_REGION": "us-east-1",
                "LAMBDA_TASK_ROOT": str(code),
                "PYTHONPATH": str(code),
                # /var/task is read-only on Lambda: nothing is compiled to disk there.
                "PYTHONDONTWRITEBYTECODE": "1",
                **(env or {}),
            }
        )
        self.started_at = time.perf_counter()
        self.process = subprocess.Popen(
            [python, "-m", "awslambdaric", handler],
            cwd=code,
            env=environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self._output: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._output.append(line)

    @property
    def output(self) -> str:
        """What the function printed (its logs)."""
        return b"".join(self._output).decode("utf-8", "replace")

    def wait_ready(self, timeout: float = 60.0) -> float:
        """Seconds from the process start until the runtime client first asked for work
        (interpreter start, runtime client start, and the handler module's import)."""
        if not self.runtime.polled.wait(timeout):
            raise TimeoutError(f"the function did not start in {timeout} s:\n{self.output}")
        if self.runtime.init_error is not None:
            raise RuntimeError(f"init failed: {self.runtime.init_error}\n{self.output}")
        return self.runtime.first_poll_at - self.started_at

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)
        self._reader.join(timeout=5)


def unpack(zip_path: Path, into: Path) -> Path:
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(into)
    return into


def setup_problem(zip_path: Path, events: list[Path]) -> str | None:
    """What would keep the function from starting, in one line, before anything waits for it:
    the runtime client missing, no zip, a zip whose bytecode is another Python's, an event file
    that is not JSON."""
    if importlib.util.find_spec("awslambdaric") is None:
        return (
            f"the runtime client awslambdaric is not installed for {sys.executable}: "
            "pip install awslambdaric"
        )
    if not zip_path.is_file():
        return f"no zip at {zip_path}: build it with python deploy/build_zip.py"
    try:
        with zipfile.ZipFile(zip_path) as archive:
            compiled = next((n for n in archive.namelist() if n.endswith(".pyc")), None)
            magic = archive.read(compiled)[:4] if compiled else None
    except (OSError, zipfile.BadZipFile) as exc:
        return f"{zip_path} is not a readable zip: {exc}"
    if magic is not None and magic != importlib.util.MAGIC_NUMBER:
        version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
        return (
            f"{zip_path} holds bytecode for another Python than this {version}: run this with "
            "the Python the zip was built for (the runtime's), or build the zip with --sources"
        )
    for path in events:
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return f"event {path}: {exc}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zip", type=Path, default=Path("dist/pdfthin-lambda.zip"))
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the function")
    parser.add_argument("events", nargs="+", type=Path, help="event JSON files, invoked in order")
    args = parser.parse_args(argv)
    problem = setup_problem(args.zip, args.events)
    if problem is not None:
        print(f"local_runtime.py: {problem}", file=sys.stderr)
        return 2
    env = dict(item.split("=", 1) for item in args.env)
    with tempfile.TemporaryDirectory() as tmp, LocalRuntime() as runtime:
        function = FunctionProcess(runtime, unpack(args.zip, Path(tmp)), env)
        try:
            print(f"init: {function.wait_ready() * 1000:.0f} ms", file=sys.stderr)
            for path in args.events:
                invocation = runtime.invoke(json.loads(path.read_text(encoding="utf-8")))
                print(f"{path}: {invocation.seconds * 1000:.0f} ms", file=sys.stderr)
                answer = invocation.result if invocation.error is None else invocation.error
                print(json.dumps(answer, ensure_ascii=False))
        finally:
            function.stop()
            sys.stderr.write(function.output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
