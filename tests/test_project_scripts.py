"""The set-up scripts and requirement files are in the shape the README promises."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ["scripts/test", "scripts/run", "scripts/install", "scripts/install-data", ".ci/run", "scripts/serve",
           "scripts/lock"]


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
                     "gflanguages", "psycopg", "segno", "tqdm", "babel"}


def test_dev_requirements_extend_runtime() -> None:
    lines = _requirements("requirements-dev.txt")
    assert lines[0] == "-r requirements.txt"
    assert {Requirement(line).name for line in lines[1:]} == {"pytest", "hypothesis", "tokenizers", "playwright",
                                                               "axe-playwright-python", "ruff", "mypy", "pytest-xdist",
                                                               "uv"}


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


def pytest_here_and_in_ci(*args: str, env: dict[str, str]) -> tuple[subprocess.CompletedProcess, ...]:
    """Run ``pytest ARGS`` in a child twice, with ``env`` added to this environment: as on a developer machine
    (no ``CI``) and as in CI (``CI=true``). The suite's one way to run pytest inside pytest."""
    base = {**os.environ, **env}
    base.pop("CI", None)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    local = subprocess.run(cmd, cwd=ROOT, env=base, capture_output=True, text=True, timeout=120)
    ci = subprocess.run(cmd, cwd=ROOT, env={**base, "CI": "true"}, capture_output=True, text=True, timeout=120)
    return local, ci


def test_ci_fails_rather_than_skips_without_a_browser() -> None:
    """On a developer machine without Chromium the browser tests skip; in CI they must fail."""
    local, ci = pytest_here_and_in_ci("tests/browser/test_page_train.py",
                                      env={"LAB_CHROMIUM": "/nonexistent/chromium"})
    assert local.returncode in (0, 5) and "1 skipped" in local.stdout  # 5: the module alone collects nothing
    assert ci.returncode != 0 and "CI must run the browser tests" in ci.stdout


def _load_lock_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("lab_lock", ROOT / "scripts" / "lock.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lock_pins_exact_versions_of_the_whole_tree() -> None:
    """requirements.lock pins every package requirements-dev.txt needs, at the version installed here."""
    lock = _load_lock_module()
    lines = [line for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    for line in lines:
        req = Requirement(line)
        assert [spec.operator for spec in req.specifier] == ["=="], f"{line}: pin one exact version"
    assert not lock.differences(), "\n".join(lock.differences()) + "\n(run scripts/lock after a deliberate upgrade)"
    pinned = lock.read_lock()
    for line in _requirements("requirements.txt"):  # the lock lies within the requirements' lower bounds
        req = Requirement(line)
        assert req.specifier.contains(pinned[req.name.lower()], prereleases=True), line


def test_lock_check_reports_a_difference(tmp_path: Path) -> None:
    lock = _load_lock_module()
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    changed = tmp_path / "requirements.lock"
    changed.write_text(text.replace("\nstreamlit==", "\nstreamlit==0.1.0\n# was streamlit=="), encoding="utf-8")
    assert any(d.startswith("streamlit: installed") for d in lock.differences(changed))


@pytest.mark.parametrize("name, requirements", [("scripts/run", "requirements.txt"), ("scripts/serve", "requirements.txt"),
                                                ("scripts/test", "requirements-dev.txt")])
def test_scripts_install_the_locked_versions(name: str, requirements: str) -> None:
    """Each script installs through scripts/install, and every install there (uv's, pip's for uv itself, pip's when
    uv cannot be had) takes requirements.lock as constraints."""
    code = _code_lines(ROOT / name)
    assert f"scripts/install {requirements}" in code and "pip install" not in code
    installs = [line for line in _code_lines(ROOT / "scripts/install").splitlines() if "pip install" in line]
    assert len(installs) == 3 and all("-c requirements.lock" in line for line in installs), installs


def test_scripts_test_checks_the_lock_and_installs_what_the_tests_drive_in_one_apt_get() -> None:
    """The lock is checked; chromium (and its fonts), nginx and postgresql, whichever is missing, are installed by
    one apt-get in the background while pip, ruff and mypy run, and waited for before pytest starts."""
    code = _code_lines(ROOT / "scripts/test")
    assert "scripts/lock --check" in code
    packages = code[code.index("debian_packages() {"):code.index("\n}\n", code.index("debian_packages() {"))]
    for needed in ("missing+=(chromium fonts-noto-core", "missing+=(nginx)", "missing+=(postgresql)"):
        assert needed in packages, needed
    assert packages.count("apt_install") == 1 and 'apt_install "${missing[@]}"' in packages
    started, waited, pytest = (code.index("debian_packages > "), code.index("\ndebian_done\n"),
                               code.index("-m pytest -q --tb"))
    assert started < code.index("scripts/install requirements-dev.txt") < code.index(".venv/bin/mypy > ") < waited < pytest
    assert code.index("mypy_done; then") < pytest  # the type checker runs beside the rest, but passes before pytest
    # Beside mypy, one collection writes the bytecode cache the workers then read (the run writes bytecode).
    collect = code.index("-m pytest --collect-only")
    assert code.index(".venv/bin/mypy > ") < code.index("unset PYTHONDONTWRITEBYTECODE") < collect
    assert collect < code.index('wait "$COLLECT_PID"') < pytest


def test_ci_fails_rather_than_skips_without_nginx() -> None:
    """On a developer machine without nginx the scripts/serve tests skip; in CI they must fail."""
    local, ci = pytest_here_and_in_ci("tests/test_serve.py", "-k", "two_learners or sigterm",
                                      env={"LAB_NGINX": "/nonexistent/nginx"})
    assert local.returncode == 0 and "2 skipped" in local.stdout, local.stdout
    assert ci.returncode != 0 and "CI must run the scripts/serve tests" in ci.stdout, ci.stdout


def test_streamlit_reads_the_settings_the_classroom_figures_rely_on() -> None:
    """Streamlit, started in the checkout as scripts/run and scripts/serve start it, reads .streamlit/config.toml:
    no full garbage collection after every rerun (most of a click's server CPU; README, "Load figures"), no
    second thread for a rerun asked while a run is going on (two threads raced on one session's state), no
    developer toolbar for visitors, no usage statistics."""
    code = ("from streamlit import config; config.get_config_options(force_reparse=True); "
            "print(*(config.get_option(k) for k in ('runner.postScriptGC', 'runner.fastReruns', "
            "'client.toolbarMode', 'browser.gatherUsageStats')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "minimal", "False"], out.stderr


def test_not_browser_leaves_out_the_browser_and_serve_tests() -> None:
    """README, day to day: ``scripts/test -m "not browser"`` runs everything but tests/browser/ (journeys included)
    and the scripts/serve tests. The marks that make it so, checked without collecting the whole suite."""
    import tests.test_serve as serve_tests
    from tests.browser.conftest import pytest_collection_modifyitems

    assert {mark.name for mark in serve_tests.pytestmark} == {"browser", "serve"}

    class Item:
        def __init__(self, nodeid: str) -> None:
            self.nodeid, self.marks = nodeid, []

        def add_marker(self, mark) -> None:
            self.marks.append(mark.name)

    items = [Item("tests/browser/test_page_train.py::test_x"), Item("tests/browser/journeys/test_links.py::test_y"),
             Item("tests/test_page_train.py::test_z")]
    pytest_collection_modifyitems(None, items)
    assert [item.marks for item in items] == [["browser"], ["browser"], []]


def test_scripts_test_runs_the_suite_on_workers_and_an_n_of_yours_wins(tmp_path: Path) -> None:
    """scripts/test runs pytest on two workers (LAB_TEST_WORKERS), ``--dist loadgroup``; ``-n`` given to it, or
    LAB_TEST_WORKERS=1, is what runs. Its pytest line, run with a stand-in Python that prints its arguments."""
    code = _code_lines(ROOT / "scripts/test")
    start = code.index('workers="${LAB_TEST_WORKERS')
    tail = code[start:code.index('rc=$?', start)].replace(".venv/bin/python", "printf '%s|'")
    for args, env, expect in (([], {}, "-q|--tb=short|-n|2|--dist|loadgroup|tests|"),
                              (["-m", "journey"], {"LAB_TEST_WORKERS": "3"}, "-q|--tb=short|-n|3|--dist|loadgroup|tests|-m|journey|"),
                              (["-n", "0"], {}, "-q|--tb=short|tests|-n|0|"),
                              (["-p", "no:xdist"], {}, "-q|--tb=short|tests|-p|no:xdist|"),
                              ([], {"LAB_TEST_WORKERS": "1"}, "-q|--tb=short|tests|")):
        out = subprocess.run(["bash", "-c", "say() { :; }\n" + tail, "scripts/test", *args], capture_output=True,
                             text=True, env={**os.environ, **env}, check=True)
        assert out.stdout == "-m|pytest|" + expect, (args, env, out.stdout)


def test_the_tests_that_share_a_module_server_run_on_one_worker(tmp_path: Path) -> None:
    """tests/conftest.py groups, for pytest-xdist's ``--dist loadgroup``, the browser tests that share a server their
    module starts (test_serve.py's scripts/serve: its tests use it in the file's order, SIGTERM last); a test that
    starts its own goes to any worker."""
    (tmp_path / "groups_probe.py").write_text(
        "def pytest_collection_finish(session):\n"
        "    for item in session.items:\n"
        "        groups = [m.args[0] for m in item.iter_markers('xdist_group')]\n"
        "        print('GROUP', groups[0] if groups else '-', item.originalname)\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "groups_probe", "--co", "-q",
                          "tests/test_serve.py"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)})
    groups = {line.split()[2]: line.split()[1] for line in out.stdout.splitlines() if line.startswith("GROUP ")}
    assert groups["test_sigterm_stops_nginx_and_every_replica"] == "tests/test_serve.py", out.stdout + out.stderr
    assert groups["test_two_learners_see_their_own_state_each_on_one_replica"] == "tests/test_serve.py"
    assert groups["test_sigkill_leaves_nothing_and_a_run_dir_with_a_space_works_and_is_reused"] == "-"
    assert groups["test_bad_arguments_are_one_line_and_exit_2_before_anything_starts"] == "-"


def test_a_failed_expectation_reports_the_main_area_not_the_whole_snapshot() -> None:
    """tests/conftest.py's report of a failed Playwright expectation: the error and call log whole, the sidebar left
    out of the aria snapshot, the main area cut to SNAPSHOT_LINES lines and the cut said."""
    from tests.conftest import SNAPSHOT_LINES, shortened

    head = "Locator expected to be visible\nCall log:\n  - waiting for get_by_text(\"1 of 3\")\n"
    sidebar = ['- region "Sidebar":', *(f'  - link "Page {i}"' for i in range(30))]
    main = ["- main:", *(f"  - paragraph: line {i}" for i in range(SNAPSHOT_LINES + 9))]
    short = shortened(head + "\nAria snapshot:\n" + "\n".join([*sidebar, *main]))
    assert short.startswith(head + "\nAria snapshot: (the sidebar left out)\n- main:\n  - paragraph: line 0\n")
    assert "Page 0" not in short and "Sidebar" not in short
    assert short.endswith(f"  - paragraph: line {SNAPSHOT_LINES - 2}\n… 10 more lines of the snapshot left out")
    assert shortened(head) == head  # no snapshot: as it was
