"""The set-up scripts and requirement files are in the shape the README promises."""

from __future__ import annotations

import os
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ["scripts/test", "scripts/run", "scripts/install-data", ".ci/run"]


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_is_executable_bash(name: str) -> None:
    path = ROOT / name
    assert path.is_file()
    assert os.access(path, os.X_OK), f"chmod +x {name}"
    assert path.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash\n")
    subprocess.run(["bash", "-n", str(path)], check=True)


def test_scripts_never_download_browsers() -> None:
    for name in SCRIPTS:
        assert "playwright install" not in _code_lines(ROOT / name), name


def _code_lines(path: Path) -> str:
    return "\n".join(
        line for line in path.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("#")
    )


def _requirements(name: str) -> list[str]:
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_runtime_requirements_are_the_agreed_set() -> None:
    names = {Requirement(line).name for line in _requirements("requirements.txt")}
    assert names == {"streamlit", "pandas", "altair", "regex", "tiktoken", "quicktok-v1", "mistral-common", "sentencepiece",
                     "gflanguages"}


def test_dev_requirements_extend_runtime() -> None:
    lines = _requirements("requirements-dev.txt")
    assert lines[0] == "-r requirements.txt"
    assert {Requirement(line).name for line in lines[1:]} == {"pytest", "hypothesis", "tokenizers", "playwright"}


@pytest.mark.parametrize("name", ["requirements.txt", "requirements-dev.txt"])
def test_installed_versions_meet_lower_bounds(name: str) -> None:
    for line in _requirements(name):
        if line.startswith("-r"):
            continue
        req = Requirement(line)
        assert any(spec.operator == ">=" for spec in req.specifier), f"{line}: give a lower bound"
        try:
            installed = version(req.name)
        except PackageNotFoundError:
            pytest.fail(f"{req.name} is not installed")
        assert req.specifier.contains(installed, prereleases=True), f"{req.name} {installed} vs {line}"


def test_ci_fails_rather_than_skips_without_a_browser() -> None:
    """On a developer machine without Chromium the browser tests skip; in CI they must fail."""
    import sys

    root = Path(__file__).resolve().parents[1]
    base = {**os.environ, "LAB_CHROMIUM": "/nonexistent/chromium"}
    base.pop("CI", None)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/browser/test_page_train.py"]
    local = subprocess.run(cmd, cwd=root, env=base, capture_output=True, text=True, timeout=120)
    ci = subprocess.run(cmd, cwd=root, env={**base, "CI": "true"}, capture_output=True, text=True, timeout=120)
    assert local.returncode in (0, 5) and "1 skipped" in local.stdout  # 5: the module alone collects nothing
    assert ci.returncode != 0 and "CI must run the browser tests" in ci.stdout
