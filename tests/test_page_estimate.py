"""The Estimate page (AppTest): every control, the figures computed by the engine at run time, and bad input.

Every expected number here comes from the engine (analyses.estimate, family.models) on the same input: none is
typed in.
"""

from __future__ import annotations

import json
import re
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
    return "\n".join(c.value for c in at.main.get("code"))


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
    bill = est.cost(stats.mean, price or fm.price(key), output_tokens=output_tokens, output_ratio=output_ratio,
                    requests_per_month=requests, inr_per_usd=inr)
    label = "Input tokens" if len(records) == 1 else "Input tokens a request (mean)"
    return {label: ev.tokens_text(stats.mean) if len(records) > 1 else f"{stats.total:,}",
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
    cmd = codes(at).splitlines()
    assert cmd[0].startswith("python -m tokenizer cost --model gpt-4 --model llama-3.3-70b ")
    assert cmd[1].startswith("python -m tokenizer cost --model gpt-4o ") and "--input-price 5.0 --output-price 20.0" in cmd[1]
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
    assert "Llama 3: give --input-price and --output-price" in said(at)
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
    monkeypatch.setattr(ev, "MAX_RECORDS", 3)
    at = run_page(PAGE, query_params={"text": "a\nb\nc\nd", "kind": "lines"})
    assert "This input has more than 3 records; this page counts up to 3 in one go" in warnings(at)
    assert not at.main.get("metric")


def test_the_command_lines() -> None:
    lines = ev.command_lines(["gpt-4o", "llama-3"], prices={"llama-3": (Decimal("0.2"), Decimal("0.4"))},
                             output="ratio", out_tokens=300, out_ratio=0.25, requests=10, inr=88.0, kind="csv",
                             field=None, column="my prompt", file_name="d a.csv", text=None)
    assert lines == [
        "python -m tokenizer cost --model gpt-4o --output-ratio 0.25 --requests-per-month 10 --inr-per-usd 88 "
        "--file 'd a.csv' --lines --column 'my prompt'",
        "python -m tokenizer cost --model llama-3 --output-ratio 0.25 --requests-per-month 10 --inr-per-usd 88 "
        "--input-price 0.2 --output-price 0.4 --file 'd a.csv' --lines --column 'my prompt'"]


@pytest.mark.parametrize("as_chat", [False, True], ids=["as text", "as a chat"])
def test_the_pages_command_runs_and_gives_the_pages_figures(capsys, as_chat: bool) -> None:
    """The command shown is run as given (a text that starts with a dash included, and the chat switch): its
    tokens, USD and INR are the page's cards."""
    import shlex

    import cli

    at = run_page(PAGE)
    at.text_area(key=ev.TEXT.skey).input("-5% off चाय today? क्या यह सच है").run()
    at.toggle(key=ev.AS_CHAT.skey).set_value(as_chat).run()
    (line,) = codes(at).splitlines()
    words = shlex.split(line)
    assert words[:3] == ["python", "-m", "tokenizer"] and ("--as-chat" in words) == as_chat
    assert cli.main([*words[3:4], "--json", *words[4:]]) == 0
    got = json.loads(capsys.readouterr().out)["models"]
    for card, row in zip(cards(at), got, strict=True):
        tokens = card.get("Input tokens") or card["Input tokens a request (mean)"]
        assert tokens == f"{row['input_tokens']:,.0f}"
        assert card["USD a request"] == est.usd(Decimal(row["usd_per_request"]))
        assert card["INR a month"] == est.inr(Decimal(row["inr_per_month"]))


def test_the_views_docstring_examples() -> None:
    import doctest

    result = doctest.testmod(ev, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 3 and result.failed == 0


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
    assert f"more than {ev.MAX_RECORDS:,} records; this page counts up to" in unescaped(short["shown"])
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
    monkeypatch.setattr(ev, "BATCH", 10)
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
