"""The engine's own words in the learner's language (issue 28): what analyses/ and tokenizer/ say (a refusal, a
lone vowel sign's name in a tooltip) is translated where it is made, in the run's language; the command line sets
none, so it prints English. And the kit's spinners, which a cache decorator would show in English."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from analyses import cost
from analyses.numbers import parse_number
from analyses.quirks import records_from_csv
from family import real
from i18n import using
from tests.apptest_helpers import assert_no_exception, html_blocks, parse_chips, run_page
from tokenizer.plaintext import describe_token, tokens_text
from tokenizer.textfile import decode_text

ROOT = Path(__file__).resolve().parent.parent


# -- the refusals: English by default, Hindi in a Hindi run -------------------------------------------------------
@pytest.mark.parametrize(("refuse", "english", "hindi"), [
    (lambda: cost.count(-3, "Articles a day"), "Articles a day cannot be negative (you gave -3).",
     "रोज़ की ख़बरें: ऋणात्मक संख्या नहीं चलेगी (आपने -3 दिया)।"),
    (lambda: parse_number("12 lakh"), "“12 lakh” is not a number",  "“12 lakh” संख्या नहीं है"),
    (lambda: records_from_csv("a,a\n1,2"), "Two fields in the header line have the same name.",
     "हेडर लाइन के दो फ़ील्ड का नाम एक ही है।"),
    (lambda: decode_text("chai".encode("utf-16-le")), "this file is UTF-16 (little-endian), not UTF-8",
     "यह फ़ाइल UTF-8 में नहीं, UTF-16 (little-endian) में है"),
    (lambda: decode_text(b"chai \xff"), "the byte 0xFF at offset 5 cannot start a character",
     "ऑफ़सेट 5 पर बाइट 0xFF से कोई कैरेक्टर शुरू नहीं हो सकता"),
])
def test_a_refusal_is_in_the_language_of_the_run_it_is_made_in(refuse, english, hindi) -> None:
    with pytest.raises(ValueError) as found:
        refuse()
    assert english in str(found.value)
    with using("hi"), pytest.raises(ValueError) as found:
        refuse()
    assert hindi in str(found.value) and english not in str(found.value)


def test_the_command_line_still_prints_english(tmp_path) -> None:
    """`python -m tokenizer` sets no language: a file that is not UTF-8, a broken record and a missing column are
    refused in English, word for word as before."""
    wide = tmp_path / "notes.txt"
    wide.write_bytes("नमस्ते\n".encode("utf-16-le"))
    run = subprocess.run([sys.executable, "-m", "tokenizer", "count", "--tokenizer", "o200k_base", "--file",
                          str(wide)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert f"{wide} is UTF-16 (little-endian), not UTF-8: convert it (iconv -f UTF-16LE -t UTF-8 FILE)" in run.stderr
    assert not any("\u0900" <= c <= "\u097f" for c in run.stderr.replace("नमस्ते", ""))
    records = tmp_path / "records.jsonl"
    records.write_text('{"text": "a"}\n{not json\n', encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "tokenizer", "count", "--tokenizer", "o200k_base", "--file",
                          str(records), "--lines"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert "  line 2: not JSON (Expecting property name enclosed in double quotes, column 2)" in run.stdout
    table = tmp_path / "table.csv"
    table.write_text("a,b\n1,2\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "tokenizer", "count", "--tokenizer", "o200k_base", "--file",
                          str(table), "--column", "zz"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "the CSV has no column 'zz'; its columns are 'a', 'b'" in run.stderr


# -- a lone vowel sign's name in a tooltip --------------------------------------------------------------------------
def test_a_lone_vowel_signs_name_is_in_the_readers_language() -> None:
    assert describe_token("े") == "'◌े' (vowel sign e on its own)"
    assert tokens_text([("न", "न".encode()), ("े", "े".encode())]) == "न | ◌े (vowel sign e)"
    with using("hi"):
        assert describe_token("े") == "'◌े' (ए की मात्रा, बिना अक्षर के)"
        assert tokens_text([("न", "न".encode()), ("े", "े".encode())]) == "न | ◌े (ए की मात्रा)"


@pytest.mark.skipif(bool(real.status("o200k_base")), reason="GPT-4o's tokenizer is not installed")
def test_a_chips_tooltip_names_a_lone_vowel_sign_in_hindi() -> None:
    """Tokenize anything in Hindi: o200k_base cuts नमस्ते before its vowel sign े, and the chip's tooltip names it
    in Hindi (the name under the chip was already Hindi; the tooltip said "vowel sign e on its own")."""
    tok = real.load("o200k_base")
    assert "े" in [t.label for t in tok.encode_tokens("नमस्ते दुनिया")]  # the engine's cut, which the page draws
    at = run_page("pages/2_Tokenize_anything.py", query_params={"lang": "hi", "tok": "o200k_base",
                                                                 "text": "नमस्ते दुनिया"})
    assert_no_exception(at)
    titles = [c.title for block in html_blocks(at) for c in parse_chips(block).chips]
    assert any("'◌े' (ए की मात्रा, बिना अक्षर के)" in t for t in titles), titles
    assert not any("on its own" in t for t in titles)


# -- the kit's spinners ----------------------------------------------------------------------------------------------
def _cache_spinner_texts(path: Path) -> list[str]:
    """Each `show_spinner=` of a cache decorator in ``path`` whose text is written in the code (a constant or an
    f-string: made at import, in English, never through the catalogue)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and ast.unparse(node.func).startswith(("st.cache_data", "st.cache_resource")):
            for kw in node.keywords:
                if kw.arg == "show_spinner" and isinstance(kw.value, (ast.JoinedStr, ast.Constant)) \
                        and isinstance(getattr(kw.value, "value", ""), str):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_kits_cache_spinners_go_through_the_catalogue() -> None:
    """A cache's own spinner text is fixed when the module is imported, so it is English on a Hindi page: the kit's
    caches show none (show_spinner=False) and their callers draw st.spinner(_(...))."""
    assert not [f for path in sorted((ROOT / "ui").glob("*.py")) for f in _cache_spinner_texts(path)]


def test_the_kits_spinners_speak_hindi(monkeypatch) -> None:
    from lessons.experiment import lesson_texts
    from ui import choices, experiment

    shown: list[str] = []

    class Spinner:
        def __init__(self, text: str, *args, **kwargs) -> None:
            shown.append(text)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(choices.st, "spinner", Spinner)
    monkeypatch.setattr(experiment, "_cached_sweep", lambda texts: texts)
    with using("hi"):
        choices._real_tokenizer("o200k_base") if not real.status("o200k_base") else None
        experiment.sweep_of(lesson_texts())
    assert shown[-1] == f"{experiment.MAX_COPIES + 1} टोकनाइज़र ट्रेन हो रहे हैं, टेक्स्ट में हिन्दी के हर हिस्से के लिए एक…"
    if not real.status("o200k_base"):
        assert shown[0] == "टोकनाइज़र लोड हो रहा है (हर सर्वर पर एक बार)…"


# -- a lesson exercise's computed facts and a worksheet's answer lines ----------------------------------------------
def test_every_operations_facts_are_in_the_readers_language_and_its_answer_is_the_same() -> None:
    """One exercise of each operation the course uses, computed in English and in Hindi: the same answer, options and
    what else is right (the facts are what differ), and the Hindi facts say none of the English sentence's words
    around the data (the tokens, the numbers, the pairs). The tie sentence a merge question's facts end with
    (tie_explanation) is translated with the Train page."""
    from lessons.course import course
    from lessons.exercises import compute

    seen: dict[str, object] = {}
    for exercise in course().exercises:
        seen.setdefault(exercise.op, exercise)
    checked = 0
    seen.pop("wordpiece_at", None)  # its tie sentence is family.ruletext's, The family page's words (not yet Hindi)
    for op, exercise in seen.items():
        english = compute(op, exercise.args)
        with using("hi"):
            hindi = compute(op, exercise.args)
        assert (hindi.answer, hindi.options, hindi.also_right) == (english.answer, english.options, english.also_right)
        if english.facts and any(w in english.facts for w in ("The ", " of the ", " tokens", " for ", "Tie", "tie")):
            assert hindi.facts != english.facts and not any(w in hindi.facts for w in (
                "The tokens", "Word by word", "Counted before", "only part of a character", " input tokens at ",
                " whole articles")), (op, hindi.facts)
            checked += 1
    assert checked >= 8, checked


def test_a_worksheets_answer_lines_in_hindi() -> None:
    """A printed worksheet's lines under each prompt (lessons.answers' blank) in the reader's language: a number's
    line with its unit, the tokens' line, the order's instruction; the answer key's line for a word."""
    from lessons.answers import ANSWER_KINDS

    assert ANSWER_KINDS["number"].blank((), "tokens") == ["Your answer (tokens): __________"]
    assert ANSWER_KINDS["split"].blank((), "") == ["Tokens, separated by | : ____________________"]
    with using("hi"):
        assert ANSWER_KINDS["number"].blank((), "tokens") == ["आपका जवाब (टोकन): __________"]
        assert ANSWER_KINDS["number"].blank((), "rupees") == ["आपका जवाब (रुपये): __________"]
        assert ANSWER_KINDS["number"].blank((), "") == ["आपका जवाब: __________"]
        assert ANSWER_KINDS["split"].blank((), "") == ["टोकन, | से अलग करके: ____________________"]
        assert ANSWER_KINDS["order"].blank(("a", "b"), "")[0].startswith("इन्हें जिस क्रम में")
        assert ANSWER_KINDS["word"].keyed("chai") == "नियम पर खरा उतरने वाला कोई भी शब्द, जैसे chai"
