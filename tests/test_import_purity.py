"""The house's layering, tested: every import points down.

    pages (thin) -> views -> ui (the kit) -> lessons (content) -> analyses -> family, tokenizer (the engine)
    cli (the command line) -> analyses -> family, tokenizer
    i18n (the translations and number formats): under them all, importing none of them; every layer may use it

A package's ``__main__.py`` is a program, not a module: it is what ``python -m PACKAGE`` runs, and nothing imports
it (tested below), so it may start a program from any layer (``python -m tokenizer`` starts the command line, which
sits above the engine) without the package itself importing anything above it. That is the one rule for
``__main__.py``, for every package; there is no list of exceptions.

The engine (``tokenizer``), the production tokenizers and the family (``family``), the analyses and the lessons are
pure Python with no UI: importing them must not pull in the app's libraries. A view is one page's: it never imports
another page's view (what two pages share is in the kit).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
UI_MODULES = ("streamlit", "pandas", "altair")


def run_python(code: str) -> list:
    """Run ``code`` in a fresh interpreter from the project root; its last line of output as JSON."""
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_import_tokenizer_loads_no_ui_libraries():
    loaded, path = run_python(
        "import json, sys\n"
        "import tokenizer\n"
        "tokenizer.train('chai chai', 1, unit='chars', split='whitespace')\n"
        f"print(json.dumps([[m for m in {UI_MODULES!r} if m in sys.modules], tokenizer.__file__]))\n"
    )
    assert loaded == []
    # It really imported this project's engine, not something else on the path.
    assert Path(path).resolve().parent == (ROOT / "tokenizer").resolve()


@pytest.mark.parametrize("package", ["tokenizer", "family", "analyses", "lessons", "i18n"])
def test_every_module_below_the_ui_loads_no_ui_libraries(package):
    modules, loaded = run_python(
        "import importlib, json, pkgutil, sys\n"
        f"import {package} as package\n"
        "names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name != '__main__')\n"
        "for name in names:\n"
        f"    importlib.import_module('{package}.' + name)\n"
        f"print(json.dumps([names, [m for m in {UI_MODULES!r} if m in sys.modules]]))\n"
    )
    assert len(modules) >= 3
    assert loaded == []


#: Each layer and what it may import (of the lab's own packages), lowest first.
MAY_IMPORT = {
    # The translations: the bottom of the house (Babel, no lab package), so any layer may say something in the
    # learner's language (issue 28).
    "i18n": {"i18n"},
    "tokenizer": {"i18n", "tokenizer"},
    "family": {"i18n", "tokenizer", "family"},
    "analyses": {"i18n", "tokenizer", "family", "analyses"},
    "lessons": {"i18n", "tokenizer", "family", "analyses", "lessons"},
    "ui": {"i18n", "tokenizer", "family", "analyses", "lessons", "ui"},
    "views": {"i18n", "tokenizer", "family", "analyses", "lessons", "ui", "views"},
    "pages": {"i18n", "tokenizer", "family", "analyses", "lessons", "ui", "views"},
    # The command line: a front end like a page, above what it uses (nothing imports it).
    "cli": {"i18n", "tokenizer", "family", "analyses", "cli"},
}
OWN_PACKAGES = set(MAY_IMPORT) | {"deploy", "app"}


def _imported_packages(path: Path) -> set[str]:
    """The lab's own top-level packages that ``path`` imports anywhere (at the top or inside a function)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & OWN_PACKAGES


def _upward_imports(root: Path = ROOT) -> list[str]:
    """Each import of a module (not a ``__main__.py`` program) of a package it may not import, as
    "<file> imports <package>"."""
    wrong = []
    for layer, allowed in MAY_IMPORT.items():
        files = sorted((root / layer).rglob("*.py"))
        assert files, layer
        for path in files:
            if path.name == "__main__.py":  # a program: nothing imports it (test_nothing_imports_a_main_program)
                continue
            rel = path.relative_to(root).as_posix()
            wrong += [f"{rel} imports {package}" for package in sorted(_imported_packages(path) - allowed)]
    return wrong


def test_every_import_points_down():
    assert not _upward_imports(), "imports that point up the house:\n" + "\n".join(_upward_imports())


def _main_imports(root: Path = ROOT) -> list[str]:
    """Each place in the project's Python files that imports a ``__main__`` module, in any way of writing it
    (``import x.__main__``, ``from x.__main__ import``, ``from x import __main__``, ``from . import __main__``,
    ``from .__main__ import``, or by name through importlib or runpy), as "<file>:<line>"."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in (".venv", "artifacts") or rel.parts[0].startswith("."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [alias.name for alias in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):  # importlib, runpy: a module's name
                names = [node.value] if re.fullmatch(r"\w[\w.]*\.__main__", node.value) else []
            if any(part == "__main__" for name in names for part in name.split(".")):
                found.append(f"{rel.as_posix()}:{node.lineno}")
    return found


def test_nothing_imports_a_main_program():
    """A package's ``__main__.py`` is a program (what ``python -m PACKAGE`` runs), never a module someone imports:
    that is why it may start a program from any layer."""
    assert not _main_imports(), "imports of a __main__ program:\n" + "\n".join(_main_imports())


def test_the_engine_starts_the_command_line_from_its_main_program_only():
    """``python -m tokenizer`` keeps working, and the engine package (every module but its ``__main__`` program)
    imports nothing above it: the command line is the ``cli`` package's."""
    main = (ROOT / "tokenizer" / "__main__.py").read_text(encoding="utf-8")
    assert _imported_packages(ROOT / "tokenizer" / "__main__.py") == {"cli"}, main
    assert not any(_imported_packages(path) - MAY_IMPORT["tokenizer"] for path in (ROOT / "tokenizer").glob("*.py")
                   if path.name != "__main__.py")  # i18n is below the engine: its messages in the run's language


@pytest.mark.parametrize(("where", "source"), [
    ("tokenizer/cli.py", "from analyses import estimate\n"),
    ("tokenizer/x.py", "import family.real\n"),
    ("cli/x.py", "from ui import layout\n"),
    ("cli/x.py", "from views import estimate\n"),
])
def test_the_layer_rule_sees_an_upward_import_in_a_module(tmp_path: Path, where: str, source: str) -> None:
    """A planted upward import in a module fails the rule; the same import in a ``__main__.py`` program does not."""
    for layer in MAY_IMPORT:
        (tmp_path / layer).mkdir()
        (tmp_path / layer / "__init__.py").write_text("")
    (tmp_path / where).write_text(source)
    assert _upward_imports(tmp_path) == [f"{where} imports {source.split()[1].split('.')[0]}"]
    (tmp_path / where).unlink()
    (tmp_path / where).with_name("__main__.py").write_text(source)
    assert _upward_imports(tmp_path) == []


@pytest.mark.parametrize("source", [
    "import tokenizer.__main__\n", "from tokenizer.__main__ import main\n", "from tokenizer import __main__\n",
    "from . import __main__\n", "from .__main__ import main\n", "import importlib\nimportlib.import_module('tokenizer.__main__')\n",
    "import runpy\nrunpy.run_module('lessons.__main__')\n",
])
def test_the_main_rule_sees_every_way_of_importing_a_main_program(tmp_path: Path, source: str) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__main__.py").write_text("import sys\n\nfrom cli import main\n\nsys.exit(main())\n")
    (tmp_path / "pkg" / "ok.py").write_text("import __future__\nNAME = '__main__'\nif __name__ == '__main__':\n    pass\n")
    assert _main_imports(tmp_path) == []
    (tmp_path / "pkg" / "bad.py").write_text(source)
    assert [hit.split(":")[0] for hit in _main_imports(tmp_path)] == ["pkg/bad.py"]


def test_no_view_is_imported_by_another_page_than_its_own():
    """A view serves one page: ``views/<name>`` is imported by pages/N_<Name>.py alone, never by the kit."""
    users = {}
    for path in sorted([*(ROOT / "pages").glob("*.py"), *(ROOT / "views").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "views":
                for alias in node.names:
                    users.setdefault(alias.name, set()).add(path.relative_to(ROOT).as_posix())
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("views."):
                users.setdefault(node.module.split(".")[1], set()).add(path.relative_to(ROOT).as_posix())
    pages = {name: {u for u in paths if u.startswith("pages/")} for name, paths in users.items()}
    assert all(len(p) <= 1 for p in pages.values()), pages


def _views_imported(path: Path, root: Path = ROOT) -> set[str]:
    """The views (``views/<name>.py`` or the package ``views/<name>/``) that the module at ``path`` imports,
    relative imports resolved."""
    parts = path.relative_to(root).with_suffix("").parts
    package = parts[:-1]  # the package a module (or a package's __init__) sits in, as its relative imports see it
    if parts[-1] == "__init__":
        parts = package
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = base + (node.module.split(".") if node.module else [])
            modules = [module + [alias.name] for alias in node.names] if len(module) == 1 else [module]
        else:
            continue
        found |= {m[1] for m in modules if len(m) >= 2 and m[0] == "views"}
    return found


def _foreign_view_imports(root: Path = ROOT) -> list[str]:
    """Each import in views/ of another page's view, as "<file> imports views.<name>"."""
    wrong = []
    for path in sorted((root / "views").rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[1] == "__init__.py":
            continue
        own = rel.parts[1].removesuffix(".py")
        wrong += [f"{rel.as_posix()} imports views.{name}" for name in sorted(_views_imported(path, root) - {own})]
    return wrong


def test_no_view_imports_another_pages_view():
    """A view is one page's: it never reaches into another page's view for a question, a key or a helper (what
    two pages share is the kit's, ui/). A view package (views/lessons/) imports its own submodules."""
    assert not _foreign_view_imports(), "\n".join(_foreign_view_imports())


@pytest.mark.parametrize("source", [
    "from views import train\n", "from views.train import run_key\n", "import views.train\n",
    "from views import lessons, train as tv\n", "from ..train import run_key\n", "from .. import train\n",
])
def test_the_foreign_view_rule_sees_every_form_of_import(tmp_path: Path, source: str) -> None:
    """The rule fails on a planted breach in a view package, in each way of writing the import; the package's
    own submodules pass."""
    package = tmp_path / "views" / "lessons"
    package.mkdir(parents=True)
    (tmp_path / "views" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("from views.lessons import progress\nfrom . import progress as p\n")
    (package / "progress.py").write_text("import views.lessons\n")
    assert _foreign_view_imports(tmp_path) == []
    (package / "progress.py").write_text(source)
    assert _foreign_view_imports(tmp_path) == ["views/lessons/progress.py imports views.train"]


HEAVY_TOKENIZER_LIBRARIES = ("tiktoken", "tiktoken_ext", "mistral_common", "sentencepiece", "quicktok", "numpy")


def test_real_tokenizer_libraries_load_only_when_a_tokenizer_is_loaded():
    """Importing the engine, the real-tokenizer registry and the command line, and listing the catalogue,
    loads none of the production tokenizers' libraries; loading one tokenizer loads its own library only."""
    before, after = run_python(
        "import json, sys\n"
        "import tokenizer, family.real, cli\n"
        "from family.real import catalogue, data_file\n"
        "names = [info.name for info in catalogue()]\n"
        "paths = [str(data_file(n)) for n in names]\n"
        f"heavy = {HEAVY_TOKENIZER_LIBRARIES!r}\n"
        "before = [m for m in heavy if m in sys.modules]\n"
        "family.real.status('mistral-sp-v3')\n"
        "print(json.dumps([before, [m for m in heavy if m in sys.modules]]))\n"
    )
    assert before == []
    assert after == ["sentencepiece"]


# -- no circles ----------------------------------------------------------------------------------------------------
def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _loaded_with(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports a module runs while it loads: at its top level, in its classes and in top-level ``if``/``try``
    blocks; not inside a function (run when it is called) nor under ``if TYPE_CHECKING:`` (never run)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(node)
            elif isinstance(node, ast.If):
                if "TYPE_CHECKING" not in ast.unparse(node.test):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, (ast.Try, ast.With)):
                visit(node.body)
                for handler in getattr(node, "handlers", ()):
                    visit(handler.body)
                visit(getattr(node, "orelse", []))
                visit(getattr(node, "finalbody", []))
            elif isinstance(node, ast.ClassDef):
                visit(node.body)

    visit(tree.body)
    return found


def _anywhere(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import a module holds: while it loads, inside a function (when it is called), under
    ``if TYPE_CHECKING:`` (for its annotations)."""
    return [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]


def _import_graph(root: Path = ROOT, imports=_loaded_with) -> dict[str, set[str]]:
    """Each of the lab's modules (every package of the house, ``deploy``, app.py; not a ``__main__.py`` program)
    and the lab's modules it imports while it loads (``imports``: :func:`_loaded_with`; :func:`_anywhere` for every
    import it holds) (``from ui import layout`` names the module ``ui.layout``; ``from lessons import presets``
    names ``lessons``, whose attribute it is)."""
    paths = {}
    for package in sorted(OWN_PACKAGES - {"app"}):
        for path in sorted((root / package).rglob("*.py")):
            if path.name != "__main__.py":
                paths[_module_name(path, root)] = path
    if (root / "app.py").exists():
        paths["app"] = root / "app.py"
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported = set()
        for node in imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names if alias.name in paths}
                continue
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                if f"{base}.{alias.name}" in paths:
                    imported.add(f"{base}.{alias.name}")
                elif base in paths:
                    imported.add(base)
        graph[name] = imported - {name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each set of modules that import one another, directly or round others (a strongly
    connected component of more than one module), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(circles)


def test_no_module_of_the_lab_imports_itself_round_a_circle():
    """No two of the lab's modules need each other to load (``ui.layout`` and ``ui.poll`` did: poll worked only
    because it read ``layout.PAGES`` at call time; now ``ui.frame`` draws both). An import inside a function is
    not counted: it runs when it is called, not while the module loads."""
    graph = _import_graph()
    assert len(graph) > 120 and graph["ui.frame"] >= {"ui.layout", "ui.poll", "ui.links"}
    assert _circles(graph) == []


def test_no_circle_hides_in_a_function_or_behind_type_checking():
    """Not even an import deferred into a function or written under ``if TYPE_CHECKING:`` closes a circle: such
    an import once hid that two modules needed each other (the pre-split and its worker, which now knows only
    frames and processes; the Estimate page's parts, which now share the values they hand each other in
    ``views/estimate/parts.py``; the real tokenizers and their registry, which shares ``RealInfo``)."""
    graph = _import_graph(imports=_anywhere)
    assert graph["tokenizer.pretokenize"] >= {"tokenizer.searcher"} and graph["views.estimate.reading"]
    assert _circles(graph) == CALL_TIME_CIRCLES


CALL_TIME_CIRCLES: list[list[str]] = []
"""The circles left at call time, each with its reason, to be broken (the test fails when one is gone, so the list
shrinks). Empty: the last one (lessons.course <-> lessons.overlay, the lessons' Hindi reading lessons with the
course's reader) was broken by putting the lesson file's reader below both (lessons/lessonfile.py)."""


@pytest.mark.parametrize(("files", "circle"), [
    ({"ui/a.py": "from ui import b\n", "ui/b.py": "from ui.a import X\n"}, ["ui.a", "ui.b"]),
    ({"ui/a.py": "import ui.b\n", "ui/b.py": "from . import c\n", "ui/c.py": "from .a import X\n"},
     ["ui.a", "ui.b", "ui.c"]),
    ({"ui/a.py": "try:\n    from ui import b\nexcept ImportError:\n    pass\n", "ui/b.py": "from ui import a\n"},
     ["ui.a", "ui.b"]),
])
def test_the_circle_rule_sees_a_planted_circle(tmp_path: Path, files: dict[str, str], circle: list[str]) -> None:
    """A planted circle is found, however its imports are written; the same imports deferred into a function, or
    under ``if TYPE_CHECKING:``, are not a circle while the modules load, and are one among all their imports."""
    for layer in OWN_PACKAGES - {"app"}:
        (tmp_path / layer).mkdir()
        (tmp_path / layer / "__init__.py").write_text("")
    for where, source in files.items():
        (tmp_path / where).write_text(source)
    assert _circles(_import_graph(tmp_path)) == [circle]
    last = sorted(files)[-1]
    (tmp_path / last).write_text("def f():\n" + "".join(f"    {line}\n" for line in files[last].splitlines()))
    assert _circles(_import_graph(tmp_path)) == []
    assert _circles(_import_graph(tmp_path, imports=_anywhere)) == [circle]  # still a circle, at call time
    (tmp_path / last).write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                 + "".join(f"    {line}\n" for line in files[last].splitlines()))
    assert _circles(_import_graph(tmp_path)) == []
    assert _circles(_import_graph(tmp_path, imports=_anywhere)) == [circle]  # and for the annotations
