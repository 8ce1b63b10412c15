"""Running the command line from tests, the two ways the tests need: in this process (fast, capsys) or as a
real subprocess (argv bytes, standard input, exit codes, as a shell runs it). One copy for every CLI test."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import cli

ROOT = Path(__file__).resolve().parents[1]


def run_cli(capsys, *args: str, stdin: bytes | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """``python -m tokenizer ARGS`` in this process: (exit code, stdout, stderr)."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def cli_process(*args, cwd: Path = ROOT, stdin: bytes | None = None, env_extra: dict | None = None,
                text: bool = True) -> subprocess.CompletedProcess:
    """``python -m tokenizer ARGS`` as a separate process (``text=False``: stdout and stderr as bytes)."""
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "tokenizer", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=text and stdin is None, env=env, timeout=120)


def assert_one_line_error(code: int, err: str, *needles: str) -> str:
    """A mistake in the input: exit code 2 and exactly one line on stderr (no traceback) saying what."""
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]
