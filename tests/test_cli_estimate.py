"""The engineer's command line (issue 18): ``count --model/--file/--lines/--field/--column``, ``--list`` with the
models, and ``cost``. Every figure is computed here from the tokenizers and analyses.estimate, never typed in;
every mistake is exit 2 with one line and nothing on standard output."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from analyses.estimate import chat_overhead, cost, inr, usd
from family import models, real
from tests.cli_helpers import ROOT, cli_process, run_cli

HINDI = "मेरा ऑर्डर 20 मिनट लेट है, रिफंड चाहिए!"
ENGLISH = "My order is 20 minutes late, I want a refund!"
CHATS = [
    [{"role": "system", "content": "You are a helpful support agent."}, {"role": "user", "content": HINDI}],
    [{"role": "user", "content": ENGLISH}],
    [{"role": "user", "content": HINDI + " " + ENGLISH}, {"role": "assistant", "content": "ठीक है"},
     {"role": "user", "content": "धन्यवाद"}],
]


def count(tokenizer: str, text: str) -> int:
    return real.load(tokenizer).count(text)


def chat_tokens(model: models.Model, chat: list[dict]) -> int:
    pairs = tuple((m["role"], m["content"]) for m in chat)
    return sum(count(model.tokenizer, c) for _, c in pairs) + chat_overhead(model, pairs)


def nearest_rank(values: list[int], p: int) -> int:
    ordered = sorted(values)
    return ordered[max(1, -(-p * len(ordered) // 100)) - 1]


def refused(code: int, out: str, err: str, *needles: str) -> str:
    assert code == 2, (code, out, err)
    assert out == "" and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def chats_file(tmp_path: Path) -> Path:
    path = tmp_path / "chats.jsonl"
    lines = [json.dumps({"messages": CHATS[0]}, ensure_ascii=False), "{broken",
             json.dumps({"messages": CHATS[1]}), "", json.dumps({"messages": CHATS[2]}, ensure_ascii=False),
             json.dumps({"prompt": HINDI}, ensure_ascii=False), "[1, 2]"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- count --model ---------------------------------------------------------------------------------------------

def test_count_by_model_name_uses_the_models_tokenizer(capsys):
    code, out, _ = run_cli(capsys, "count", "--model", "GPT-4o", "--model", "llama 3.1 8b", "-t", "cl100k_base",
                           "--json", "--", HINDI)
    assert code == 0
    rows = json.loads(out)["results"]
    assert [(r["tokenizer"], r["tokens"]) for r in rows] == [
        ("cl100k_base", count("cl100k_base", HINDI)), ("o200k_base", count("o200k_base", HINDI)),
        ("llama3", count("llama3", HINDI))]
    assert [r.get("model") for r in rows] == [None, "gpt-4o", "llama-3.1-8b"]
    code, out, _ = run_cli(capsys, "count", "--model", "gpt 4o", "--", HINDI)
    assert code == 0
    assert out.splitlines()[1].split()[:2] == ["GPT-4o", str(count("o200k_base", HINDI))]


def test_an_unknown_model_is_refused_with_the_closest_names(capsys):
    line = refused(*run_cli(capsys, "count", "--model", "gpt4o-mni", "hi"), "unknown model 'gpt4o-mni'", "GPT-4o mini")
    assert "--list" in line
    refused(*run_cli(capsys, "cost", "--model", "lama 3", "hi"), "unknown model 'lama 3'", "Llama 3")


@pytest.mark.parametrize("name", ["claude", "Claude Sonnet 4", "gemini-2.5-pro"])
def test_a_model_whose_tokenizer_is_not_published_is_named_with_what_to_do(capsys, name):
    """--model claude said "unknown model"."""
    for command in ("count", "cost"):
        line = refused(*run_cli(capsys, command, "--model", name, "hi"), "cannot be counted here", "not published",
                       "instead")
        assert "unknown model" not in line and "did you mean" not in line


def test_list_shows_the_models_beside_the_tokenizers(capsys):
    code, out, _ = run_cli(capsys, "count", "--list")
    assert code == 0
    tokenizers, listed, cannot = out.rstrip("\n").split("\n\n")
    assert [line.split(" (")[0].strip() for line in cannot.splitlines()[1:]] == [m.name for m in models.uncountable()]
    assert [line.split()[0] for line in tokenizers.splitlines()] == list(real.NAMES)
    rows = listed.splitlines()[1:]
    assert len(rows) == len(models.models())
    for model, row in zip(models.models(), rows):  # in the data file's order
        assert row.startswith(f"  {model.name} ") and f" {model.key} " in row and f" {model.tokenizer} " in row
        known = models.price(model.key)
        assert (known.date in row) if known else "--input-price" in row
        assert ("bills reasoning tokens as output" in row) == model.reasoning
    code, out, _ = run_cli(capsys, "count", "--list", "--json")
    data = json.loads(out)
    assert [t["name"] for t in data["tokenizers"]] == list(real.NAMES)
    assert [(m["key"], m["tokenizer"], m["reasoning"], m["template"]) for m in data["models"]] == [
        (m.key, m.tokenizer, m.reasoning, m.template) for m in models.models()]
    assert [(m["name"], m["vendor"]) for m in data["uncountable"]] == [(m.name, m.vendor) for m in models.uncountable()]
    priced = {m["key"]: m["price"] for m in data["models"]}
    assert priced["gpt-4o"]["input_per_m"] == str(models.price("gpt-4o").input_per_m)


# -- records ---------------------------------------------------------------------------------------------------

def test_lines_of_a_text_file_are_records_with_their_statistics(tmp_path, capsys):
    lines = [f"{ENGLISH} {i}" * (i % 7 + 1) for i in range(40)] + ["", "   "] + [HINDI * 9]
    (tmp_path / "prompts.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "count", "-t", "o200k_base", "--file", str(tmp_path / "prompts.txt"), "--lines",
                           "--json")
    assert code == 0
    row = json.loads(out)["results"][0]
    counts = [count("o200k_base", line) for line in lines if line.strip()]
    numbers = [i + 1 for i, line in enumerate(lines) if line.strip()]
    assert row["records"] == len(counts) == 41 and row["tokens"] == sum(counts)
    assert row["max"] == max(counts) and row["p50"] == nearest_rank(counts, 50) and row["p95"] == nearest_rank(counts, 95)
    assert row["mean"] == round(sum(counts) / len(counts), 2)
    by_length = sorted(zip(counts, numbers), key=lambda cn: (-cn[0], cn[1]))[:5]
    assert [(x["line"], x["tokens"]) for x in row["longest"]] == [(n, c) for c, n in by_length]
    assert row["longest"][0]["line"] == 43  # the Hindi line, after the two blank ones
    code, out, _ = run_cli(capsys, "count", "-t", "o200k_base", "--file", str(tmp_path / "prompts.txt"), "--lines")
    table = out.splitlines()
    assert table[1].split()[:4] == ["o200k_base", f"{sum(counts):,}", "41", f"{sum(counts) / 41:,.1f}"]
    assert table[3].split(None, 1)[1] == ", ".join(f"{n}: {c}" for c, n in by_length)


def test_jsonl_chats_count_the_overhead_and_name_the_broken_lines(chats_file, capsys):
    code, out, _ = run_cli(capsys, "count", "--model", "GPT-4o", "--model", "Llama 3", "-t", "o200k_base",
                           "--file", str(chats_file), "--lines", "--json")
    assert code == 0
    data = json.loads(out)
    tool, gpt4o, llama = data["results"]
    for row, model in ((gpt4o, models.find("gpt-4o")), (llama, models.find("llama 3"))):
        expected = [chat_tokens(model, chat) for chat in CHATS] + [count(model.tokenizer, HINDI)]
        assert row["tokens"] == sum(expected) and row["records"] == 4
        assert row["chat"]["chats"] == 3 and row["chat"]["format"] == model.chat
        assert row["chat"]["overhead_tokens"] == sum(expected[:3]) - sum(
            count(model.tokenizer, m["content"]) for chat in CHATS for m in chat)
    # a tokenizer alone knows no chat format: the contents only, and it says so
    assert tool["tokens"] == sum(count("o200k_base", m["content"]) for chat in CHATS for m in chat) + count(
        "o200k_base", HINDI)
    assert tool["chat"]["chats_without_overhead"] == 3
    assert [(p["line"], p["reason"][:8]) for p in data["problems"]] == [(2, "not JSON"), (7, "a JSON l")]
    assert data["problem_count"] == 2
    code, out, _ = run_cli(capsys, "count", "--model", "GPT-4o", "--file", str(chats_file), "--lines")
    assert "GPT-4o: 3 chats, " in out and "tokens of chat overhead included (OpenAI's published" in out
    assert "2 records not counted:" in out and "  line 2: not JSON" in out and "  line 7: a JSON list" in out


def test_field_and_column_pick_what_is_counted(tmp_path, capsys):
    (tmp_path / "d.jsonl").write_text(json.dumps({"q": HINDI, "a": ENGLISH}, ensure_ascii=False) + "\n"
                                      + json.dumps({"a": "x"}) + "\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "count", "-t", "llama3", "--file", str(tmp_path / "d.jsonl"), "--field", "q", "--json")
    data = json.loads(out)
    assert code == 0 and data["results"][0]["tokens"] == count("llama3", HINDI)
    assert data["problems"] == [{"file": None, "line": 2, "reason": "no field 'q' (it has 'a')"}]
    # CSV with a bare CR between rows (an old Mac export), and a quoted cell with a line break inside
    (tmp_path / "d.csv").write_bytes(f'id,prompt\r1,"{HINDI}\nदूसरी पंक्ति"\r2,{ENGLISH.replace(",", "")}\r'.encode())
    code, out, _ = run_cli(capsys, "count", "-t", "o200k_base", "--file", str(tmp_path / "d.csv"), "--column",
                           "prompt", "--json")
    row = json.loads(out)["results"][0]
    assert code == 0 and row["records"] == 2
    assert row["tokens"] == count("o200k_base", HINDI + "\nदूसरी पंक्ति") + count("o200k_base", ENGLISH.replace(",", ""))
    refused(*run_cli(capsys, "count", "--file", str(tmp_path / "d.csv"), "--column", "text"),
            "the CSV has no column 'text'; its columns are 'id', 'prompt'")
    refused(*run_cli(capsys, "count", "--file", str(tmp_path / "d.csv"), "--column", "a", "--field", "b"),
            "--field is for JSONL and --column for CSV")


def test_several_files_of_records_name_the_file_of_each_longest(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("short\n" + HINDI * 5 + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text(ENGLISH + "\n\n" + HINDI * 7 + "\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "count", "-t", "o200k_base", "--lines", "--file", str(tmp_path / "a.txt"),
                           "--file", str(tmp_path / "b.txt"))
    assert code == 0
    longest = out.splitlines()[3].split(None, 1)[1]
    assert longest.startswith(f"{tmp_path / 'b.txt'}:3: {count('o200k_base', HINDI * 7)}, {tmp_path / 'a.txt'}:2: ")


def test_bad_record_input_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "empty.jsonl").write_text("\n\n  \n", encoding="utf-8")
    refused(*run_cli(capsys, "count", "--lines", "--file", str(tmp_path / "empty.jsonl")), "nothing to count")
    (tmp_path / "u16.jsonl").write_bytes('{"text": "चाय"}\n'.encode("utf-16"))
    refused(*run_cli(capsys, "count", "--lines", "--file", str(tmp_path / "u16.jsonl")), "is UTF-16", "iconv")
    refused(*run_cli(capsys, "count", "--lines", "--file", str(tmp_path / "nope.jsonl")), "file not found")
    refused(*run_cli(capsys, "count", "--file", str(tmp_path / "u16.jsonl"), "text"), "not both")


# -- cost ------------------------------------------------------------------------------------------------------

def test_cost_per_model_in_usd_and_inr_with_dated_prices(capsys):
    code, out, _ = run_cli(capsys, "cost", "--model", "GPT-4o", "--model", "GPT-4", "--model", "Llama 3.1 8B",
                           "--output-tokens", "150", "--requests-per-month", "30000", "--", HINDI)
    assert code == 0
    blocks = out.split("\n" + "  cost")
    for model_name in ("gpt-4o", "gpt-4", "llama-3.1-8b"):
        model = models.find(model_name)
        known = models.price(model.key)
        c = cost(count(model.tokenizer, HINDI), known, output_tokens=150, requests_per_month=30000,
                 inr_per_usd=models.INR_PER_USD)
        block = out[out.index(f"{model.name} ({model.tokenizer})"):]
        block = block[:block.index("  cost")] + block[block.index("  cost"):].split("\n")[0]
        assert f"input   {c.input_tokens:,.1f} tokens a request, the text" in block
        assert f"output  {c.output_tokens:,.1f} tokens" in block
        assert f"${known.input_per_m} per M" in block and f"published {known.date}, {known.source}" in block
        assert (f"{usd(c.usd_per_request)} ({inr(c.inr_per_request)}) a request; {usd(c.usd_per_month)} "
                f"({inr(c.inr_per_month)}) a month at 30,000 requests") in block
    assert len(blocks) == 4
    assert f"Rs {models.INR_PER_USD} per USD ({models.INR_DATE}" in out and "Prices change" in out


def test_cost_json_gives_exact_amounts_and_overrides(capsys):
    code, out, _ = run_cli(capsys, "cost", "--model", "Llama 3", "--input-price", "0.2", "--output-price", "0.6",
                           "--output-ratio", "0.5", "--inr-per-usd", "85.5", "--requests-per-month", "10", "--json",
                           "--", ENGLISH)
    assert code == 0
    data = json.loads(out)
    [row] = data["models"]
    tokens = count("llama3", ENGLISH)
    given = models.Price("llama-3", Decimal("0.2"), Decimal("0.6"), "given", "the command line")
    c = cost(tokens, given, output_ratio=0.5, requests_per_month=10, inr_per_usd=Decimal("85.5"))
    assert row["input_tokens"] == tokens and row["output_tokens"] == tokens * 0.5
    assert row["price"] == {"input_per_m": "0.2", "output_per_m": "0.6", "date": "given", "source": "the command line",
                            "input_given": True, "output_given": True}
    assert [Decimal(row[k]) for k in ("usd_per_request", "usd_per_month", "inr_per_request", "inr_per_month")] == [
        c.usd_per_request, c.usd_per_month, c.inr_per_request, c.inr_per_month]
    assert data["inr_per_usd"] == "85.5" and data["inr_source"] == "--inr-per-usd"


def test_cost_of_a_dataset_is_the_mean_record_with_its_chat_overhead(chats_file, capsys):
    code, out, _ = run_cli(capsys, "cost", "--model", "gpt-4o-mini", "--file", str(chats_file), "--lines",
                           "--output-tokens", "100", "--json")
    assert code == 0
    data = json.loads(out)
    model = models.find("gpt-4o-mini")
    records = [chat_tokens(model, chat) for chat in CHATS] + [count(model.tokenizer, HINDI)]
    [row] = data["models"]
    assert row["input_tokens"] == pytest.approx(sum(records) / 4) and row["input_is"] == "mean of 4 records"
    assert row["chat"]["chats"] == 3 and row["chat"]["overhead_tokens"] > 0
    assert data["problem_count"] == 2
    code, out, _ = run_cli(capsys, "cost", "--model", "gpt-4o-mini", "--file", str(chats_file), "--lines")
    assert "mean of 4 records; 3 chats, " in out and "tokens of chat overhead included" in out
    assert "2 records not counted" in out and "line 2: not JSON" in out


def test_cost_without_a_price_names_the_flag_to_give(capsys):
    refused(*run_cli(capsys, "cost", "--model", "Llama 3", "hi"),
            "no published price is known for Llama 3: give --input-price llama-3=USD_PER_M and --output-price "
            "llama-3=USD_PER_M")
    refused(*run_cli(capsys, "cost", "--model", "Qwen3", "--input-price", "0.1", "hi"),
            "give --output-price qwen3=USD_PER_M (USD")


@pytest.mark.parametrize(("args", "says"), [
    (["--output-tokens", "-5"], "--output-tokens needs a whole number of 0 or more"),
    (["--output-tokens", "१०"], "--output-tokens needs a whole number"),
    (["--output-ratio", "x"], "--output-ratio needs a number of 0 or more"),
    (["--output-tokens", "5", "--output-ratio", "1"], "not allowed with argument"),
    (["--requests-per-month", "1.5"], "--requests-per-month needs a whole number"),
    (["--inr-per-usd", "0"], "--inr-per-usd must be more than 0"),
])
def test_cost_refuses_bad_numbers_before_reading_anything(capsys, args, says):
    refused(*run_cli(capsys, "cost", "--model", "gpt-4o", *args, "hi"), says)


def test_cost_of_records_that_are_all_broken_is_refused(tmp_path, capsys):
    (tmp_path / "bad.jsonl").write_text("{x\n[1]\n", encoding="utf-8")
    refused(*run_cli(capsys, "cost", "--model", "gpt-4o", "--lines", "--file", str(tmp_path / "bad.jsonl")),
            "no record could be counted: 2 records read, none counted; line 1: not JSON")


def test_cost_reads_standard_input_and_streams_a_file_as_a_subprocess(tmp_path):
    run = cli_process("cost", "--model", "gpt-4o", "--json", "-", stdin=HINDI.encode())
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["models"][0]["input_tokens"] == count("o200k_base", HINDI)


# -- the README's examples run verbatim ------------------------------------------------------------------------

def readme_examples() -> list[str]:
    """The commands of the README's "Estimate from the command line" block, one shell line each."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("Estimate from the command line")
    block = re.search(r"```bash\n(.*?)```", readme[start:], re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_the_readme_examples_run_verbatim(tmp_path):
    examples = readme_examples()
    assert any(" cost " in line for line in examples) and any("--lines" in line for line in examples)
    assert any("--model" in line for line in examples) and any("--file" in line for line in examples)
    env = {"PYTHONPATH": str(ROOT), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    script = "set -e\n" + "\n".join(examples) + "\n"  # one shell, in order: a line may write what the next reads
    run = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180,
                         check=False)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert "GPT-4o" in run.stdout and "a month at" in run.stdout


# -- every file read the same way (issue 27) --------------------------------------------------------------------

BOM = b"\xef\xbb\xbf"


def test_a_utf8_byte_order_mark_is_not_text_in_any_kind_of_file(tmp_path, capsys):
    """An editor's UTF-8 BOM marks the encoding: the CSV's first column keeps its name, the JSONL's first line is
    read, a text's first token is its first letter (as the Estimate page reads the same file)."""
    (tmp_path / "b.csv").write_bytes(BOM + b"prompt,id\r\nHello,1\r\n")
    code, out, err = run_cli(capsys, "count", "-m", "GPT-4o", "--file", str(tmp_path / "b.csv"), "--column", "prompt",
                             "--json")
    assert code == 0, err
    assert json.loads(out)["results"][0]["tokens"] == count("o200k_base", "Hello")
    (tmp_path / "b.jsonl").write_bytes(BOM + '{"text": "चाय"}\n{"text": "pani"}\n'.encode())
    code, out, err = run_cli(capsys, "count", "-m", "GPT-4o", "--file", str(tmp_path / "b.jsonl"), "--lines", "--json")
    row = json.loads(out)
    assert code == 0 and row["results"][0]["records"] == 2 and row["problem_count"] == 0, out
    (tmp_path / "b.txt").write_bytes(BOM + "Hello चाय\r\n".encode())
    code, out, _ = run_cli(capsys, "count", "-t", "o200k_base", "--file", str(tmp_path / "b.txt"), "--json")
    assert json.loads(out)["results"][0]["tokens"] == count("o200k_base", "Hello चाय\r\n")
    run = cli_process("count", "-t", "o200k_base", "--json", "-", stdin=BOM + b"Hello")
    assert json.loads(run.stdout)["results"][0]["tokens"] == count("o200k_base", "Hello")


def test_a_nul_byte_is_binary_not_utf16(tmp_path, capsys):
    """One NUL in a UTF-8 file looked like UTF-16 by where it fell, and got an iconv command that garbles it."""
    (tmp_path / "f.csv").write_bytes(b"text\nab\x00cd\n")
    line = refused(*run_cli(capsys, "count", "--lines", "-f", str(tmp_path / "f.csv"), "--column", "text"),
                   "looks binary", "NUL byte at offset 7")
    assert "UTF-16" not in line and "iconv" not in line


# -- nothing counted is not a success (issue 27) -------------------------------------------------------------------

def test_a_field_no_record_has_is_exit_2_not_a_table_of_zeros(tmp_path, capsys):
    (tmp_path / "d.jsonl").write_text("\n".join(json.dumps({"text": f"chai {i}"}) for i in range(300)) + "\n",
                                      encoding="utf-8")
    for command in ("count", "cost"):
        extra = ["-m", "GPT-4o"] if command == "cost" else []
        line = refused(*run_cli(capsys, command, *extra, "--file", str(tmp_path / "d.jsonl"), "--field", "nosuch"),
                       "no record could be counted", "no field 'nosuch' (it has 'text')")
        assert "300 records" in line  # how many were read and refused


def test_one_prompt_as_a_chat_past_the_bound_says_what_to_leave_out(tmp_path, capsys):
    (tmp_path / "long.txt").write_text("chai " * 250_001, encoding="utf-8")
    for command in ("count", "cost"):
        extra = ["-m", "GPT-4o"]
        line = refused(*run_cli(capsys, command, *extra, "--as-chat", "--file", str(tmp_path / "long.txt")),
                       "no record could be counted", "longer than 1,000,000 characters", "leave out --as-chat")
        assert "count --file" not in line  # the advice was the command already in use


# -- what the bill is made of: template extras, names (issue 27) -------------------------------------------------

def test_the_official_templates_extras_are_counted_said_and_can_be_left_out(capsys):
    from analyses.estimate import count_chat, template_extras

    model = models.find("Llama 3.1 8B")
    chat = (("user", "hello there"),)
    counted = count_chat(real.load("llama3"), chat, model)
    code, out, err = run_cli(capsys, "count", "--model", "Llama 3.1 8B", "--as-chat", "--json", "--", "hello there")
    assert code == 0, err
    row = json.loads(out)["results"][0]
    assert row["tokens"] == counted.tokens and row["chat"]["overhead_tokens"] == counted.overhead
    assert row["chat"]["template_extras"] == {"included": True, "tokens": template_extras(model, chat),
                                              "what": analyses_templates()["llama3.1"]}
    code, out, _ = run_cli(capsys, "count", "--model", "Llama 3.1 8B", "--as-chat", "--no-template-extras", "--json",
                           "--", "hello there")
    row = json.loads(out)["results"][0]
    assert row["tokens"] == count_chat(real.load("llama3"), chat, model, extras=False).tokens
    assert row["chat"]["template_extras"]["included"] is False
    code, out, _ = run_cli(capsys, "count", "--model", "Llama 3.1 8B", "--as-chat", "--", "hello there")
    assert f"{template_extras(model, chat):,} of them the official template's" in out


def analyses_templates() -> dict:
    from analyses.estimate import TEMPLATES

    return TEMPLATES


# -- cost: the bill's parts, reasoning, discounts, prices per model (issue 27) ------------------------------------

def test_cost_shows_input_and_output_apart_and_which_is_measured(capsys):
    code, out, err = run_cli(capsys, "cost", "--model", "GPT-4.1", "--output-tokens", "300", "--json", "--", HINDI)
    assert code == 0, err
    [row] = json.loads(out)["models"]
    tokens = count("o200k_base", HINDI)
    c = cost(tokens, models.price("gpt-4.1"), output_tokens=300, requests_per_month=1000,
             inr_per_usd=models.INR_PER_USD)
    bill = {part["part"]: part for part in row["bill"]}
    assert set(bill) == {"input", "output"}
    assert bill["input"]["measured"] is True and bill["output"]["measured"] is False
    assert Decimal(bill["input"]["usd_per_request"]) == c.part("input").usd_per_request
    assert Decimal(bill["output"]["usd_per_month"]) == c.month(c.part("output").usd_per_request)
    assert Decimal(bill["output"]["inr_per_month"]) == c.inr(c.month(c.part("output").usd_per_request))
    code, out, _ = run_cli(capsys, "cost", "--model", "GPT-4.1", "--output-tokens", "300", "--", HINDI)
    assert f"input   {tokens:,.1f} tokens a request, the text (measured): {usd(c.part('input').usd_per_request)}" in out
    assert (f"output  300.0 tokens a request (assumed: --output-tokens): {usd(c.part('output').usd_per_request)}"
            in out)


def test_a_reasoning_model_adds_its_named_dated_reasoning_budget_to_the_output(capsys):
    budget = models.reasoning_budget()
    code, out, _ = run_cli(capsys, "cost", "--model", "o3", "--model", "GPT-4o", "--output-tokens", "300", "--json",
                           "--", HINDI)
    o3, gpt4o = json.loads(out)["models"]
    assert o3["reasoning"] == {"tokens": budget.value, "assumed": True, "name": budget.name, "date": budget.date,
                               "basis": budget.basis, "given": False}
    assert gpt4o["reasoning"] is None and [p["part"] for p in gpt4o["bill"]] == ["input", "output"]
    c = cost(count("o200k_base", HINDI), models.price("o3"), output_tokens=300, reasoning_tokens=budget.value,
             requests_per_month=1000, inr_per_usd=models.INR_PER_USD)
    assert Decimal(o3["usd_per_request"]) == c.usd_per_request
    code, out, _ = run_cli(capsys, "cost", "--model", "o3", "--reasoning-tokens", "0", "--json", "--", HINDI)
    assert json.loads(out)["models"][0]["reasoning"]["tokens"] == 0
    code, out, _ = run_cli(capsys, "cost", "--model", "o3", "--", HINDI)
    assert f"reasoning {budget.value:,.1f} tokens a request (assumed: the lab's reasoning budget, {budget.date}" in out
    assert "billed as output" in out


def test_cached_input_and_batch_discounts_on_the_command_line(capsys):
    p = models.price("gpt-4o")
    tokens = count("o200k_base", HINDI)
    code, out, _ = run_cli(capsys, "cost", "--model", "gpt-4o", "--output-tokens", "10", "--cached-share", "0.5",
                           "--json", "--", HINDI)
    [row] = json.loads(out)["models"]
    c = cost(tokens, p, output_tokens=10, cached_share=0.5, requests_per_month=1000, inr_per_usd=models.INR_PER_USD)
    assert Decimal(row["usd_per_request"]) == c.usd_per_request
    assert row["discounts"] == {"cached_share": "0.5", "batch": False, "notes": []}
    code, out, _ = run_cli(capsys, "cost", "--model", "gpt-4o", "--model", "llama-3.3-70b", "--output-tokens", "10",
                           "--batch", "--json", "--", HINDI)
    gpt4o, llama = json.loads(out)["models"]
    assert gpt4o["price"]["batch_input_per_m"] == str(p.batch_input_per_m)
    assert Decimal(gpt4o["usd_per_request"]) == cost(tokens, p, output_tokens=10, batch=True, requests_per_month=1,
                                                     inr_per_usd=models.INR_PER_USD).usd_per_request
    assert llama["discounts"]["notes"] == ["no batch price published here: the list prices"]
    refused(*run_cli(capsys, "cost", "--model", "gpt-4o", "--cached-share", "1.5", "hi"), "--cached-share", "0 to 1")


def test_prices_per_model_leave_the_others_published(capsys):
    """The page's command for GPT-4o mini, Llama 3.1 8B and Qwen3 (no published price): the advice was
    --input-price, which set every model's price."""
    code, out, err = run_cli(capsys, "cost", "--model", "gpt-4o-mini", "--model", "llama-3.1-8b", "--model", "qwen3",
                             "--input-price", "qwen3=0.2", "--output-price", "Qwen3=0.6", "--json", "--", HINDI)
    assert code == 0, err
    mini, llama, qwen = json.loads(out)["models"]
    assert mini["price"]["input_per_m"] == str(models.price("gpt-4o-mini").input_per_m) and not mini["price"]["input_given"]
    assert llama["price"]["output_per_m"] == str(models.price("llama-3.1-8b").output_per_m)
    assert (qwen["price"]["input_per_m"], qwen["price"]["output_per_m"]) == ("0.2", "0.6")
    assert qwen["price"]["input_given"] and qwen["price"]["output_given"]
    line = refused(*run_cli(capsys, "cost", "--model", "gpt-4o-mini", "--model", "qwen3", "hi"),
                   "no published price is known for Qwen3")
    assert "--input-price qwen3=USD_PER_M" in line and "--output-price qwen3=USD_PER_M" in line
    refused(*run_cli(capsys, "cost", "--model", "gpt-4o", "--input-price", "gpt-4=3", "hi"),
            "--input-price names GPT-4, which is not one of the --model given")
    # A price for every model, as before: one number.
    code, out, _ = run_cli(capsys, "cost", "--model", "gpt-4o", "--model", "gpt-4", "--input-price", "1", "--json", "hi")
    assert {row["price"]["input_per_m"] for row in json.loads(out)["models"]} == {"1"}


def test_a_bad_number_is_echoed_cut_short(capsys):
    line = refused(*run_cli(capsys, "cost", "--model", "gpt-4o", "--input-price", "9" * 5000 + "x", "hi"),
                   "--input-price needs")
    assert len(line) < 300


def test_a_mean_is_rounded_half_up_as_the_page_shows_it(tmp_path, capsys):
    """23.25 tokens a record was '23.2' on a card (Python's rounding of a binary float) and '23.3' in the page's
    table (the browser's): one rule everywhere, halves up."""
    lines = ["a" + " a" * (n - 1) for n in (23, 23, 23, 24)]
    assert [count("o200k_base", line) for line in lines] == [23, 23, 23, 24]
    (tmp_path / "m.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "count", "-t", "o200k_base", "--file", str(tmp_path / "m.txt"), "--lines")
    assert out.splitlines()[1].split()[3] == "23.3"
    from analyses.estimate import mean_shown

    assert (mean_shown(93, 4), mean_shown(1, 3), mean_shown(2, 3), mean_shown(7, 1), mean_shown(0, 0)) == (
        "23.3", "0.3", "0.7", "7", "0")
    code, out, _ = run_cli(capsys, "cost", "-m", "gpt-4o", "--file", str(tmp_path / "m.txt"), "--lines")
    assert "input   23.3 tokens a request, mean of 4 records" in out
