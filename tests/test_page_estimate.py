"""The Estimate page (AppTest): every control, the figures computed by the engine at run time, and bad input.

Every expected number here comes from the engine (analyses.estimate, family.models) on the same input: none is
typed in.
"""

from __future__ import annotations

import json
import re
import shlex
from decimal import Decimal

import pytest

from analyses import estimate as est
from family import models as fm
from family import real
from tests.apptest_helpers import assert_no_exception, main_text, run_page
from ui import uploads
from views import estimate as ev

PAGE = "pages/14_Estimate.py"
TEXT = ev.EXAMPLE["text"]
ENGLISH = ev.EXAMPLE["english"]
MONEY = ("USD a request", "INR a request", "USD a month", "INR a month")

pytestmark = pytest.mark.skipif(bool(real.status("o200k_base")), reason="the real tokenizers are not installed")


def cards(at) -> list[dict[str, str]]:
    """The metrics of each model's card, in order (a card starts at its "Input tokens" metric)."""
    out: list[dict[str, str]] = []
    for m in at.main.get("metric"):
        if m.label.startswith("Input tokens"):
            out.append({})
        out[-1][m.label] = m.value
    return out


def unescaped(text: str) -> str:
    """Markdown-escaped text (md_escape) as the reader sees it."""
    return re.sub(r"\\(.)", r"\1", text)


def warnings(at) -> str:
    return unescaped(" ".join(w.value for w in at.main.get("warning")))


def infos(at) -> str:
    return unescaped(" ".join(i.value for i in at.main.get("info")))


def said(at) -> str:
    return unescaped(main_text(at))


def codes(at) -> str:
    """The page's printed commands, each on one line (a printed command has a flag a line, joined by ``\\``)."""
    return "\n".join(re.sub(r" \\\n\s*", " ", c.value) for c in at.main.get("code"))


def expected(key: str, records: list[est.Record], *, output_tokens: float | None = 300, output_ratio=None,
             requests: int = 100_000, inr: Decimal = fm.INR_PER_USD, price: fm.Price | None = None) -> dict[str, str]:
    """What a model's card should say, from the engine: its tokens (a mean for several records) and its bill."""
    model = fm.find(key)
    tok = real.load(model.tokenizer)
    counts = [est.record_tokens(tok, r, model) for r in records]
    builder = est.StatsBuilder()
    for r, n in zip(records, counts):
        builder.add(r.number, n)
    stats = builder.result()
    bill = est.cost(Decimal(stats.total) / stats.records, price or fm.price(key), output_tokens=output_tokens,
                    output_ratio=output_ratio, requests_per_month=requests, inr_per_usd=inr,
                    reasoning_tokens=fm.reasoning_budget().value if model.reasoning else 0)
    label = "Input tokens" if len(records) == 1 else "Input tokens a request (mean)"
    return {label: est.mean_shown(stats.total, stats.records) if len(records) > 1 else f"{stats.total:,}",
            "USD a request": est.usd(bill.usd_per_request), "INR a request": est.inr(bill.inr_per_request),
            "USD a month": est.usd(bill.usd_per_month), "INR a month": est.inr(bill.inr_per_month)}


def one(text: str = TEXT) -> list[est.Record]:
    return est.read_records(text, "text")[0]


# -- the default view: the example prompt on GPT-4o, GPT-4 and Llama 3.3 --------------------------------------
def test_default_models_are_the_issues_three_and_each_card_has_the_engines_figures() -> None:
    at = run_page(PAGE)
    assert [fm.find(k).name for k in ev.default_models()] == ["GPT-4o", "GPT-4", "Llama 3.3 70B"]
    assert at.multiselect(key=ev.MODELS_LIST.skey).value == list(ev.default_models())
    got = cards(at)
    assert got == [expected(k, one()) for k in ev.default_models()]
    text = said(at)
    for key in ev.default_models():
        p = fm.price(key)
        assert f"published {p.date}" in text  # each price with its date and source
    assert "Prices change" in text
    # the tokenizer each model uses, in the picker's labels
    options = at.multiselect(key=ev.MODELS_LIST.skey).options
    assert "GPT-4o · o200k_base" in options and "GPT-4 · cl100k_base" in options
    # the command line: the models, the output, the rate and the text itself
    cmd = codes(at)
    assert cmd.startswith("python -m tokenizer cost --model gpt-4o --model gpt-4 --model llama-3.3-70b "
                          "--output-tokens 300 --requests-per-month 100000 --inr-per-usd 88")
    assert TEXT in cmd
    assert dict(at.query_params) == {}  # the defaults: a clean address


def test_the_hindi_premium_over_the_english_version() -> None:
    at = run_page(PAGE)
    (table,) = [t for t in at.main.get("dataframe")]
    frame = table.value
    for key in ev.default_models():
        tok = real.load(fm.find(key).tokenizer)
        row = frame[frame["model"] == fm.find(key).name].iloc[0]
        assert (row["your text"], row["English"]) == (tok.count(TEXT), tok.count(ENGLISH))
        assert row["premium"] == pytest.approx(est.premium(tok.count(TEXT), tok.count(ENGLISH)))


def test_the_premium_needs_an_english_version_of_a_paragraph_or_two() -> None:
    at = run_page(PAGE)
    at.text_area(key=ev.ENGLISH.skey).input("").run()
    assert "Paste the English version of your text" in said(at)
    assert len(at.main.get("dataframe")) == 0
    at.text_area(key=ev.ENGLISH.skey).input("tea " * 6_000).run()
    assert f"texts of up to {ev.PREMIUM_MAX_CHARS:,} characters" in said(at)


# -- the controls -----------------------------------------------------------------------------------------------
def test_send_as_a_user_message_adds_each_chat_format() -> None:
    at = run_page(PAGE)
    assert "adds a few tokens a request" in said(at)
    at.toggle(key=ev.AS_CHAT.skey).set_value(True).run()
    as_chat = [est.Record(1, None, (("user", TEXT),))]
    assert cards(at) == [expected(k, as_chat) for k in ev.default_models()]
    for key in ev.default_models():
        model = fm.find(key)
        overhead = est.chat_overhead(model, as_chat[0].messages)
        assert f"Chat format ({model.chat}): {overhead} tokens around the messages of 1 chat" in said(at)
    assert at.query_params["as_chat"] == "1"
    at.toggle(key=ev.AS_CHAT.skey).set_value(False).run()
    assert cards(at) == [expected(k, one()) for k in ev.default_models()]


def test_output_as_a_ratio_requests_and_the_exchange_rate() -> None:
    at = run_page(PAGE)
    at.segmented_control(key=ev.OUTPUT.skey).set_value("ratio").run()
    at.number_input(key=ev.OUT_RATIO.skey).set_value(2.0).run()
    at.number_input(key=ev.REQUESTS.skey).set_value(5000).run()
    at.number_input(key=ev.INR.skey).set_value(90.5).run()
    assert_no_exception(at)
    assert cards(at) == [expected(k, one(), output_tokens=None, output_ratio=2.0, requests=5000,
                                  inr=Decimal("90.5")) for k in ev.default_models()]
    assert at.query_params["output"] == "ratio" and at.query_params["per_month"] == "5000"
    assert "--output-ratio 2 --requests-per-month 5000 --inr-per-usd 90.5" in codes(at)
    assert "(yours)" in said(at)
    # the link is the whole view: a fresh session on it shows the same cards
    again = run_page(PAGE, query_params=dict(at.query_params))
    assert cards(again) == cards(at)


def test_a_changed_price_is_used_said_and_kept_in_the_link() -> None:
    at = run_page(PAGE)
    p_in, p_out = ev.price_params("gpt-4o")
    at.number_input(key=p_in.skey).set_value(5.0).run()
    at.number_input(key=p_out.skey).set_value(20.0).run()
    mine = fm.Price("gpt-4o", Decimal("5.0"), Decimal("20.0"), "yours", "set on this page")
    assert cards(at)[0] == expected("gpt-4o", one(), price=mine)
    assert cards(at)[1] == expected("gpt-4", one())
    assert "your price (published" in said(at)
    assert at.query_params[p_in.name] == "5" and at.query_params[p_out.name] == "20"
    (cmd,) = codes(at).splitlines()  # one command: the changed price is GPT-4o's alone
    assert cmd.startswith("python -m tokenizer cost --model gpt-4o --input-price gpt-4o=5 --output-price gpt-4o=20 "
                          "--model gpt-4 --model llama-3.3-70b ")
    again = run_page(PAGE, query_params=dict(at.query_params))
    assert cards(again) == cards(at)


def test_a_model_without_a_price_asks_for_one() -> None:
    assert fm.price("llama-3") is None
    at = run_page(PAGE, query_params={"models": "gpt-4o,llama-3"})
    p_in, p_out = ev.price_params("llama-3")
    assert at.number_input(key=p_in.skey).value is None  # the box starts empty
    assert "No published price for Llama 3 is known here" in infos(at)
    got = cards(at)
    assert got[1] == {"Input tokens": f"{real.load('llama3').count(TEXT):,}"}  # tokens, no cost yet
    assert "Llama 3: no price, so counted only (count)" in said(at)
    assert "python -m tokenizer count --model llama-3 " in codes(at)
    at.number_input(key=p_in.skey).set_value(0.2).run()
    at.number_input(key=p_out.skey).set_value(0.4).run()
    mine = fm.Price("llama-3", Decimal("0.2"), Decimal("0.4"), "yours", "set on this page")
    assert cards(at)[1] == expected("llama-3", one(), price=mine)


def test_pick_other_models_and_a_lab_model() -> None:
    at = run_page(PAGE)
    at.multiselect(key=ev.MODELS_LIST.skey).set_value(["gpt-4o-mini", "qwen3"]).run()
    assert at.query_params["models"] == "gpt-4o-mini,qwen3"
    got = cards(at)
    assert got[0] == expected("gpt-4o-mini", one())
    tok = real.load("qwen3")
    assert got[1]["Input tokens"] == f"{tok.count(TEXT):,}"
    assert "No published price for Qwen3 is known here" in infos(at)


def test_the_lab_s_own_models_count_too() -> None:
    from ui import choices

    key = next(e.key for e in choices.lab_entries())
    at = run_page(PAGE, query_params={"toks": key, "text": "chai pe charcha"})
    got = cards(at)
    lab = choices.load(key)
    assert got[-1]["Input tokens"] == f"{len(lab.encode('chai pe charcha')):,}"
    assert "The lab's own models are not on the command line." in said(at)


# -- records: lines, JSONL, CSV -----------------------------------------------------------------------------------
LINES = "नमस्ते, मेरा ऑर्डर कहाँ है?\nWhere is my order?\n\nमुझे पैसा वापस चाहिए, कृपया जल्दी बताइए।\nOK"


def test_one_record_a_line_gives_the_statistics_the_longest_and_a_histogram() -> None:
    at = run_page(PAGE, query_params={"text": LINES, "kind": "lines"})
    records, _ = est.read_records(LINES, "lines")
    assert len(records) == 4
    assert cards(at) == [expected(k, records) for k in ev.default_models()]
    stats = at.main.get("dataframe")[0].value
    tok = real.load("o200k_base")
    counts = [tok.count(r.text) for r in records]
    row = stats[stats["model"] == "GPT-4o"].iloc[0]
    assert (row["records"], row["tokens"], row["max"]) == (4, sum(counts), max(counts))
    longest = at.main.get("dataframe")[1].value
    assert list(longest["tokens"]) == sorted(counts, reverse=True)
    assert list(longest["line"])[0] == records[counts.index(max(counts))].number
    (chart,) = at.main.get("vega_lite_chart")
    assert chart is not None
    at.selectbox(key=ev.RECORDS_OF.skey).set_value("gpt-4").run()
    longest = at.main.get("dataframe")[1].value
    assert list(longest["tokens"]) == sorted((real.load("cl100k_base").count(r.text) for r in records), reverse=True)
    assert "--file YOUR_FILE.txt --lines" in codes(at)


def chat_line(i: int) -> str:
    return json.dumps({"messages": [{"role": "system", "content": "You help customers."},
                                    {"role": "user", "content": f"मेरा ऑर्डर {i} कहाँ है?"}]}, ensure_ascii=False)


def test_jsonl_chats_with_broken_lines_count_the_rest_and_say_which() -> None:
    lines = [chat_line(1), "{broken", chat_line(3), '{"other": 1}', chat_line(5)]
    text = "\n".join(lines)
    at = run_page(PAGE, query_params={"text": text, "kind": "jsonl"})
    records, problems = est.read_records(text, "jsonl")
    assert [p.number for p in problems] == [2, 4]
    warned = warnings(at)
    assert "lines 2 and 4" in warned and "The other 3 records are counted" in warned
    assert cards(at) == [expected(k, records) for k in ev.default_models()]
    overhead = sum(est.chat_overhead(fm.find("gpt-4o"), r.messages) for r in records)
    assert f"Chat format (openai): {overhead} tokens around the messages of 3 chats" in said(at)


def test_jsonl_a_named_field() -> None:
    text = "\n".join(json.dumps({"q": f"question {i} " * i}) for i in range(1, 6))
    at = run_page(PAGE, query_params={"text": text, "kind": "jsonl"})
    assert "could not be read" in warnings(at)
    at.text_input(key=ev.FIELD.skey).input("q").run()
    records, problems = est.read_records(text, "jsonl", field="q")
    assert not problems and cards(at)[0] == expected("gpt-4o", records)
    assert "--lines --field q" in codes(at)


CSV = "id,prompt,lang\n1,नमस्ते दुनिया,hi\n2,\"Hello, world\",en\n3,चाय पीजिए,hi\n"


def test_csv_a_column_picked_from_the_header() -> None:
    at = run_page(PAGE, query_params={"text": CSV, "kind": "csv"})
    box = at.selectbox(key=ev.COLUMN.skey)
    assert box.options == ["id", "prompt", "lang"] and box.value == "id"
    box.set_value("prompt").run()
    records, _ = est.read_records(CSV, "csv", column="prompt")
    assert cards(at) == [expected(k, records) for k in ev.default_models()]
    assert "--lines --column prompt" in codes(at)


def test_csv_a_missing_column_is_named_with_the_columns_there_are() -> None:
    at = run_page(PAGE, query_params={"text": CSV, "kind": "csv", "column": "question"})
    try:
        est.read_records(CSV, "csv", column="question")
    except est.EstimateInputError as exc:
        message = str(exc)
    assert message in warnings(at)
    assert at.selectbox(key=ev.COLUMN.skey).value == "id"


# -- bad input ---------------------------------------------------------------------------------------------
def test_empty_text() -> None:
    at = run_page(PAGE, query_params={"text": ""})
    at.text_area(key=ev.TEXT.skey).input("   ").run()
    assert "Paste a prompt above" in infos(at)
    assert not at.main.get("metric")


def test_no_model() -> None:
    at = run_page(PAGE)
    at.multiselect(key=ev.MODELS_LIST.skey).set_value([]).run()
    assert "Pick at least one model." in infos(at)
    assert not at.main.get("metric")


def test_huge_pasted_text_is_refused_with_what_to_do() -> None:
    at = run_page(PAGE)
    at.text_area(key=ev.TEXT.skey).input("नमस्ते " * 200_000).run()  # 3.8 MB
    assert "This page takes up to 2 MB" in warnings(at) and "upload it as a file" in warnings(at)
    assert not at.main.get("metric")


def upload(at, name: str, data: bytes):
    at.segmented_control(key=ev.SOURCE.skey).set_value("file").run()
    at.file_uploader(key=uploads.widget_key(ev.UPLOAD.skey)).set_value((name, data, "text/plain")).run()
    return at


def test_upload_a_jsonl_file_reads_it_as_jsonl() -> None:
    data = "\n".join(chat_line(i) for i in range(1, 301)).encode("utf-8")
    at = upload(run_page(PAGE), "chats.jsonl", data)
    assert at.segmented_control(key=ev.KIND.skey).value == "jsonl"
    records, _ = est.read_records(data.decode("utf-8"), "jsonl")
    assert cards(at) == [expected(k, records) for k in ev.default_models()]
    assert "--file chats.jsonl --lines" in codes(at)
    assert "chats" not in " ".join(at.query_params.get("text", []))  # the file never goes in the link
    at.run()  # a rerun counts nothing again and shows the same
    assert cards(at) == [expected(k, records) for k in ev.default_models()]


def test_binary_and_utf16_uploads_are_named() -> None:
    at = upload(run_page(PAGE), "data.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR")
    assert "binary" in warnings(at).lower()
    assert not at.main.get("metric")
    at = upload(run_page(PAGE), "utf16.txt", "नमस्ते दुनिया\n".encode("utf-16"))
    assert "UTF-16" in warnings(at) and "iconv" in warnings(at)


def test_a_file_over_the_limit_points_to_the_command_line() -> None:
    at = upload(run_page(PAGE), "big.txt", b"a line of text\n" * (ev.UPLOAD_BYTES // 15 + 1))
    warned = warnings(at)
    assert f"this page reads files of up to {ev.UPLOAD_MB} MB" in warned and "command line" in warned
    cmd = codes(at)
    assert "python -m tokenizer count --model gpt-4o --model gpt-4 --model llama-3.3-70b --file big.txt --lines" in cmd
    assert "python -m tokenizer cost --model gpt-4o" in cmd
    assert not at.main.get("metric")


def test_too_many_records_points_to_the_command_line(monkeypatch) -> None:
    monkeypatch.setattr(ev.settings, "MAX_RECORDS", 3)
    at = run_page(PAGE, query_params={"text": "a\nb\nc\nd", "kind": "lines"})
    assert "This input has more than 3 records; this page counts up to 3 in one go" in warnings(at)
    assert not at.main.get("metric")


def test_the_command_lines() -> None:
    asked = ev.Asked(output="ratio", out_ratio=0.25, requests=10, inr=88.6923, kind="csv", column="my prompt",
                     file_name="d a.csv", cached=0.5, batch=True, reasoning=500, extras=False)
    lines = [re.sub(r" \\\n\s*", " ", line) for line in ev.command_lines(
        [("gpt-4o", None), ("llama-3", (Decimal("0.2"), Decimal("0.4")))], ["qwen3"], asked)]
    assert lines == [
        "python -m tokenizer cost --model gpt-4o --model llama-3 --input-price llama-3=0.2 --output-price llama-3=0.4 "
        "--output-ratio 0.25 --reasoning-tokens 500 --cached-share 0.5 --batch --requests-per-month 10 "
        "--inr-per-usd 88.6923 --no-template-extras --file 'd a.csv' --lines --column 'my prompt'",
        "python -m tokenizer count --model qwen3 --no-template-extras --file 'd a.csv' --lines --column 'my prompt'"]


@pytest.mark.parametrize("as_chat", [False, True], ids=["as text", "as a chat"])
def test_the_pages_command_runs_and_gives_the_pages_figures(capsys, as_chat: bool) -> None:
    """The command shown is run as given (a text that starts with a dash included, and the chat switch): its
    tokens, USD and INR are the page's cards."""
    at = run_page(PAGE)
    at.text_area(key=ev.TEXT.skey).input("-5% off चाय today? क्या यह सच है").run()
    at.toggle(key=ev.AS_CHAT.skey).set_value(as_chat).run()
    (line,) = codes(at).splitlines()
    assert ("--as-chat" in shlex.split(line)) == as_chat
    got = run_printed(capsys, line)["models"]
    for card, row in zip(cards(at), got, strict=True):
        assert_card_is_row(card, row)


def run_printed(capsys, line: str) -> dict:
    """A command the page printed, run as the command line runs it (with --json), in this process."""
    import cli

    words = shlex.split(line)
    assert words[:3] == ["python", "-m", "tokenizer"]
    assert cli.main([*words[3:4], "--json", *words[4:]]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def assert_card_is_row(card: dict[str, str], row: dict) -> None:
    """A card's tokens and costs are what the command line printed for its model."""
    tokens = card.get("Input tokens") or card["Input tokens a request (mean)"]
    mean = Decimal(str(row["input_tokens"]))
    assert tokens == (f"{mean:,.0f}" if mean == mean.to_integral_value() else f"{est.one_decimal(mean):,}")
    assert card["USD a request"] == est.usd(Decimal(row["usd_per_request"]))
    assert card["INR a month"] == est.inr(Decimal(row["inr_per_month"]))


def test_the_views_docstring_examples() -> None:
    import doctest
    import importlib
    import pkgutil

    attempted = 0
    for info in pkgutil.iter_modules(ev.__path__):
        module = importlib.import_module(f"views.estimate.{info.name}")
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0, info.name
        attempted += result.attempted
    assert attempted >= 3


# -- the bounds, by design: a hostile upload in a child with limits --------------------------------------------
BOUNDED_PAGE = """
import json, sys, time
sys.path.insert(0, ".")
from tests.apptest_helpers import exception_messages, page_text, run_page
from ui import uploads
from views import estimate as ev
out = []
for name, size, line in json.loads(sys.stdin.read()):
    start = time.process_time()
    at = run_page("pages/14_Estimate.py", allow_exceptions=True, timeout=120)
    at.segmented_control(key=ev.SOURCE.skey).set_value("file").run()
    data = (line * (size // len(line) + 1)).encode("utf-8")
    at.file_uploader(key=uploads.widget_key(ev.UPLOAD.skey)).set_value((name, data, "text/plain")).run()
    del data
    out.append({"cpu_s": time.process_time() - start, "shown": page_text(at), "exceptions": exception_messages(at),
                "metrics": len(at.main.get("metric"))})
print(json.dumps(out))
"""


def test_hostile_uploads_get_one_message_in_bounded_time_and_memory() -> None:
    """A file just under the page's 20 MB of short lines (over the records limit: refused before any counting) and
    one over 20 MB (refused before decoding): each gets its message, and the child stays small and quick."""
    from tests.bounded import run_python

    cases = [["short-lines.txt", ev.UPLOAD_BYTES - 100, "ok\n"], ["huge.txt", ev.UPLOAD_BYTES + 1_000, "नमस्ते\n"]]
    child = run_python(["-c", BOUNDED_PAGE], stdin=json.dumps(cases), cpu_limit_s=120, memory_limit=3 * 1024**3,
                       timeout_s=300)
    assert child.code == 0, child.err[-2000:]
    short, huge = json.loads(child.out)
    for seen in (short, huge):
        assert not seen["exceptions"] and seen["metrics"] == 0
        assert "python -m tokenizer count" in seen["shown"], seen["shown"][-1500:]
        assert seen["cpu_s"] < 40, seen["cpu_s"]  # a page run and the file read, with imports on the first
    assert f"more than {ev.settings.MAX_RECORDS:,} records; this page counts up to" in unescaped(short["shown"])
    assert f"this page reads files of up to {ev.UPLOAD_MB} MB" in unescaped(huge["shown"])
    assert "Traceback" not in child.err
    child.assert_bounded(cpu_s=60, peak_mb=1000)  # measured: 3 s of CPU, 470 MB with AppTest and Streamlit


class Bar:
    """A stand-in for st.progress: the fractions it was moved to."""

    def __init__(self) -> None:
        self.moves: list[float] = []

    def progress(self, value: float, text: str = "") -> None:
        self.moves.append(value)


def test_counting_moves_the_bar_a_batch_at_a_time(monkeypatch) -> None:
    monkeypatch.setattr(ev.settings, "BATCH", 10)
    text = "\n".join(f"record {i} " * (i % 7 + 1) for i in range(95))
    records, _ = est.read_records(text, "lines")
    data = ev.Data("x", records, [], len(text), None)
    model = fm.find("gpt-4o")
    target = ev.Target(model.key, model.name, model.tokenizer, real.load(model.tokenizer), model)
    bar = Bar()
    counted = ev.count_targets([target], data, bar)[target.key]
    assert bar.moves == [n / 95 for n in [*range(10, 95, 10), 95]]  # every 10 records, to the last
    tok = real.load(model.tokenizer)
    assert counted.stats.total == sum(tok.count(r.text) for r in records) and counted.overhead is None


def test_many_broken_lines_list_the_first_ten_and_count_them_all() -> None:
    text = "\n".join([chat_line(1)] + ["{broken"] * 25 + [chat_line(27)])
    at = run_page(PAGE, query_params={"text": text, "kind": "jsonl"})
    assert "25 lines could not be read" in warnings(at)
    assert "lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 15 more" in warnings(at)
    assert "The other 2 records are counted" in warnings(at)


def test_one_prompt_longer_than_a_record_may_be_points_to_lines_or_the_command_line() -> None:
    at = run_page(PAGE)
    at.text_area(key=ev.TEXT.skey).input("chai " * (est.MAX_RECORD_CHARS // 5 + 1)).run()
    assert "As one prompt, this text is longer than any model reads" in warnings(at)
    assert "python -m tokenizer count --model gpt-4o" in codes(at) and "--file YOUR_FILE.txt" in codes(at)
    at.segmented_control(key=ev.KIND.skey).set_value("lines").run()
    assert "longer than any model reads" not in warnings(at)


def test_a_link_to_an_uploaded_file_asks_for_the_file_again() -> None:
    at = run_page(PAGE, query_params={"source": "file", "kind": "jsonl", "models": "gpt-4o"})
    assert "a file is never put in the link: after a reload, upload it again" in infos(at)
    assert at.segmented_control(key=ev.KIND.skey).value == "jsonl"
    assert at.multiselect(key=ev.MODELS_LIST.skey).value == ["gpt-4o"]
    assert not at.main.get("metric")


# -- issue 27: the page and the command it prints agree, on every kind of file and every model choice ------------

BOM = b"\xef\xbb\xbf"
FILES = {
    "bom.csv": BOM + "prompt,id\r\nनमस्ते, मेरा ऑर्डर कहाँ है?,1\r\nWhere is my order?,2\r\n\"a, \"\"quoted\"\" one\",3\r\n".encode(),
    "crlf.txt": "Where is my order?\r\nमेरा रिफ़ंड कब आएगा?\r\n\r\nOK thanks\r\n".encode(),
    "chats.jsonl": "\n".join(json.dumps(row, ensure_ascii=False) for row in [
        {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "name": "asha",
                                                                   "content": "मेरा ऑर्डर कहाँ है?"}]},
        {"text": "Where is my order?"}, {"broken": True}, "{not json",
        {"messages": [{"role": "user", "content": "Hello there"}]}]).encode(),
    "prompt.txt": BOM + "One long prompt: घने कोहरे से शहर में स्कूल बंद रहे।\nSecond line of the same prompt.\n".encode(),
}
KIND_OF = {"bom.csv": "csv", "crlf.txt": "lines", "chats.jsonl": "jsonl", "prompt.txt": "text"}
CHOICES = {  # every kind of model choice: published prices, none (counted only), one given on the page, reasoning
    "priced": ["gpt-4o-mini", "llama-3.1-8b"],
    "unpriced": ["gpt-4o-mini", "qwen3"],
    "price given": ["gpt-4o-mini", "qwen3"],
    "reasoning and a template": ["o3", "llama-3.3-70b", "qwen2.5"],
}


@pytest.mark.parametrize("choice", list(CHOICES))
@pytest.mark.parametrize("name", list(FILES))
def test_the_printed_commands_give_the_pages_numbers_on_every_file_and_model_choice(tmp_path, monkeypatch, capsys,
                                                                                   name, choice) -> None:
    """Upload the file, pick the models, run every command the page prints on the same file (saved under the
    name the command uses): each card's tokens and costs are the command's. The page reads a BOM, \\r\\n, a CSV's
    quoted cell, broken JSONL lines, a message's name as the command line does; a model without a price is counted
    (count), one with a price given on the page is priced with it, the others at their published prices."""
    at = run_page(PAGE, query_params={"models": ",".join(CHOICES[choice])})
    at = upload(at, name, FILES[name])
    at.segmented_control(key=ev.KIND.skey).set_value(KIND_OF[name]).run()
    if KIND_OF[name] == "csv":
        at.selectbox(key=ev.COLUMN.skey).set_value("prompt").run()
    if choice == "price given":
        p_in, p_out = ev.price_params("qwen3")
        at.number_input(key=p_in.skey).set_value(0.2).run()
        at.number_input(key=p_out.skey).set_value(0.6).run()
    if choice == "reasoning and a template":
        at.toggle(key=ev.AS_CHAT.skey).set_value(True).run()
        at.number_input(key=ev.REASONING.skey).set_value(1500).run()
    assert_no_exception(at)
    (tmp_path / name).write_bytes(FILES[name])
    monkeypatch.chdir(tmp_path)
    shown = cards(at)
    keys = CHOICES[choice]
    assert len(shown) == len(keys)
    rows: dict[str, dict] = {}
    for line in codes(at).splitlines():
        out = run_printed(capsys, line)
        if line.startswith("python -m tokenizer cost"):
            rows.update({row["model"]: row for row in out["models"]})
        else:  # counted only: no price
            rows.update({row["model"]: {"count": row} for row in out["results"]})
    assert list(rows) == keys or sorted(rows) == sorted(keys)
    for key, card in zip(keys, shown):
        row = rows[key]
        if "count" in row:
            assert "USD a request" not in card
            count_row = row["count"]
            tokens = count_row["tokens"] if "records" not in count_row else None
            if tokens is None:
                assert (card.get("Input tokens") or card["Input tokens a request (mean)"]) == est.mean_shown(
                    count_row["tokens"], count_row["records"])
            else:
                assert card["Input tokens"] == f"{tokens:,}"
        else:
            assert_card_is_row(card, row)


def test_the_bill_shows_input_and_output_apart_measured_and_assumed() -> None:
    at = run_page(PAGE, query_params={"models": "gpt-4.1"})
    model = fm.find("gpt-4.1")
    tok = real.load(model.tokenizer)
    bill = est.cost(tok.count(TEXT), fm.price("gpt-4.1"), output_tokens=300, requests_per_month=100_000,
                    inr_per_usd=fm.INR_PER_USD)
    text = said(at)
    assert "What the bill is made of" in text
    inp, out = bill.part("input"), bill.part("output")
    assert (f"Input: {inp.tokens:,.0f} tokens a request, measured by {tok.name} · "
            f"{est.usd(inp.usd_per_request)} a request, {est.usd(bill.month(inp.usd_per_request))} a month") in text
    assert (f"Output: 300 tokens a request, assumed: yours (Change the numbers) · "
            f"{est.usd(out.usd_per_request)} a request, {est.usd(bill.month(out.usd_per_request))} a month") in text
    assert f"({out.usd_per_request / bill.usd_per_request:.0%} of it assumed)" in text


def test_a_reasoning_model_says_so_where_it_is_picked_and_bills_an_editable_dated_budget() -> None:
    budget = fm.reasoning_budget()
    at = run_page(PAGE, query_params={"models": "o3,gpt-4o"})
    assert "o3 bills hidden reasoning tokens as output" in infos(at)
    assert f"the lab's {budget.name}, {budget.value:,} as of {budget.date}" in infos(at)
    tok = real.load("o200k_base")
    card = cards(at)[0]
    with_budget = est.cost(tok.count(TEXT), fm.price("o3"), output_tokens=300, reasoning_tokens=budget.value,
                           requests_per_month=100_000, inr_per_usd=fm.INR_PER_USD)
    assert card["USD a request"] == est.usd(with_budget.usd_per_request)
    assert f"Reasoning: {budget.value:,} tokens a request, assumed: the lab's {budget.name} ({budget.date})" in said(at)
    at.number_input(key=ev.REASONING.skey).set_value(200).run()
    less = est.cost(tok.count(TEXT), fm.price("o3"), output_tokens=300, reasoning_tokens=200,
                    requests_per_month=100_000, inr_per_usd=fm.INR_PER_USD)
    assert cards(at)[0]["USD a request"] == est.usd(less.usd_per_request)
    assert cards(at)[1] == expected("gpt-4o", one())  # not a reasoning model: no budget
    assert "--reasoning-tokens 200" in codes(at) and at.query_params["reasoning"] == "200"


def test_discounts_cached_input_and_batch_prices() -> None:
    at = run_page(PAGE, query_params={"models": "gpt-4o,llama-3.3-70b"})
    at.number_input(key=ev.CACHED.skey).set_value(0.5).run()
    at.toggle(key=ev.BATCH_PRICES.skey).set_value(True).run()
    tok = real.load("o200k_base")
    c = est.cost(tok.count(TEXT), fm.price("gpt-4o"), output_tokens=300, cached_share=0.5, batch=True,
                 requests_per_month=100_000, inr_per_usd=fm.INR_PER_USD)
    assert cards(at)[0]["USD a month"] == est.usd(c.usd_per_month)
    assert "No batch price published here: the list prices." in said(at)  # Groq's Llama: none entered
    assert "--cached-share 0.5" in codes(at) and "--batch" in codes(at)


def test_the_official_templates_extras_are_counted_said_and_can_be_left_out() -> None:
    at = run_page(PAGE, query_params={"models": "llama-3.1-8b", "as_chat": "1"})
    model = fm.find("llama-3.1-8b")
    tok = real.load(model.tokenizer)
    chat = (("user", TEXT),)
    counted = est.count_chat(tok, chat, model)
    assert cards(at)[0]["Input tokens"] == f"{counted.tokens:,}"
    assert f"{counted.extras:,} of them are {est.TEMPLATES['llama3.1']}" in said(at)
    at.toggle(key=ev.EXTRAS.skey).set_value(False).run()
    assert cards(at)[0]["Input tokens"] == f"{est.count_chat(tok, chat, model, extras=False).tokens:,}"
    assert "--no-template-extras" in codes(at) and at.query_params["extras"] == "0"


def test_the_models_the_lab_cannot_count_are_named_with_what_to_do() -> None:
    at = run_page(PAGE)
    text = said(at)
    for m in fm.uncountable():
        assert f"{m.name} ({m.vendor})" in text and m.instead in text


def test_the_exchange_rate_is_shown_as_entered() -> None:
    at = run_page(PAGE, query_params={"inr": "88.6923"})
    assert "Exchange rate: Rs 88.6923 a dollar (yours)" in said(at)
    assert at.number_input(key=ev.INR.skey).format == "%.4f"
    assert "--inr-per-usd 88.6923" in codes(at)


def test_a_mean_is_rounded_half_up_on_the_card_and_in_the_table() -> None:
    """23.25 tokens a record: '23.2' on the card, '23.3' in the table (Python's rounding and the browser's)."""
    lines = ["a" + " a" * (n - 1) for n in (23, 23, 23, 24)]
    at = run_page(PAGE, query_params={"text": "\n".join(lines), "kind": "lines", "models": "gpt-4o"})
    assert cards(at)[0]["Input tokens a request (mean)"] == "23.3"
    stats = at.main.get("dataframe")[0].value
    assert f"{stats['mean'].iloc[0]:.1f}" == "23.3"


def test_the_histograms_last_bar_is_drawn_whole() -> None:
    """Each bar runs from its first count to the one after its last: a bin one count wide (the last, here) had
    no width, and the axis ended where the last bar began."""
    from views.estimate.records import histogram_spec

    spec = histogram_spec(((5, 5, 2), (6, 6, 0), (7, 7, 1)), "GPT-4o", False)
    layer = spec.get("encoding") or spec["layer"][0]["encoding"]
    assert layer["x2"]["field"] == "end" and layer["x"]["scale"]["domain"] == [5, 8]
    values = next(iter(spec["datasets"].values()))
    assert [(v["low"], v["end"]) for v in values] == [(5, 6), (6, 7), (7, 8)]


def test_estimate_in_hindi() -> None:
    """?lang=hi: the page's words in Hindi; the cards' figures from the engine (analyses.estimate), money through
    i18n.money: rupees with ₹ and dollars grouped the Indian way; the printed command as it is (code)."""
    from i18n import money

    at = run_page(PAGE, query_params={"lang": "hi"})
    assert_no_exception(at)
    assert at.multiselect(key=ev.MODELS_LIST.skey).label == "मॉडल"
    assert at.text_area(key=ev.TEXT.skey).label == "आपका प्रॉम्प्ट या रिकॉर्ड"
    assert at.segmented_control(key=ev.SOURCE.skey).options == ["टेक्स्ट चिपकाइए", "फ़ाइल अपलोड कीजिए"]
    assert at.number_input(key=ev.REQUESTS.skey).label == "हर महीने के अनुरोध"
    assert [h.value for h in at.main.get("subheader")][0] == "इसकी क़ीमत"
    assert "विनिमय दर: एक डॉलर के ₹88 (लैब का डिफ़ॉल्ट" in said(at)
    assert codes(at).startswith("python -m tokenizer cost --model gpt-4o")  # code stays as it is
    # a big month: dollars and rupees grouped the Indian way, the digits the engine's
    at = run_page(PAGE, query_params={"lang": "hi", "models": "gpt-4o", "per_month": "100000000"})
    tok = real.load("o200k_base")
    bill = est.cost(tok.count(TEXT), fm.price("gpt-4o"), output_tokens=300, requests_per_month=100_000_000,
                    inr_per_usd=fm.INR_PER_USD)
    card = {m.label: m.value for m in at.main.get("metric")}  # one model: one card
    assert set(card) == {"इनपुट टोकन", "हर अनुरोध के USD", "हर अनुरोध के INR", "हर महीने के USD", "हर महीने के INR"}
    usd_month = est.usd(bill.usd_per_month)  # the engine's, $320,000.00
    assert bill.usd_per_month >= 100_000
    assert card["हर महीने के USD"] == money(float(usd_month[1:].replace(",", "")), "USD", 2, "hi") != usd_month
    inr_month = est.inr(bill.inr_per_month)  # "Rs 12,34,56,789": Indian grouping already, ₹ in Hindi
    assert card["हर महीने के INR"] == "₹" + inr_month.removeprefix("Rs ")
    assert card["इनपुट टोकन"] == str(tok.count(TEXT))
    assert "**बिल किन चीज़ों से बना है** (" in main_text(at) and "× हर महीने 10,00,00,000 अनुरोध।" in said(at)
    # records a line: the statistics, the longest and the histogram in Hindi
    lines = "\n".join(["नमस्ते", "आज मौसम अच्छा है।", "short", "a longer English line to count"])
    at = run_page(PAGE, query_params={"lang": "hi", "text": lines, "kind": "lines"})
    assert_no_exception(at)
    assert "आपके रिकॉर्ड" in [h.value for h in at.main.get("subheader")]
    assert at.selectbox(key=ev.RECORDS_OF.skey).label == "सबसे लंबे रिकॉर्ड और हिस्टोग्राम, इसके लिए"
    (chart,) = at.main.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    assert "हर रिकॉर्ड के टोकन (GPT-4o)" in json.dumps(spec, ensure_ascii=False)
    assert spec["config"]["locale"]["number"]["grouping"][:2] == [3, 2]  # the axis grouped the Indian way
    # a reasoning model and a model without a price
    at = run_page(PAGE, query_params={"lang": "hi", "models": "o3,llama-3"})
    budget = fm.reasoning_budget()
    assert "o3 छिपे हुए रीज़निंग टोकन को आउटपुट की तरह बिल करता है:" in infos(at)
    assert f"लैब का रीज़निंग बजट, {budget.date} के हिसाब से {budget.value:,}" in infos(at)
    assert "यहाँ Llama 3 का कोई प्रकाशित दाम नहीं है" in infos(at)


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_the_exchange_rates_source_is_linked_without_the_sentences_parenthesis(lang) -> None:
    """The caption names the exchange rate's source and links its address: the link is written as Markdown's
    [name](address), so the ")" that closes the caption's parenthesis (and Hindi's "।" after it) stays outside the
    link; a bare address was linked up to the next space, "))." or "))।" with it."""
    from i18n import using
    from views.estimate.bill import source_link

    with using(lang):
        source = fm.exchange_source()  # the source's words in the page's language (Hindi beside it in prices.toml)
    name, _, address = source.rpartition(" (")
    address = address.removesuffix(")")
    assert address.startswith("https://") and ")" not in address
    at = run_page(PAGE, query_params={"lang": lang})
    assert_no_exception(at)
    (caption,) = [c.value for c in at.main.get("caption") if source_link(source) in c.value]
    assert f"]({address}))" in caption  # the link ends at its address; the sentence's parenthesis closes after it
    assert f"({address}" not in caption.replace(f"]({address})", "")  # the address is not written bare as well
    assert unescaped(caption.split("](")[0]).endswith(f"[{name}")


def test_the_engines_refusals_of_records_and_files_in_hindi() -> None:
    """?lang=hi: what the engine says of a record it cannot read (analyses.records), of a CSV without the column
    asked for, and of a file that is not UTF-8 (tokenizer.textfile) is said in Hindi; the file keeps its name."""
    text = "\n".join([json.dumps({"text": "नमस्ते"}), "{not json", json.dumps([1, 2]), json.dumps({"q": "x"})])
    at = run_page(PAGE, query_params={"lang": "hi", "text": text, "kind": "jsonl"})
    assert_no_exception(at)
    warned = warnings(at)
    assert "3 लाइनें पढ़ी नहीं जा सकीं" in warned, warned
    assert "(लाइन 2: JSON नहीं है (" in warned and ", कॉलम 2)" in warned, warned
    # the same input in English, then in Hindi again: the reasons follow the language (the session's read is redone)
    at = run_page(PAGE, query_params={"lang": "en", "text": text, "kind": "jsonl"})
    assert "(line 2: not JSON (" in warnings(at)
    # a record of another kind, in Hindi
    at = run_page(PAGE, query_params={"lang": "hi", "text": json.dumps([1, 2]), "kind": "jsonl"})
    assert "JSON list है, ऑब्जेक्ट ({...}) नहीं" in warnings(at), warnings(at)
    # a CSV without the column asked for
    at = run_page(PAGE, query_params={"lang": "hi", "text": CSV, "kind": "csv", "column": "nope"})
    assert_no_exception(at)
    assert "CSV में 'nope' कॉलम नहीं है; इसके कॉलम ये हैं: 'id', 'prompt', 'lang'" in warnings(at), warnings(at)
    # files that are not UTF-8

    def upload(at, name: str, data: bytes):  # the source picked by the link (the control's options are in Hindi)
        at.file_uploader(key=uploads.widget_key(ev.UPLOAD.skey)).set_value((name, data, "text/plain")).run()
        return at

    at = upload(run_page(PAGE, query_params={"lang": "hi", "source": "file"}), "utf16.txt", "नमस्ते दुनिया\n".encode("utf-16"))
    assert_no_exception(at)
    assert ("utf16.txt UTF-8 में नहीं, UTF-16 (little-endian) में है: इसे बदलिए (iconv -f UTF-16 -t UTF-8 FILE)"
            in warnings(at)), warnings(at)
    at = upload(run_page(PAGE, query_params={"lang": "hi", "source": "file"}), "data.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR")
    assert "data.txt सादा टेक्स्ट नहीं, बाइनरी लगती है (इसमें ऑफ़सेट 8 पर एक NUL बाइट है)" in warnings(at)
    at = upload(run_page(PAGE, query_params={"lang": "hi", "source": "file"}), "latin1.txt", "chai café\n".encode("latin-1"))
    assert ("latin1.txt मान्य UTF-8 नहीं है: ऑफ़सेट 8 पर बाइट 0xE9 एक कैरेक्टर शुरू करता है, जिसे उसके बाद के बाइट "
            "पूरा नहीं करते।") in warnings(at), warnings(at)
    assert not at.main.get("metric")


def test_what_an_official_template_adds_is_said_in_hindi() -> None:
    """?lang=hi: what Llama 3.1's and Qwen 2.5's official templates add (analyses.estimate.TEMPLATES, marked for the
    catalogue) is said in Hindi under the card; the command line's words for it stay English (the printed command is
    code, and `python -m tokenizer` sets no language)."""
    from i18n import _, using

    text = "\n".join(chat_line(i) for i in range(1, 4))
    at = run_page(PAGE, query_params={"lang": "hi", "text": text, "kind": "jsonl", "models": "llama-3.1-8b,qwen2.5"})
    assert_no_exception(at)
    with using("hi"):
        llama = _(est.TEMPLATES["llama3.1"])
    assert llama != est.TEMPLATES["llama3.1"] and llama.startswith("वह system ब्लॉक जो Llama 3.1-3.3")
    shown = said(at)
    assert f"{llama}।" in shown, shown
    assert est.TEMPLATES["llama3.1"] not in shown and est.TEMPLATES["qwen2.5"] not in shown
