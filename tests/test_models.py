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
    for name in ["GPT-4o", "GPT-4o mini", "GPT-4.1", "GPT-4.1 mini", "GPT-4.1 nano", "o1", "o3", "o4-mini", "GPT-4",
                 "GPT-4 Turbo", "GPT-3.5 Turbo", "davinci", "Llama 3", "Llama 3.1 8B", "Llama 3.1 70B", "Llama 3.2", "Llama 3.3",
                 "Qwen 2.5", "Qwen3", "Mistral NeMo", "Mistral 7B v0.3"]:
        find(name)


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
        find("claude-sonnet")
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


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["model"][0].update(tokenizer="gpt5_base"), r"model 1 \(gpt-4o\): unknown tokenizer 'gpt5_base'"),
    (lambda d: d["model"][1].pop("source"), r"model 2 \(gpt-4o-mini\): missing field 'source'"),
    (lambda d: d["model"][2].update(key="gpt-4o"), r"model 3 \(gpt-4o\): duplicate name 'gpt-4o'"),
    (lambda d: d["model"][2].update(aliases=["GPT 4o"]), r"duplicate name 'GPT 4o' \(already gpt-4o\)"),
    (lambda d: d["model"][0].update(chat="harmony"), r"unknown chat format 'harmony'"),
    (lambda d: d["model"][0].update(colour="red"), r"unknown field\(s\) colour"),
    (lambda d: d["model"][0].update(key="GPT-4o"), r"a key is lower case"),
    (lambda d: d["model"][0].update(name=""), r"name must be a non-empty str"),
    (lambda d: d.update(model=[]), r"no \[\[model\]\] entries"),
    (lambda d: d["model"][0].update(aliases="gpt4o"), r"aliases must be a list of names"),
])
def test_a_damaged_models_file_is_refused_clearly(change, message):
    data = _models_data()
    change(data)
    with pytest.raises(ModelDataError, match=message):
        parse_models(data)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["price"][0].update(model="gpt-5"), r"price 1 \(gpt-5\): a price for an unknown model 'gpt-5'"),
    (lambda d: d["price"][1].update(model="gpt-4o"), r"duplicate price for 'gpt-4o'"),
    (lambda d: d["price"][0].pop("date"), r"missing field 'date'"),
    (lambda d: d["price"][0].update(input_per_m=Decimal(-1)), r"input_per_m must be a number >= 0"),
    (lambda d: d["price"][0].update(output_per_m="ten"), r"output_per_m is not a number"),
    (lambda d: d.pop("exchange"), r"missing \[exchange\]"),
    (lambda d: d["exchange"].update(inr_per_usd=Decimal(0)), r"inr_per_usd must be more than 0"),
])
def test_a_damaged_prices_file_is_refused_clearly(change, message):
    data = _prices_data()
    change(data)
    with pytest.raises(ModelDataError, match=message):
        parse_prices(data, {m.key for m in models()})


def test_a_file_that_is_not_toml_is_refused_clearly(tmp_path):
    broken = tmp_path / "models.toml"
    broken.write_text('[[model]]\nkey = "gpt-4o\n', encoding="utf-8")
    with pytest.raises(ModelDataError, match=r"models.toml: not valid TOML"):
        fm._load(broken)
    duplicate = tmp_path / "prices.toml"
    duplicate.write_text('[exchange]\ninr_per_usd = 88.0\ninr_per_usd = 90.0\n', encoding="utf-8")
    with pytest.raises(ModelDataError, match=r"prices.toml: not valid TOML"):
        fm._load(duplicate)
