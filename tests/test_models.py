"""Product models by name (family/models.py and its data files): the mapping agrees with its sources, names are
found however they are typed, and damaged data files stop with a clear message."""

from __future__ import annotations

import re
import tomllib
from decimal import Decimal

import pytest
import tiktoken

from family import models as fm
from family import real
from family.models import ModelDataError, UnknownModel, find, models, normalise, parse_models, parse_prices, price

OPENAI = [m for m in models() if m.vendor == "OpenAI"]


# -- the mapping, checked against its sources ----------------------------------------------------------------


def test_every_model_uses_a_real_tokenizer_that_loads():
    for model in models():
        assert model.tokenizer in real.NAMES
        assert real.status(model.tokenizer) is None, model.key


@pytest.mark.parametrize("model", OPENAI, ids=lambda m: m.key)
def test_openai_mappings_agree_with_tiktoken(model):
    assert tiktoken.encoding_name_for_model(model.key) == model.tokenizer
    assert "tiktoken model.py" in model.source and model.tokenizer in model.source


def test_the_issue_lists_models_are_all_there():
    for name in ["GPT-5", "GPT-5 mini", "GPT-5 nano", "GPT-4o", "GPT-4o mini", "GPT-4.1", "GPT-4.1 mini", "GPT-4.1 nano",
                 "o1", "o3", "o4-mini", "GPT-4",
                 "GPT-4 Turbo", "GPT-3.5 Turbo", "davinci", "Llama 3", "Llama 3.1 8B", "Llama 3.1 70B", "Llama 3.2", "Llama 3.3",
                 "Qwen 2.5", "Qwen3", "Mistral NeMo", "Mistral 7B v0.3"]:
        find(name)


@pytest.mark.parametrize("key", ["gpt-5", "gpt-5-mini", "gpt-5-nano"])
def test_the_gpt5_family_is_there_with_tiktoken_s_tokenizer_and_a_dated_price(key):
    """count --model gpt-5 answered "did you mean GPT-4 or GPT-3 davinci?"; tiktoken maps it to o200k_base."""
    model = find(key)
    assert model.tokenizer == tiktoken.encoding_name_for_model(key) == "o200k_base"
    assert model.chat == "openai" and price(key) is not None and price(key).date == price("gpt-4o").date


@pytest.mark.parametrize(("typed", "who", "vendor"), [
    ("claude", "Claude", "Anthropic"), ("Claude 3.5 Sonnet", "Claude", "Anthropic"), ("claude-opus-4", "Claude", "Anthropic"),
    ("gemini", "Gemini", "Google"), ("Gemini 2.5 Pro", "Gemini", "Google"), ("gemini-1.5-flash", "Gemini", "Google"),
])
def test_models_whose_tokenizer_is_not_published_say_so_and_what_to_do(typed, who, vendor):
    """--model claude said "unknown model": a well-known model the lab cannot count is named, with why and what to
    do instead, not offered a lookalike."""
    with pytest.raises(fm.UncountableModel) as caught:
        find(typed)
    message = str(caught.value)
    assert message.startswith(f"{who} ({vendor}) cannot be counted here:") and "\n" not in message
    assert "not published" in message and "instead" in message
    assert isinstance(caught.value, UnknownModel)  # every caller that handles an unknown name handles this one
    listed = {m.name for m in fm.uncountable()}
    assert who in listed


def test_mistral_nemo_names_its_own_file_and_the_lab_s_counts_the_same():
    """mistral-common maps NeMo to tekken_240718.json (Pixtral's is tekken_240911.json, which the lab loads): the two
    have the same ranks, pattern and special tokens, so every count is the same."""
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    nemo_model = find("mistral-nemo")
    assert "tekken_240718.json" in nemo_model.source and "tekken_240911.json" in nemo_model.source
    assert real.data_file(nemo_model.tokenizer).name == "tekken_240718.json"  # counted with its own file
    folder = real.data_file("mistral-tekken").parent
    nemo, lab = Tekkenizer.from_file(folder / "tekken_240718.json"), Tekkenizer.from_file(folder / "tekken_240911.json")
    assert nemo._model._mergeable_ranks == lab._model._mergeable_ranks
    assert nemo._model._pat_str == lab._model._pat_str and nemo.num_special_tokens == lab.num_special_tokens
    text = "Thick fog closed schools. घने कोहरे से स्कूल बंद रहे। 12345 https://x.org/a?b=1\n\n  end"
    assert nemo.encode(text, bos=False, eos=False) == lab.encode(text, bos=False, eos=False)


def test_each_vendors_chat_format():
    formats = {"OpenAI": "openai", "Meta": "llama3", "Alibaba (Qwen)": "chatml", "Mistral AI": "mistral"}
    for model in models():
        expected = None if model.key == "davinci" else formats[model.vendor]  # GPT-3: a completion model
        assert model.chat == expected, model.key


def test_the_open_models_sources_state_what_the_data_shows():
    """The sources quote sizes of the vocabularies: the loaded tokenizers have them."""
    qwen = real.load("qwen3")
    regular = qwen.vocab_size - len(qwen.special_tokens)
    for key in ("qwen2.5", "qwen3"):
        claimed = re.search(r"([\d,]+) regular tokens", find(key).source).group(1)
        assert int(claimed.replace(",", "")) == regular
        assert "qwen3" in find(key).source and "qwen.tiktoken" in find(key).source
    llama = real.load("llama3")
    claimed = re.search(r"([\d,]+) regular tokens \+ (\d+) reserved", find("llama-3").source).groups()
    assert (int(claimed[0].replace(",", "")), int(claimed[1])) == (llama.vocab_size - 256, len(llama.special_tokens))


# -- finding a model by name -------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["gpt4o", "GPT 4o", "gpt-4o", "Gpt-4O", " gpt_4o ", "4o"])
def test_find_ignores_case_spaces_dots_and_hyphens(typed):
    assert find(typed).key == "gpt-4o"


def test_every_key_name_and_alias_finds_its_model():
    for model in models():
        for spelling in (model.key, model.name, *model.aliases, model.name.upper(), model.key.replace("-", " ")):
            assert find(spelling) == model


def test_normalised_names_do_not_collide():
    seen = {}
    for model in models():
        for spelling in {normalise(s) for s in (model.key, model.name, *model.aliases)}:
            assert seen.setdefault(spelling, model.key) == model.key, spelling


def test_a_close_name_gets_a_suggestion():
    with pytest.raises(UnknownModel) as caught:
        find("gpt-4o-minii")
    assert caught.value.name == "gpt-4o-minii"
    assert "GPT-4o mini" in caught.value.suggestions
    message = str(caught.value)
    assert message.startswith("unknown model 'gpt-4o-minii': did you mean GPT-4o mini")
    assert "\n" not in message
    with pytest.raises(UnknownModel, match="did you mean .*Llama 3"):
        find("lama 3")
    # Llama 3.1 comes in sizes that are priced differently: the name alone asks which.
    with pytest.raises(UnknownModel, match="did you mean Llama 3.1 8B, Llama 3.1 70B or "):
        find("Llama 3.1")


def test_a_name_nothing_like_a_known_one_lists_every_key():
    with pytest.raises(UnknownModel) as caught:
        find("falcon-sonnet")
    assert caught.value.suggestions == ()
    assert all(model.key in str(caught.value) for model in models())
    assert isinstance(caught.value, ValueError)
    with pytest.raises(UnknownModel) as caught:
        find("x" * 1_000_000)  # a name pasted by mistake: the message stays one short line
    assert len(str(caught.value)) < 600


# -- prices ------------------------------------------------------------------------------------------------------


def test_prices_are_exact_dated_and_sourced():
    priced = [p for p in (price(m.key) for m in models()) if p is not None]
    assert {p.model for p in priced} >= {m.key for m in OPENAI if m.key != "davinci"} | {"mistral-nemo"}
    for p in priced:
        assert isinstance(p.input_per_m, Decimal) and isinstance(p.output_per_m, Decimal)
        assert p.input_per_m > 0 and p.output_per_m > 0
        assert re.fullmatch(r"20\d\d-\d\d", p.date), p
        assert p.source.startswith("https://"), p
    # Read exactly: 0.15 is fifteen hundredths, not the binary float nearest it.
    assert price("gpt-4o-mini").input_per_m * 3 == Decimal("0.45")


def test_reasoning_models_are_marked_and_their_budget_is_a_named_dated_assumption():
    """o1, o3, o4-mini and GPT-5 bill hidden reasoning tokens as output (OpenAI's reasoning models)."""
    assert {m.key for m in models() if m.reasoning} == {"o1", "o3", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5-nano"}
    budget = fm.reasoning_budget()
    assert budget.name == "reasoning budget" and budget.value > 0 and re.fullmatch(r"20\d\d-\d\d", budget.date)
    assert "assumption" in budget.basis and "output" in budget.basis


def test_discounts_are_cheaper_than_the_list_price_and_only_where_published():
    for model in models():
        p = price(model.key)
        if p is None:
            continue
        if p.cached_input_per_m is not None:
            assert 0 < p.cached_input_per_m < p.input_per_m, model.key
        if p.batch_input_per_m is not None:
            assert 0 < p.batch_input_per_m < p.input_per_m and 0 < p.batch_output_per_m < p.output_per_m, model.key
        if model.vendor != "OpenAI":
            assert p.cached_input_per_m is None and p.batch_input_per_m is None, model.key  # not entered: unchecked


def test_open_weights_prices_name_their_host():
    hosted = [price(m.key) for m in models() if m.vendor == "Meta" and price(m.key) is not None]
    assert hosted
    assert all("Groq" in p.source for p in hosted)


def test_a_model_without_a_published_price_has_none():
    assert price("qwen3") is None
    assert price("davinci") is None
    assert price("no-such-model") is None


def test_the_exchange_rate_is_dated_and_sourced():
    assert isinstance(fm.INR_PER_USD, Decimal) and fm.INR_PER_USD > 0
    assert re.fullmatch(r"20\d\d-\d\d", fm.INR_DATE)
    assert "Reserve Bank of India" in fm.INR_SOURCE
    with pytest.raises(AttributeError):
        fm.INR_PER_EUR  # noqa: B018


def test_the_prices_file_says_prices_change_and_can_be_overridden():
    header = fm.PRICES_FILE.read_text(encoding="utf-8").split("[exchange]")[0]
    assert "Prices change" in header
    assert "--input-price" in header and "--output-price" in header and "page" in header


# -- damaged data stops with a clear message -----------------------------------------------------------------------


def _models_data() -> dict:
    return tomllib.loads(fm.MODELS_FILE.read_text(encoding="utf-8"))


def _prices_data() -> dict:
    return tomllib.loads(fm.PRICES_FILE.read_text(encoding="utf-8"), parse_float=Decimal)


def test_the_shipped_files_parse():
    assert parse_models(_models_data()) == models()
    assert parse_prices(_prices_data(), {m.key for m in models()})[1] == (fm.INR_PER_USD, fm.INR_DATE, fm.INR_SOURCE)


def _model(d: dict, key: str) -> dict:
    """The [[model]] entry of ``key`` in a parsed models.toml (entries are found by key, not by place)."""
    return next(entry for entry in d["model"] if entry["key"] == key)


def _price(d: dict, key: str) -> dict:
    return next(entry for entry in d["price"] if entry["model"] == key)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: _model(d, "gpt-4o").update(tokenizer="gpt5_base"), r"model \d+ \(gpt-4o\): unknown tokenizer 'gpt5_base'"),
    (lambda d: _model(d, "gpt-4o-mini").pop("source"), r"model \d+ \(gpt-4o-mini\): missing field 'source'"),
    (lambda d: _model(d, "gpt-4.1").update(key="gpt-4o"), r"model \d+ \(gpt-4o\): duplicate name 'gpt-4o'"),
    (lambda d: _model(d, "gpt-4.1").update(aliases=["GPT 4o"]), r"duplicate name 'GPT 4o' \(already gpt-4o\)"),
    (lambda d: d["model"][0].update(chat="harmony"), r"unknown chat format 'harmony'"),
    (lambda d: d["model"][0].update(colour="red"), r"unknown field\(s\) colour"),
    (lambda d: d["model"][0].update(key="GPT-4o"), r"a key is lower case"),
    (lambda d: d["model"][0].update(name=""), r"name must be a non-empty str"),
    (lambda d: d.update(model=[]), r"no \[\[model\]\] entries"),
    (lambda d: d["model"][0].update(aliases="gpt4o"), r"aliases must be a list of names"),
    (lambda d: _model(d, "gpt-4o").update(template="llama3.1"), r"template 'llama3.1' is not one of the openai format"),
    (lambda d: _model(d, "o3").update(reasoning="yes"), r"reasoning is true or false"),
])
def test_a_damaged_models_file_is_refused_clearly(change, message):
    data = _models_data()
    change(data)
    with pytest.raises(ModelDataError, match=message):
        parse_models(data)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["price"][0].update(model="gpt-6"), r"price 1 \(gpt-6\): a price for an unknown model 'gpt-6'"),
    (lambda d: _price(d, "gpt-4o-mini").update(model="gpt-4o"), r"duplicate price for 'gpt-4o'"),
    (lambda d: d["price"][0].pop("date"), r"missing field 'date'"),
    (lambda d: d["price"][0].update(input_per_m=Decimal(-1)), r"input_per_m must be a number >= 0"),
    (lambda d: d["price"][0].update(output_per_m="ten"), r"output_per_m is not a number"),
    (lambda d: d.pop("exchange"), r"missing \[exchange\]"),
    (lambda d: d["exchange"].update(inr_per_usd=Decimal(0)), r"inr_per_usd must be more than 0"),
    (lambda d: _price(d, "gpt-4o").pop("batch_output_per_m"), r"batch_input_per_m without the other batch price"),
    (lambda d: _price(d, "gpt-4o").update(cached_input_per_m="x"), r"cached_input_per_m is not a number"),
    (lambda d: _price(d, "gpt-4o").update(flex_per_m=Decimal(1)), r"unknown field\(s\) flex_per_m"),
])
def test_a_damaged_prices_file_is_refused_clearly(change, message):
    data = _prices_data()
    change(data)
    with pytest.raises(ModelDataError, match=message):
        parse_prices(data, {m.key for m in models()})


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["uncountable"][0].update(prefixes=["Claude 3"]), r"prefixes must be a list of names written as compared"),
    (lambda d: d["uncountable"][0].pop("instead"), r"uncountable 1 \(Claude\): missing field 'instead'"),
    (lambda d: d["uncountable"][0].update(tokenizer="x"), r"unknown field\(s\) tokenizer"),
])
def test_a_damaged_uncountable_entry_is_refused_clearly(change, message):
    data = _models_data()
    change(data)
    with pytest.raises(ModelDataError, match=message):
        fm.parse_uncountable(data)


def test_a_file_that_is_not_toml_is_refused_clearly(tmp_path):
    broken = tmp_path / "models.toml"
    broken.write_text('[[model]]\nkey = "gpt-4o\n', encoding="utf-8")
    with pytest.raises(ModelDataError, match=r"models.toml: not valid TOML"):
        fm._load(broken)
    duplicate = tmp_path / "prices.toml"
    duplicate.write_text('[exchange]\ninr_per_usd = 88.0\ninr_per_usd = 90.0\n', encoding="utf-8")
    with pytest.raises(ModelDataError, match=r"prices.toml: not valid TOML"):
        fm._load(duplicate)
