"""requirements.lock: the exact versions the lab is tested with, and the check that they are installed.

requirements.txt and requirements-dev.txt give lower bounds only; this file
pins every package they pull in (the whole dependency tree of
requirements-dev.txt, with the versions installed in this environment), so a
machine set up next month gets what was tested today. The scripts install with
it as constraints (scripts/install: ``uv pip install -r requirements.txt -c requirements.lock``).

    python scripts/lock.py write    rewrite requirements.lock from this environment (scripts/lock)
    python scripts/lock.py check    exit 1 and say what differs if the installed versions are not the locked ones
                                    (scripts/test runs this before the tests)

openai-whisper is not in the tree: scripts/install-data pins it itself and
installs it without dependencies outside site-packages.
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
TOP = ROOT / "requirements-dev.txt"
HEADER = """\
# The exact versions the Tokenization Lab is tested with (Python 3.11, Linux): every package that
# requirements-dev.txt pulls in (requirements.txt included), pinned. The requirement files give lower
# bounds; the scripts install with this file as constraints (scripts/install, with uv), so a fresh machine gets
# these versions:
#   uv pip install -r requirements.txt -c requirements.lock        (scripts/run, scripts/serve)
#   uv pip install -r requirements-dev.txt -c requirements.lock    (scripts/test)
# scripts/test fails when what is installed differs. After a deliberate upgrade, run scripts/lock
# (it rewrites this file from .venv), run scripts/test, and commit both.
"""


def requirement_lines(path: Path) -> list[str]:
    """The requirement lines of a requirements file, following ``-r other.txt``."""
    out = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(("-r ", "--requirement ")):
            out += requirement_lines(path.parent / line.split(None, 1)[1])
        elif not line.startswith("-"):
            out.append(line)
    return out


def tree(top: Path = TOP) -> tuple[dict[str, str], list[str]]:
    """Every distribution the requirements need here (canonical name -> installed version), and what is missing."""
    found: dict[str, str] = {}
    extras_done: dict[str, set[str]] = {}
    missing: list[str] = []
    todo = [Requirement(line) for line in requirement_lines(top)]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(req.name)
        wanted = set(req.extras)
        if name in extras_done and wanted <= extras_done[name]:
            continue
        try:
            dist = distribution(req.name)
        except PackageNotFoundError:
            missing.append(str(req))
            continue
        found[name] = dist.version
        extras = extras_done.setdefault(name, set())
        extras |= wanted
        for line in dist.requires or []:
            sub = Requirement(line)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in extras | {""}):
                todo.append(Requirement(str(sub).split(";")[0]) if sub.marker is not None else sub)
    return found, missing


def read_lock(path: Path = LOCK) -> dict[str, str]:
    pins = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = version.strip()
    return pins


def differences(path: Path = LOCK) -> list[str]:
    """What differs between the lock and this environment (empty: they agree)."""
    installed, missing = tree()
    pins = read_lock(path)
    out = [f"{req}: required but not installed" for req in missing]
    for name, version in sorted(installed.items()):
        if name not in pins:
            out.append(f"{name} {version} is installed and needed, but not in {path.name}")
        elif pins[name] != version:
            out.append(f"{name}: installed {version}, {path.name} has {pins[name]}")
    for name in sorted(set(pins) - set(installed)):
        out.append(f"{name}=={pins[name]} is in {path.name}, but nothing needs it any more")
    return out


def write(path: Path = LOCK) -> int:
    installed, missing = tree()
    if missing:
        print("scripts/lock: not installed, so not locked: " + ", ".join(missing), file=sys.stderr)
        return 1
    path.write_text(HEADER + "".join(f"{n}=={v}\n" for n, v in sorted(installed.items())), encoding="utf-8")
    print(f"scripts/lock: wrote {path.name}: {len(installed)} packages")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["write"]:
        return write()
    if argv[:1] == ["check"]:
        diff = differences()
        for line in diff:
            print(f"scripts/test: {line}")
        if diff:
            print("scripts/test: the installed versions are not the locked ones. Install the locked ones "
                  "(pip install -r requirements-dev.txt -c requirements.lock), or, after a deliberate upgrade, "
                  "run scripts/lock and commit requirements.lock.")
            return 1
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
