"""The engine is pure Python with no UI: importing it must not pull in the app's libraries."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def test_every_engine_module_loads_no_ui_libraries():
    modules, loaded = run_python(
        "import importlib, json, pkgutil, sys\n"
        "import tokenizer\n"
        "names = sorted(m.name for m in pkgutil.iter_modules(tokenizer.__path__) if m.name != '__main__')\n"
        "for name in names:\n"
        "    importlib.import_module('tokenizer.' + name)\n"
        f"print(json.dumps([names, [m for m in {UI_MODULES!r} if m in sys.modules]]))\n"
    )
    assert {"model", "train", "pretokenize", "labels"} <= set(modules)
    assert loaded == []


HEAVY_TOKENIZER_LIBRARIES = ("tiktoken", "tiktoken_ext", "mistral_common", "sentencepiece", "quicktok", "numpy")


def test_real_tokenizer_libraries_load_only_when_a_tokenizer_is_loaded():
    """Importing the engine, the real-tokenizer registry and the command line, and listing the catalogue,
    loads none of the production tokenizers' libraries; loading one tokenizer loads its own library only."""
    before, after = run_python(
        "import json, sys\n"
        "import tokenizer, tokenizer.real, tokenizer.cli\n"
        "from tokenizer.real import catalogue, data_file\n"
        "names = [info.name for info in catalogue()]\n"
        "paths = [str(data_file(n)) for n in names]\n"
        f"heavy = {HEAVY_TOKENIZER_LIBRARIES!r}\n"
        "before = [m for m in heavy if m in sys.modules]\n"
        "tokenizer.real.status('mistral-sp-v3')\n"
        "print(json.dumps([before, [m for m in heavy if m in sys.modules]]))\n"
    )
    assert before == []
    assert after == ["sentencepiece"]
