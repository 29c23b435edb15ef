"""The command line as a user runs it: ``python -m pdfthin`` in a new process."""

from __future__ import annotations

import subprocess
import sys


def pdfthin_cli_bytes(
    *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[bytes]:
    """``pdfthin ARGS`` with ``stdin``; its exit code and its output as bytes (an image)."""
    return subprocess.run(
        [sys.executable, "-m", "pdfthin", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def pdfthin_cli(
    *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``pdfthin ARGS`` with ``stdin``; its exit code and its output as UTF-8 text."""
    done = pdfthin_cli_bytes(*args, stdin=stdin, env=env, timeout=timeout)
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )
