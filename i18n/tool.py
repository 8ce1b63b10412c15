"""The catalogue's upkeep: extract the lab's messages, update each language's ``.po``, and check it.

``python -m i18n extract`` reads every ``_("...")``, ``_n("...", "...", n)`` and ``N_("...")`` in the lab's code
(Babel's Python extractor; a comment starting ``# i18n:`` just above a message goes to the translator with it),
and updates ``i18n/locale/<lang>/LC_MESSAGES/lab.po``: new messages are added empty, messages gone from the code
are dropped, and a message whose English changed keeps its old translation marked *fuzzy* (to be reviewed).
Locations are written without line numbers, so an edit elsewhere in a file does not change the catalogue.

``python -m i18n check`` (run by ``tests/test_i18n.py``, so ``scripts/test`` runs it) lists what is wrong:
a message in the code and not in the catalogue, or in the catalogue and not in the code (run extract), a fuzzy
or an empty translation, a translation whose ``{placeholders}``, ``**bold**`` or ```code``` marks differ from the
English, an f-string given to ``_()`` (it cannot be translated as written) or a ``_("...")`` inside an f-string's
braces (the extractor does not see it), ``_`` used as a throwaway name in a
module that translates, a technical word not in its one
Hindi form (``i18n/glossary.toml``), and a content record (``lessons/examples.toml``, ``lessons/data/sample_texts.json``) without its Hindi.
The rule: every message has its Hindi, so a new string comes with its translation.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract
from babel.messages.pofile import write_po

from i18n.catalog import CATALOGUED, DOMAIN, po_path, read_catalogue

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = Path(__file__).resolve().parent / "glossary.toml"
#: Where the lab's messages are: the app and every layer that draws or says something (not the tests, the
#: benchmarks, the deployment or this package).
SOURCES = ("app.py", "pages", "views", "ui", "lessons", "analyses", "family", "tokenizer", "cli")
KEYWORDS = {"_": None, "_n": (1, 2), "N_": None}
COMMENT_TAGS = ("i18n:",)
#: Content files whose records carry their translations beside the English (``hi = { label = ... }``): the file,
#: its section ("": the whole file is one record, its Hindi in ``[hi]``; a section that is one table, as Quirks'
#: ``[numbers]``, is one record, its Hindi in ``[numbers.hi]``) and the fields every record of it must give in each
#: language.
CONTENT = (("lessons/examples.toml", "tokenize", ("label",)), ("lessons/examples.toml", "encode", ("label",)),
           ("lessons/data/sample_texts.json", "samples", ("label",)),
           ("lessons/data/sample_texts.json", "examples", ("label", "note")),
           ("lessons/data/published_language_costs.json", "findings", ("finding",)),
           ("lessons/data/published_premiums.json", "rows", ("what",)),
           ("lessons/data/cost_scenarios.json", "scenarios", ("title", "what")),
           ("lessons/data/languages.json", "languages", ("label", "passage")),
           ("lessons/examples.toml", "stream", ("label",)),
           ("lessons/streaming.toml", "", ("intro", "naive", "careful")),
           *(("lessons/quirks.toml", section, ("tab", "intro")) for section in
             ("spaces", "case", "join", "formatting", "letters", "presplit")),
           ("lessons/quirks.toml", "numbers", ("tab", "intro", "finding")),
           ("lessons/examples.toml", "estimate", ("label",)),
           ("lessons/presets.toml", "preset", ("title", "note")),
           ("lessons/examples.toml", "family", ("label",)),
           ("lessons/data/family.json", "", ("intro", "history", "ties", "continuation", "hf_note", "unigram",
                                             "regularisation", "unigram_settings", "pipeline", "ids", "presplit_none",
                                             "presplit_marks", "markers", "special", "template", "endoftext")),
           ("lessons/data/family.json", "rules", ("count", "score", "why")),
           ("family/data/models.toml", "model", ("source",)),
           ("family/data/models.toml", "uncountable", ("why", "instead")),
           ("family/data/prices.toml", "price", ("source",)), ("family/data/prices.toml", "exchange", ("source",)),
           ("family/data/prices.toml", "reasoning", ("basis",)),
           ("lessons/data/family.json", "normalisers", ("cl100k_base", "o200k_base", "r50k_base", "llama3", "qwen3",
                                                        "mistral-tekken", "mistral-sp-v3")))
#: The pages whose every visible string goes through the catalogue (the pseudo-locale tests check them, and
#: everything they draw: the sidebar too).
TRANSLATED_PAGES = ("app.py", "pages/2_Tokenize_anything.py", "pages/3_Encode_step_by_step.py",
                    "pages/4_Bytes_per_character.py", "pages/6_English_vs_Hindi.py",
                    "pages/8_Cost_and_context.py", "pages/5_Real_tokenizers.py",
                    "pages/7_Beyond_Hindi.py", "pages/15_Vocabulary_by_script.py", "pages/9_Streaming.py",
                    "pages/10_Quirks.py", "pages/14_Estimate.py", "pages/12_Lessons.py", "pages/13_Class.py",
                    "pages/1_Train_step_by_step.py", "pages/11_The_family.py")
HEADER = """\
# {language} translation of the Tokenization Lab's interface.
# Kept by `python -m i18n extract` (new messages, gone ones, changed ones marked fuzzy); checked by
# `python -m i18n check`. The technical words take the forms in i18n/glossary.toml. See README, "In Hindi too".
#"""
LANGUAGE_NAMES = {"hi": "Hindi"}


def source_files(root: Path = ROOT) -> list[Path]:
    """The lab's Python files that may hold messages, in a stable order."""
    files: list[Path] = []
    for name in SOURCES:
        path = root / name
        files += [path] if path.is_file() else sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
    return files


def extract_messages(root: Path = ROOT) -> Catalog:
    """Every message in the lab's code, with where it is (file) and its translator comments."""
    template = Catalog(domain=DOMAIN, fuzzy=False)
    for path in source_files(root):
        rel = path.relative_to(root).as_posix()
        with path.open("rb") as f:
            for lineno, message, comments, context in extract(
                "python", f, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
            ):
                template.add(message, None, [(rel, lineno)], auto_comments=comments, context=context)
    return template


def _new_catalogue(lang: str) -> Catalog:
    return Catalog(locale=lang, domain=DOMAIN, project="Tokenization Lab", fuzzy=False,
                   header_comment=HEADER.format(language=LANGUAGE_NAMES.get(lang, lang)),
                   language_team=f"{LANGUAGE_NAMES.get(lang, lang)} <README: In Hindi too>")


def write_catalogue(catalogue: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalogue, width=0, ignore_obsolete=True, include_lineno=False, include_previous=True)


def update(langs: Iterable[str] = CATALOGUED, root: Path = ROOT) -> dict[str, tuple[int, int]]:
    """Extract, then update each language's catalogue; returns, per language, (messages, without translation)."""
    template = extract_messages(root)
    out = {}
    for lang in langs:
        catalogue = read_catalogue(lang) if po_path(lang).is_file() else _new_catalogue(lang)
        catalogue.update(template, update_creation_date=False)
        for message in catalogue:  # locations without line numbers (the file is what a translator needs)
            message.locations = sorted({(file, None) for file, _ in message.locations})
        write_catalogue(catalogue, po_path(lang))
        out[lang] = (len([m for m in catalogue if m.id]), len(_untranslated(catalogue)))
    return out


# -- checks -------------------------------------------------------------------------------------------------------
_FIELD = re.compile(r"(?<!\{)\{(\w*)[^{}]*\}(?!\})")
_MARKS = ("**", "`")


def _forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, (tuple, list)) else [message.string or ""]


def _ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, (tuple, list)) else [message.id]


def _untranslated(catalogue: Catalog) -> list[Message]:
    return [m for m in catalogue if m.id and not all(_forms(m))]


def _key(message_id) -> str:
    return message_id[0] if isinstance(message_id, (tuple, list)) else message_id


def _short(message_id) -> str:
    text = _key(message_id).replace("\n", " ")
    return repr(text if len(text) <= 70 else text[:67] + "...")


def message_problems(message: Message) -> list[str]:
    """What is wrong with one message's translation (fuzzy, empty, placeholders or marks that differ)."""
    name = _short(message.id)
    if message.fuzzy:
        return [f"fuzzy (its English changed; review the Hindi, then remove the flag): {name}"]
    forms = _forms(message)
    if not all(forms):
        return [f"no translation: {name}"]
    problems = []
    english = _ids(message)
    fields = set().union(*(set(_FIELD.findall(e)) for e in english))
    for form in forms:
        used = set(_FIELD.findall(form))
        wanted = fields - ({"n"} if len(english) > 1 else set())  # a plural's form may leave the number out
        if not (wanted <= used <= fields):
            problems.append(f"placeholders {sorted(used)} instead of {sorted(fields)}: {name}")
        for mark in _MARKS:
            if form.count(mark) != english[0].count(mark):
                problems.append(f"{mark!r} appears {form.count(mark)} times, {english[0].count(mark)} in the "
                                f"English: {name}")
    return problems


def fstring_calls(root: Path = ROOT) -> list[str]:
    """Each ``_()``, ``_n()`` or ``N_()`` given an f-string (it cannot be translated as written), as file:line."""
    found = []
    for path in source_files(root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS
                    and any(isinstance(a, ast.JoinedStr) for a in node.args)):
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return found


def calls_in_fstrings(root: Path = ROOT) -> list[str]:
    """Each ``_("...")``, ``_n(...)`` or ``N_("...")`` written inside an f-string's braces, as file:line: Babel's
    extractor does not look there, so the message never reaches the catalogue (and the pseudo-locale marks it all the
    same). Call it before the f-string and put its result in."""
    found = []
    for path in source_files(root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fstring in ast.walk(tree):
            if not isinstance(fstring, ast.JoinedStr):
                continue
            for node in ast.walk(fstring):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS
                        and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                    found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return found


def rebound_underscore(root: Path = ROOT) -> list[str]:
    """Each place a module that translates (it imports ``_`` from i18n) binds ``_`` to something else: a
    throwaway ``for _, x in ...``, ``*_``, ``_ = ...``, an argument. Inside that scope a later ``_("...")`` calls
    the throwaway (a comprehension's is not caught by the linter), so such a module names its throwaways
    (``_key``). As file:line."""
    found = []
    for path in source_files(root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        translates = any(isinstance(node, ast.ImportFrom) and node.module == "i18n"
                         and any(alias.name == "_" and alias.asname is None for alias in node.names)
                         for node in ast.walk(tree))
        if not translates:
            continue
        for node in ast.walk(tree):
            if ((isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store))
                    or (isinstance(node, ast.arg) and node.arg == "_")
                    or (isinstance(node, ast.ExceptHandler) and node.name == "_")):
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return found


def glossary() -> list[dict]:
    """The glossary's terms (``i18n/glossary.toml``)."""
    return tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))["term"]


# What the glossary does not look at in the English: placeholders ({text}) and code (`id`).
_NOT_WORDS = re.compile(r"\{[^{}]*\}|`[^`]*`")


def _term_pattern(term: dict) -> re.Pattern:
    words = [term["en"], *term.get("en_forms", [])]
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w-])", re.IGNORECASE)


def glossary_problems(catalogue: Catalog, lang: str = "hi", terms: list[dict] | None = None) -> list[str]:
    """Each translation that writes a technical word otherwise than the glossary says: the English has the word
    and the translation none of its forms, or the translation uses a form the glossary rules out."""
    problems = []
    for term in terms if terms is not None else glossary():
        if lang not in term:
            continue
        pattern = _term_pattern(term)
        wanted = [term[lang], *term.get(f"{lang}_forms", [])]
        avoid = term.get("avoid", [])
        for message in catalogue:
            if not message.id or not all(_forms(message)):
                continue
            for english, form in zip(_ids(message) * 2, _forms(message)):
                if pattern.search(_NOT_WORDS.sub(" ", english)) and not any(w in form for w in wanted):
                    problems.append(f"“{term['en']}” is “{term[lang]}” in the glossary, not in: {_short(message.id)}")
                    break
                if any(a in form for a in avoid):
                    problems.append(f"“{term['en']}” is written {avoid} instead of “{term[lang]}”: "
                                    f"{_short(message.id)}")
                    break
    return problems


def content_problems(root: Path = ROOT, langs: Iterable[str] = CATALOGUED) -> list[str]:
    """Each content record without its translation beside the English."""
    problems = []
    for file, section, fields in CONTENT:
        if not (root / file).is_file():  # a tree without it (a test's): nothing to check
            continue
        text = (root / file).read_text(encoding="utf-8")
        content = json.loads(text) if file.endswith(".json") else tomllib.loads(text)
        records = content.get(section, []) if section else [content]  # no section: the file is one record
        records = [records] if isinstance(records, dict) else records  # a section that is one table
        for i, record in enumerate(records):
            for lang in langs:
                missing = [f for f in fields if not (record.get(lang) or {}).get(f)]
                if missing:
                    problems.append(f"{file} [[{section}]] {i + 1} ({record.get(fields[0])!r}) has no {lang} "
                                    f"{', '.join(missing)}")
    return problems


def check(root: Path = ROOT, langs: Iterable[str] = CATALOGUED) -> list[str]:
    """Everything wrong with the catalogues, one line each (none: all is well)."""
    template = extract_messages(root)
    in_code = {_key(m.id) for m in template if m.id}
    problems = [f"{call}: an f-string given to _() cannot be translated; use _(\"... {{name}} ...\", name=...)"
                for call in fstring_calls(root)]
    problems += [f"{where}: _ is the translation in this module; name the throwaway (_key, _rest)"
                 for where in rebound_underscore(root)]
    problems += [f"{where}: a message inside an f-string is not extracted; call _() before it and put the result in"
                 for where in calls_in_fstrings(root)]
    for lang in langs:
        if not po_path(lang).is_file():
            problems.append(f"{lang}: no catalogue at {po_path(lang)} (run python -m i18n extract)")
            continue
        catalogue = read_catalogue(lang)
        in_catalogue = {_key(m.id) for m in catalogue if m.id}
        problems += [f"{lang}: not in the catalogue (run python -m i18n extract): {_short(m)}"
                     for m in sorted(in_code - in_catalogue)]
        problems += [f"{lang}: in the catalogue, gone from the code (run python -m i18n extract): {_short(m)}"
                     for m in sorted(in_catalogue - in_code)]
        for message in catalogue:
            if message.id:
                problems += [f"{lang}: {p}" for p in message_problems(message)]
        problems += [f"{lang}: {p}" for p in glossary_problems(catalogue, lang)]
    problems += content_problems(root, langs)
    return problems


def main(argv: list[str]) -> int:
    """``python -m i18n extract`` or ``check``; the exit status (check: 1 when anything is wrong)."""
    command = argv[0] if argv else ""
    if command == "extract":
        for lang, (total, empty) in update().items():
            print(f"{lang}: {total} messages, {empty} without a translation")
        return 0
    if command == "check":
        problems = check()
        for line in problems:
            print(line)
        print(f"{len(problems)} problem(s)" if problems else "the catalogues are complete")
        return 1 if problems else 0
    print("usage: python -m i18n extract | check", file=sys.stderr)
    return 2
