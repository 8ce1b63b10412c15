"""The estimate's engine (analyses/estimate.py, analyses/records.py): records from every kind of input (and bad
input), per-record statistics, each chat format's overhead checked against an independent count, money."""

from __future__ import annotations

import io
import json
import math
import random
import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyses.estimate import (
    MAX_RECORD_CHARS,
    EstimateInputError,
    Problem,
    Record,
    StatsBuilder,
    chat_overhead,
    cost,
    count_chat,
    inr,
    iter_records,
    lines_of,
    percentile,
    premium,
    read_records,
    record_tokens,
    usd,
)
from family import real
from family.models import find, models, price
from tests.bounded import run_bounded

CHAT = [("system", "You answer in one line."), ("user", "  Ek cup chai kitne ki hai?  "),
        ("assistant", "Bees rupaye."), ("user", "और समोसा?")]


# -- records -----------------------------------------------------------------------------------------------------


def test_text_is_one_record_lines_are_many():
    text = "Namaste\r\n\n  \nचाय\rlast"
    assert read_records(text, "text") == ([Record(1, text)], [])
    records, problems = read_records(text, "lines")
    assert [(r.number, r.text) for r in records] == [(1, "Namaste"), (4, "चाय"), (5, "last")]
    assert problems == []


def test_lines_end_only_at_line_breaks():
    """A form feed or U+2028 inside a line is text, as in a file (str.splitlines would cut there)."""
    records, _ = read_records("a\x0cb\u2028c\x85d\nnext", "lines")
    assert [r.text for r in records] == ["a\x0cb\u2028c\x85d", "next"]


def test_jsonl_broken_lines_are_reported_by_number_and_the_rest_counted():
    lines = [json.dumps({"text": "chai"}), "{broken", "", json.dumps({"prompt": "samosa"}), "[1, 2]",
             json.dumps({"other": 1}), json.dumps({"text": 5}), "[" * 100_000, '{"n": 1' + "0" * 5000 + "}",
             json.dumps({"text": "last"})]
    records, problems = read_records("\n".join(lines), "jsonl")
    assert [(r.number, r.text) for r in records] == [(1, "chai"), (4, "samosa"), (10, "last")]
    assert [p.number for p in problems] == [2, 5, 6, 7, 8, 9]
    reasons = {p.number: p.reason for p in problems}
    assert reasons[2].startswith("not JSON (")
    assert "not an object" in reasons[5]
    assert "no 'messages', 'text' or 'prompt' field (it has 'other')" in reasons[6]
    assert "nested too deep" in reasons[8] and "too long" in reasons[9]


def test_jsonl_named_field_and_chats():
    rows = [{"q": "Chai?", "messages": [{"role": "user", "content": "ignored"}]},
            {"q": [{"role": "system", "content": None},
                   {"role": "user", "content": [{"type": "text", "text": "See"},
                                                {"type": "image_url", "image_url": {"url": "x"}},
                                                {"type": "text", "text": "this"}]}]},
            {"text": "no q"}, {"q": [{"content": "no role"}]}, {"q": []}, {"q": [{"role": "user", "content": 3}]}]
    records, problems = read_records("\n".join(json.dumps(r) for r in rows), "jsonl", field="q")
    assert records == [Record(1, "Chai?"), Record(2, None, (("system", ""), ("user", "See\nthis")))]
    assert [p.number for p in problems] == [3, 4, 5, 6]
    assert "no field 'q' (it has 'text')" in problems[0].reason
    # Without a field, messages come first.
    records, _ = read_records(json.dumps(rows[0]), "jsonl")
    assert records == [Record(1, None, (("user", "ignored"),))]


def test_csv_column_rows_and_a_bare_cr():
    text = 'id,prompt\r1,"Chai\rwith a CR inside"\r\r2,plain\r\n3\r4,"x\x00y"'
    records, problems = read_records(text, "csv", column="prompt")
    assert [(r.number, r.text) for r in records] == [(2, "Chai\rwith a CR inside"), (5, "plain"), (7, "x\x00y")]
    assert problems == [Problem(6, "the row has 1 value: none in column 'prompt'")]


def test_csv_from_a_file_opened_with_newline_empty(tmp_path):
    path = tmp_path / "data.csv"
    path.write_bytes(b'id,prompt\r\n1,"two\nlines"\r\n2,second\r3,third\n')
    with path.open(encoding="utf-8", newline="") as handle:
        records = [r for r in iter_records(lines_of(handle), "csv", column="prompt")]
    assert [(r.number, r.text) for r in records] == [(2, "two\nlines"), (4, "second"), (5, "third")]


def test_csv_missing_column_names_the_columns():
    with pytest.raises(EstimateInputError, match=r"the CSV has no column 'text'; its columns are 'id', 'prompt'"):
        read_records("id,prompt\n1,chai", "csv", column="text")
    with pytest.raises(EstimateInputError, match=r"name the CSV column to count; the columns are 'id', 'prompt'"):
        read_records("id,prompt\n1,chai", "csv")
    assert read_records("prompt\nchai", "csv")[0] == [Record(2, "chai")]  # one column: no need to name it
    with pytest.raises(EstimateInputError, match=r"a header row \(column 'prompt'\) but no rows"):
        read_records("prompt\n\n", "csv", column="prompt")


def test_a_csv_cell_past_the_field_limit_is_a_problem_and_the_rest_is_read():
    records, problems = read_records("a,b\n1," + "x" * 200_000 + "\n2,y", "csv", column="b")
    assert records == [Record(3, "y")]
    assert problems == [Problem(2, "a cell is longer than 131,072 characters")]


def test_nul_characters_are_text_to_every_kind_and_every_model():
    nul = "\x00"
    lines = f"a{nul}b\n{nul}\n"
    assert [r.text for r in read_records(lines, "lines")[0]] == [f"a{nul}b", nul]
    records, problems = read_records(json.dumps({"text": f"x{nul}y"}) + f"\n{{\"text\": \"raw{nul}\"}}\n{nul}{{}}", "jsonl")
    assert [r.text for r in records] == [f"x{nul}y", f"raw{nul}"] and [p.number for p in problems] == [3]
    for model in models():
        tok = real.load(model.tokenizer)
        chat = Record(1, None, (("user", f"a{nul}b"),))
        assert record_tokens(tok, Record(1, f"a{nul}b"), model) >= 2
        assert record_tokens(tok, chat, model) >= record_tokens(tok, Record(1, f"a{nul}b"), model)


@pytest.mark.parametrize("kind", ["text", "lines", "jsonl", "csv"])
@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_empty_input_is_one_clear_message(kind, text):
    if kind == "text" and text:
        assert read_records(text, kind)[0] == [Record(1, text)]  # white space is a prompt too
        return
    with pytest.raises(EstimateInputError, match="nothing to count"):
        read_records(text, kind, column="x")


def test_unknown_kind():
    with pytest.raises(EstimateInputError, match="unknown kind of input 'xml'"):
        read_records("x", "xml")


def test_a_record_past_the_bound_is_a_problem_and_streaming_goes_on():
    long = "x" * (MAX_RECORD_CHARS + 10)
    text = f"first\n{long}\n" + json.dumps({"text": "after"}) + "\n"
    records, problems = read_records(text, "lines")
    assert [r.number for r in records] == [1, 3] and [p.number for p in problems] == [2]
    records, problems = read_records(text, "jsonl")
    assert [r.number for r in records] == [3] and problems[0].number == 1 and problems[1].number == 2
    # Read with lines_of, a line that long arrives in pieces: the pieces after the first are skipped, not lines.
    pieces = list(lines_of(io.StringIO(long * 3 + "\nnext\n")))
    assert len(pieces) > 3
    records, problems = [], []
    for item in iter_records(lines_of(io.StringIO(long * 3 + "\nnext\n")), "lines"):
        (records if isinstance(item, Record) else problems).append(item)
    assert records == [Record(2, "next")] and [p.number for p in problems] == [1]
    assert "longer than 1,000,000 characters" in problems[0].reason
    records, problems = read_records(long, "text")
    assert records == [] and "the most one record (one request) may hold" in problems[0].reason


def test_streaming_a_file_without_line_breaks_is_bounded(tmp_path):
    """75 MB without a single line break, counted as lines: read in bounded pieces, never whole (here about
    21 MB at peak; reading the file's lines plainly holds the whole line, over 120 MB)."""
    path = tmp_path / "one-line.txt"
    with path.open("w", encoding="utf-8") as handle:
        for _ in range(30):
            handle.write("चाय " * 250_000)
    code = (
        "import sys\n"
        "from analyses.records import iter_records, lines_of\n"
        f"with open({str(path)!r}, encoding='utf-8', newline='') as f:\n"
        "    items = list(iter_records(lines_of(f), 'lines'))\n"
        "print(len(items), type(items[0]).__name__)\n"
    )
    child = run_bounded(["-c", code])
    assert child.code == 0, child.err
    assert child.out.split() == ["1", "Problem"]
    assert "Traceback" not in child.err
    child.assert_bounded(cpu_s=10, peak_mb=80)


# -- statistics -----------------------------------------------------------------------------------------------------


def test_statistics_against_an_independent_computation():
    rng = random.Random(18)
    counts = [rng.randint(0, 500) for _ in range(997)] + [500, 500]
    builder = StatsBuilder()
    for number, tokens in enumerate(counts, 1):
        builder.add(number, tokens)
    stats = builder.result()
    assert (stats.records, stats.total, stats.max) == (len(counts), sum(counts), max(counts))
    assert stats.mean == pytest.approx(sum(counts) / len(counts))
    for p, value in ((50, stats.p50), (95, stats.p95)):  # nearest rank: the smallest value with p % at or below
        assert value in counts
        assert sum(c <= value for c in counts) >= p / 100 * len(counts)
        assert sum(c < value for c in counts) < p / 100 * len(counts)
    expected = sorted(enumerate(counts, 1), key=lambda pair: (-pair[1], pair[0]))[:5]
    assert stats.longest == tuple(expected)


def test_histogram_bins_cover_every_record():
    builder = StatsBuilder()
    counts = [7, 7, 8, 30, 1000, 12, 999]
    for number, tokens in enumerate(counts, 1):
        builder.add(number, tokens)
    for bins in (1, 3, 20, 5000):
        histogram = builder.result().histogram(bins)
        assert len(histogram) <= bins
        assert sum(n for _, _, n in histogram) == len(counts)
        assert histogram[0][0] == min(counts) and histogram[-1][0] <= max(counts) <= histogram[-1][1]
        widths = {high - low + 1 for low, high, _ in histogram}
        assert len(widths) == 1 and all(isinstance(w, int) and w >= 1 for w in widths)
        for low, high, n in histogram:
            assert n == sum(low <= c <= high for c in counts)
    with pytest.raises(EstimateInputError):
        builder.result().histogram(0)


def test_no_records_and_bad_counts():
    stats = StatsBuilder().result()
    assert (stats.records, stats.total, stats.mean, stats.p95, stats.longest, stats.histogram()) == (0, 0, 0.0, 0, (), [])
    with pytest.raises(EstimateInputError):
        StatsBuilder().add(1, -1)
    assert percentile([4], 95) == 4


# -- chat overhead ---------------------------------------------------------------------------------------------------


def _contents(tok, messages) -> int:
    return sum(tok.count(content) for _, content in messages)


def test_openai_overhead_is_the_published_rule():
    """3 tokens a message plus its role's, and 3 to prime the reply; each role is one token in both encodings."""
    for key in ("gpt-4o", "gpt-4"):
        tok = real.load(find(key).tokenizer)
        assert all(tok.count(role) == 1 for role in ("system", "user", "assistant"))
        assert chat_overhead(find(key), CHAT) == 4 * len(CHAT) + 3
        assert chat_overhead(find(key), [("user", "hi")]) == 7


def _llama3_text(messages) -> str:
    body = "".join(f"<|start_header_id|>{role}<|end_header_id|>\n\n{content.strip()}<|eot_id|>"
                   for role, content in messages)
    return "<|begin_of_text|>" + body + "<|start_header_id|>assistant<|end_header_id|>\n\n"


def _chatml_text(messages) -> str:
    body = "".join(f"<|im_start|>{role}\n{content}<|im_end|>\n" for role, content in messages)
    return body + "<|im_start|>assistant\n"


@pytest.mark.parametrize("messages", [CHAT, [("user", "x")], [("user", " 12345 \n\n"), ("assistant", "\n")]])
@pytest.mark.parametrize(("key", "template"), [("llama-3", _llama3_text), ("qwen3", _chatml_text)])
def test_template_overhead_matches_the_whole_chat_encoded_with_its_specials(key, template, messages):
    """The chat written out and encoded in one call (tiktoken reading the special tokens) is contents + overhead."""
    model = find(key)
    tok = real.load(model.tokenizer)
    whole = len(tok.encode_special(template(messages)))
    assert _contents(tok, messages) + chat_overhead(model, messages) == whole
    assert record_tokens(tok, Record(1, None, tuple(messages)), model) == whole


@pytest.mark.parametrize("key", ["mistral-7b-v0.3", "mistral-nemo"])
def test_mistral_overhead_matches_mistral_commons_own_encoding(key):
    from mistral_common.protocol.instruct.messages import AssistantMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    model = find(key)
    tok = real.load(model.tokenizer)
    mistral = MistralTokenizer.from_file(str(real.data_file(model.tokenizer)))
    chat = [("user", "Ek cup chai kitne ki hai?"), ("assistant", "Bees rupaye."), ("user", "और समोसा?")]
    kinds = {"user": UserMessage, "assistant": AssistantMessage}
    request = ChatCompletionRequest(messages=[kinds[role](content=text) for role, text in chat])
    ids = mistral.encode_chat_completion(request).tokens
    overhead = chat_overhead(model, chat)
    assert _contents(tok, chat) + overhead == len(ids)
    # Without a system message the template adds only control tokens: <s>, [INST] [/INST] a turn, </s> a reply.
    inner = mistral.instruct_tokenizer.tokenizer
    controls = sum(1 for i in ids if (inner.is_special(i) if hasattr(inner, "is_special") else i < inner.num_special_tokens))
    assert overhead == controls == 1 + 2 * 2 + 1


@pytest.mark.parametrize("key", ["mistral-7b-v0.3", "mistral-nemo"])
def test_mistral_takes_a_training_record_and_refuses_a_broken_chat(key):
    model = find(key)
    assert chat_overhead(model, [("user", "Chai?"), ("assistant", "Haan.")]) == 1 + 2 + 1
    with pytest.raises(EstimateInputError, match="refuses"):
        chat_overhead(model, [("assistant", "A reply before any question")])
    with pytest.raises(EstimateInputError, match="role"):
        chat_overhead(model, [("tool", "a")])


def test_every_model_with_a_format_counts_a_chat_and_the_rest_say_none():
    for model in models():
        overhead = chat_overhead(model, CHAT)
        assert (overhead is None) == (model.chat is None), model.key
        assert overhead is None or overhead > 0
    assert chat_overhead(find("davinci"), CHAT) is None
    assert chat_overhead(find("gpt-4o"), []) == 0


def test_record_tokens_text_and_chat():
    tok = real.load("o200k_base")
    text = "घने कोहरे के कारण स्कूल बंद"
    assert record_tokens(tok, Record(1, text), find("gpt-4o")) == tok.count(text)
    chat = Record(2, None, tuple(CHAT))
    assert record_tokens(tok, chat, find("gpt-4o")) == _contents(tok, CHAT) + 4 * len(CHAT) + 3
    assert record_tokens(tok, chat, None) == _contents(tok, CHAT)  # no model: the contents alone
    # Another copy of the tokenizer takes the long way (contents, then the overhead): the same count.
    assert record_tokens(real.build("o200k_base"), chat, find("gpt-4o")) == record_tokens(tok, chat, find("gpt-4o"))
    assert record_tokens(tok, chat, find("davinci")) == _contents(tok, CHAT)


# -- money -------------------------------------------------------------------------------------------------------------


def test_cost_by_hand():
    gpt4o = price("gpt-4o")  # 2.50 in, 10.00 out per million
    c = cost(1000, gpt4o, output_tokens=500, requests_per_month=10_000, inr_per_usd=Decimal("88"))
    # 1000 x 2.50 / 1e6 = 0.0025; 500 x 10 / 1e6 = 0.005; 0.0075 a request; x 10,000 = 75; x 88 = 6,600.
    assert (c.usd_per_request, c.usd_per_month) == (Decimal("0.0075"), Decimal("75"))
    assert (c.inr_per_request, c.inr_per_month) == (Decimal("0.66"), Decimal("6600"))
    assert (c.input_tokens, c.output_tokens, c.price) == (1000, 500, gpt4o)
    ratio = cost(1000, gpt4o, output_ratio=0.5, requests_per_month=10_000, inr_per_usd=Decimal("88"))
    assert ratio.usd_per_month == c.usd_per_month and ratio.output_tokens == 500
    # Exact decimals: one token of GPT-4o mini input is fifteen hundred-millionths of a dollar, not a float's.
    one = cost(1, price("gpt-4o-mini"), output_tokens=0, requests_per_month=0, inr_per_usd=Decimal("88"))
    assert one.usd_per_request == Decimal("0.00000015") and one.usd_per_month == 0


def test_the_bill_is_made_of_input_and_output_apart_by_hand():
    """GPT-4.1 (2 in, 8 out per million): with 300 output tokens a request, output is most of the bill; the parts
    add up to the whole, each a request and a month, in USD and INR, and say which is measured."""
    p = price("gpt-4.1")
    c = cost(1000, p, output_tokens=300, requests_per_month=1000, inr_per_usd=Decimal("88"))
    inp, out = c.part("input"), c.part("output")
    # 1000 x 2 / 1e6 = 0.002 measured; 300 x 8 / 1e6 = 0.0024 assumed.
    assert (inp.usd_per_request, out.usd_per_request) == (Decimal("0.002"), Decimal("0.0024"))
    assert inp.measured and not out.measured and c.part("reasoning") is None
    assert c.usd_per_request == inp.usd_per_request + out.usd_per_request
    assert c.month(out.usd_per_request) == Decimal("2.4") and c.inr(c.month(out.usd_per_request)) == Decimal("211.2")


def test_reasoning_tokens_are_billed_as_output_and_assumed():
    p = price("o3")  # 2 in, 8 out
    c = cost(1000, p, output_tokens=300, reasoning_tokens=2000, requests_per_month=1, inr_per_usd=Decimal("88"))
    r = c.part("reasoning")
    assert (r.tokens, r.usd_per_m, r.usd_per_request, r.measured) == (2000, Decimal(8), Decimal("0.016"), False)
    assert c.usd_per_request == Decimal("0.002") + Decimal("0.0024") + Decimal("0.016")
    assert c.reasoning_tokens == 2000


def test_cached_input_and_batch_prices_by_hand():
    p = price("gpt-4o")
    assert (p.cached_input_per_m, p.batch_input_per_m, p.batch_output_per_m) == (
        p.input_per_m / 2, p.input_per_m / 2, p.output_per_m / 2)  # OpenAI's published: half, for GPT-4o
    c = cost(1000, p, output_tokens=100, cached_share=0.75, requests_per_month=1, inr_per_usd=Decimal("88"))
    # 250 fresh x 2.50 + 750 cached x 1.25 = 0.000625 + 0.0009375
    assert c.part("input").usd_per_request == Decimal("0.000625")
    assert c.part("cached input").usd_per_request == Decimal("0.0009375")
    b = cost(1000, p, output_tokens=100, batch=True, requests_per_month=1, inr_per_usd=Decimal("88"))
    assert b.part("input").usd_per_m == p.batch_input_per_m and b.part("output").usd_per_m == p.batch_output_per_m
    plain = price("gpt-4")  # no cached price published: the cached share is priced as input, and said
    d = cost(1000, plain, output_tokens=0, cached_share=0.5, requests_per_month=1, inr_per_usd=Decimal("88"))
    assert d.usd_per_request == Decimal("0.03") and "no cached-input price" in " ".join(d.notes)
    with pytest.raises(EstimateInputError, match="cached share"):
        cost(1000, p, output_tokens=0, cached_share=1.5, requests_per_month=1, inr_per_usd=Decimal("88"))


@pytest.mark.parametrize("bad", [
    {"input_tokens": -1}, {"input_tokens": math.nan}, {"input_tokens": math.inf}, {"output_tokens": -5},
    {"output_tokens": None, "output_ratio": -0.5}, {"output_tokens": None, "output_ratio": math.nan},
    {"output_ratio": 1.0}, {"output_tokens": None}, {"requests_per_month": -1}, {"requests_per_month": 2.5},
    {"inr_per_usd": Decimal(-88)}, {"inr_per_usd": Decimal("NaN")},
])
def test_cost_refuses_bad_figures_in_one_line(bad):
    args = {"input_tokens": 100, "output_tokens": 10, "output_ratio": None, "requests_per_month": 1,
            "inr_per_usd": Decimal(88)} | bad
    input_tokens = args.pop("input_tokens")
    with pytest.raises(EstimateInputError) as caught:
        cost(input_tokens, price("gpt-4o"), **args)
    assert "\n" not in str(caught.value)


def test_money_for_display():
    assert usd(Decimal("0.0075")) == "$0.0075"
    assert usd(Decimal("0.003149")) == "$0.00315"
    assert usd(Decimal("75")) == "$75.00"
    assert usd(Decimal("1234567.891")) == "$1,234,567.89"
    assert usd(Decimal("0")) == "$0.00"
    assert usd(Decimal("0.00999")) == "$0.00999" and usd(Decimal("0.09996")) == "$0.10"
    assert usd(Decimal("0.0000001234")) == "$0.000000123"
    assert usd(Decimal("-0.0031")) == "-$0.0031" and usd(Decimal("-2.5")) == "-$2.50"
    assert inr(Decimal("0.66")) == "Rs 0.66"
    assert inr(Decimal("6600")) == "Rs 6,600"
    assert inr(Decimal("12345678.9")) == "Rs 1,23,45,679"
    assert inr(Decimal("0.000264")) == "Rs 0.000264"
    assert usd(Decimal("0.02484")) == "$0.0248"  # GPT-4's request showed as $0.02 beside $2,496.00 a month


def test_premium():
    tok = real.load("o200k_base")
    english, hindi = "Schools closed due to thick fog", "घने कोहरे के कारण स्कूल बंद"
    assert premium(tok.count(hindi), tok.count(english)) == tok.count(hindi) / tok.count(english)
    with pytest.raises(EstimateInputError):
        premium(5, 0)


# -- the one pipeline (analyses/tally.py): reading in batches, counting a batch at a time ---------------------------

LINE_PIECES = ["chai", "चाय", " ", "\t", "\r", "\n", "\r\n", "\u2028", "\x0c", '{"text": "ok"}', '{"messages": [',
               '{"role": "user", "content": "hi"}', "]}", '"', ",", "x,y", "{broken", "\x85"]


def independent_lines(text: str) -> list[str]:
    """A text's lines as a file opened with newline="" has them (line ends \\n, \\r\\n, \\r), without their ends."""
    lines = re.split(r"\r\n|\r|\n", text)
    return lines[:-1] if lines and lines[-1] == "" else lines


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(LINE_PIECES), max_size=60).map("".join),
       cuts=st.lists(st.integers(0, 400), max_size=8))
def test_records_are_the_same_however_the_text_is_cut_into_fragments(text, cuts):
    """The page reads a whole text, the command line a file a part at a time (a \\r\\n may fall between two parts):
    every kind gives the same records and problems, numbered by an independent count of the lines."""
    bounds = sorted(c for c in cuts if c <= len(text))
    fragments = [text[a:b] for a, b in zip([0, *bounds], [*bounds, len(text)])]
    for kind in ("text", "lines", "jsonl", "csv"):
        try:
            whole = list(iter_records([text], kind, column="x"))
        except EstimateInputError as exc:
            with pytest.raises(EstimateInputError, match=re.escape(str(exc))):
                list(iter_records(fragments, kind, column="x"))
            continue
        assert list(iter_records(fragments, kind, column="x")) == whole
    lines = independent_lines(text)
    expected = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    if expected:  # (none: "nothing to count", checked above for both ways of reading)
        assert [(r.number, r.text) for r in read_records(text, "lines")[0]] == expected


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("as_chat", [False, True])
def test_the_pipeline_counts_every_record_as_counting_one_at_a_time_does(workers, as_chat):
    """count_input (the command line's) and count_records (the page's) against count_record record by record, for
    counters that share a tokenizer, a tokenizer alone, and models of each chat format; several batches."""
    from analyses.tally import Counter, count_input, count_records

    rows = [json.dumps({"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": f"चाय {i}"}]},
                       ensure_ascii=False) if i % 3 == 0 else json.dumps({"text": f"order {i} " * (i % 5)})
            for i in range(300)] + ["{broken", json.dumps({"other": 1})]
    text = "\n".join(rows) + "\n"
    keys = ["gpt-4o", "gpt-4o-mini", "llama-3.1-8b", "qwen3", "mistral-7b-v0.3"]
    counters = [Counter(key, real.load(find(key).tokenizer), find(key).tokenizer, find(key)) for key in keys]
    counters.append(Counter("o200k_base", real.load("o200k_base"), "o200k_base"))
    records, problems = read_records(text, "jsonl")
    if as_chat:
        records = [r if r.messages else Record(r.number, None, (("user", r.text),)) for r in records]
    fragments = [text[i:i + 997] for i in range(0, len(text), 997)]
    by_input = count_input(counters, fragments, "jsonl", as_chat=as_chat, workers=workers)
    by_records = count_records(counters, read_records(text, "jsonl")[0], as_chat=as_chat, batch_records=64)
    assert [p[1:] for p in by_input.problems] == [(p.number, p.reason) for p in problems]
    for counter, a, b in zip(counters, by_input.tallies, by_records.tallies):
        expected = StatsBuilder()
        for r in records:
            expected.add(r.number, record_tokens(counter.tokenizer, r, counter.model))
        assert a.stats.result() == b.stats.result() == expected.result(), counter.label
        assert a.stats.result().distribution == expected.result().distribution
        chats = [r for r in records if r.messages]
        assert a.chats == b.chats == len(chats)
        if counter.model is None:
            assert a.no_format == len(chats) and a.overhead == 0
        else:
            assert a.overhead == b.overhead == sum(chat_overhead(counter.model, r.messages) for r in chats)


# -- OpenAI's name rule and the official templates' extras (issue 27) --------------------------------------------

def _cookbook(encoding, messages: list[dict]) -> int:
    """OpenAI's published rule, written out as its cookbook does ("How to count tokens with tiktoken",
    num_tokens_from_messages for gpt-4o and later): 3 a message, every value's tokens, 1 more for a name, 3 for the
    reply's priming. Run here on tiktoken's own Encoding, not the lab's code."""
    total = 0
    for message in messages:
        total += 3
        for key, value in message.items():
            total += len(encoding.encode(value))
            if key == "name":
                total += 1
    return total + 3


@pytest.mark.parametrize("key", ["gpt-4o", "gpt-4", "gpt-5"])
def test_a_messages_name_counts_as_openai_publishes(key):
    """{"role": "user", "name": "asha", "content": "hello there"} is 11 tokens for GPT-4o by the rule; it counted 9."""
    chat = [{"role": "system", "content": "Be brief."}, {"role": "user", "name": "asha", "content": "hello there"},
            {"role": "assistant", "name": "bot_7", "content": "Hi Asha!"}]
    (record,), _ = read_records(json.dumps({"messages": chat}), "jsonl")
    model = find(key)
    tok = real.load(model.tokenizer)
    assert record_tokens(tok, record, model) == _cookbook(tok._enc, chat)
    assert record_tokens(tok, read_records(json.dumps({"messages": chat[1:2]}), "jsonl")[0][0], model) == \
        _cookbook(tok._enc, chat[1:2])
    for other in ("llama-3", "qwen3", "mistral-7b-v0.3"):  # their templates leave a name out
        named, plain = [read_records(json.dumps({"messages": [m]}), "jsonl")[0][0]
                        for m in (chat[1], {"role": "user", "content": "hello there"})]
        tok = real.load(find(other).tokenizer)
        assert record_tokens(tok, named, find(other)) == record_tokens(tok, plain, find(other))


LLAMA31_DATE = "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n"


def _llama31_text(messages) -> str:
    """Meta's official Llama 3.1 template (its tokenizer_config.json, the same for 3.2 and 3.3), without tools: a
    system block with the knowledge cut-off and the day always, the chat's own system message (trimmed) in it."""
    system = ""
    if messages and messages[0][0] == "system":
        system, messages = messages[0][1].strip(), messages[1:]
    head = f"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n{LLAMA31_DATE}{system}<|eot_id|>"
    return head + _llama3_text(messages).removeprefix("<|begin_of_text|>")


QWEN25_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."


def _qwen25_text(messages) -> str:
    """Qwen2.5's official template: a default system message when the chat has none."""
    if not messages or messages[0][0] != "system":
        messages = [("system", QWEN25_SYSTEM), *messages]
    return _chatml_text(messages)


@pytest.mark.parametrize("messages", [[("user", "hello there")], CHAT, [("system", "  Be brief. "), ("user", "x")]])
@pytest.mark.parametrize(("key", "official", "plain"), [
    ("llama-3.1-8b", _llama31_text, _llama3_text), ("llama-3.3-70b", _llama31_text, _llama3_text),
    ("llama-3.2", _llama31_text, _llama3_text), ("qwen2.5", _qwen25_text, _chatml_text),
])
def test_what_the_official_template_adds_is_counted_and_can_be_left_out(key, official, plain, messages):
    """Llama 3.1-3.3's template adds a dated system block (a one-message chat is 40 tokens, not 15); Qwen 2.5's a
    default system message when there is none. Counted, and said apart (extras); extras=False leaves them out."""
    model = find(key)
    tok = real.load(model.tokenizer)
    record = Record(1, None, tuple(messages))
    whole, bare = len(tok.encode_special(official(messages))), len(tok.encode_special(plain(messages)))
    counted = count_chat(tok, record.messages, model)
    assert counted.tokens == whole and counted.extras == whole - bare
    assert count_chat(tok, record.messages, model, extras=False).tokens == bare
    assert chat_overhead(model, messages) == whole - _contents(tok, messages)


def test_llama_3_and_qwen3_templates_add_nothing_more():
    for key in ("llama-3", "qwen3"):
        tok = real.load(find(key).tokenizer)
        assert count_chat(tok, (("user", "hi"),), find(key)).extras == 0


def test_the_dated_block_counts_the_same_on_any_day():
    """Llama 3.2's template writes today's date (3.1's a fixed one): every day of three years costs the same."""
    import datetime

    tok = real.load("llama3")
    day = datetime.date(2024, 1, 1)
    counts = set()
    while day.year < 2027:
        counts.add(tok.count(f"Today Date: {day.strftime('%d %b %Y')}\n\n"))
        day += datetime.timedelta(days=1)
    assert counts == {tok.count("Today Date: 26 Jul 2024\n\n")}
