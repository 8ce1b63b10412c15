"""Lesson 7, numbers: digit groups, international and Indian commas (analyses/numbers.py), and what
the real tokenizers do with digits, measured."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyses.numbers import (
    MAX_DIGITS,
    STYLES,
    digit_groups,
    digit_style,
    group_digits,
    indian,
    indian_groups,
    international,
    international_groups,
    parse_number,
)
from family import real


@pytest.mark.parametrize(
    ("number", "intl", "ind"),
    [
        ("0", "0", "0"),
        ("7", "7", "7"),
        ("999", "999", "999"),
        ("1000", "1,000", "1,000"),
        ("12345", "12,345", "12,345"),
        ("123456", "123,456", "1,23,456"),
        ("1234567", "1,234,567", "12,34,567"),
        ("12345678", "12,345,678", "1,23,45,678"),
        ("10000000", "10,000,000", "1,00,00,000"),  # one crore
        ("-123456.75", "-123,456.75", "-1,23,456.75"),
        ("1,23,456", "123,456", "1,23,456"),  # already grouped, either way: read as the digits
        ("123 456", "123,456", "1,23,456"),
        ("007", "7", "7"),
        ("-0", "0", "0"),
        ("-0.5", "-0.5", "-0.5"),
    ],
)
def test_international_and_indian_commas(number: str, intl: str, ind: str) -> None:
    assert international(number) == intl
    assert indian(number) == ind


def test_digit_groups_from_the_left_and_right_aligned() -> None:
    assert group_digits("12345") == ["123", "45"]  # the curriculum's 12345 -> 123 45
    assert group_digits("12345", align="right") == ["12", "345"]
    assert group_digits("123456", 2, align="right") == ["12", "34", "56"]
    with pytest.raises(ValueError):
        group_digits("123", 0)
    with pytest.raises(ValueError):
        group_digits("123", align="middle")


@settings(max_examples=300, deadline=None)
@given(digits=st.from_regex(r"[1-9][0-9]{0,40}", fullmatch=True))
def test_grouping_rules_hold_for_any_number(digits: str) -> None:
    intl, ind = international_groups(digits), indian_groups(digits)
    assert "".join(intl) == "".join(ind) == digits
    assert all(len(g) == 3 for g in intl[1:]) and 1 <= len(intl[0]) <= 3
    assert len(ind[-1]) == min(3, len(digits))
    assert all(len(g) == 2 for g in ind[1:-1])
    if len(ind) > 1:
        assert 1 <= len(ind[0]) <= 2
    assert international(digits).replace(",", "") == indian(digits).replace(",", "") == digits
    left = group_digits(digits)
    assert all(len(g) == 3 for g in left[:-1]) and "".join(left) == digits


def test_a_500_digit_number_and_bad_input() -> None:
    big = "9" * 500
    assert indian(big).replace(",", "") == big and international(big).count(",") == 166
    with pytest.raises(ValueError, match="not a number"):
        parse_number("12 lakh")
    with pytest.raises(ValueError, match="Type a number"):
        parse_number("   ")
    with pytest.raises(ValueError, match="up to"):
        parse_number("1" * (MAX_DIGITS + 1))
    with pytest.raises(ValueError, match="up to"):
        parse_number("1" * 1_000_000)  # a 1 MB paste is refused quickly, with a reason
    assert parse_number("+12").sign == "" and parse_number("-0012").digits == "12"


def test_digit_style_reads_the_groups() -> None:
    assert digit_style(["123", "456", "7"]) == "left"
    assert digit_style(["1", "234", "567"]) == "right"
    assert digit_style(list("1234567")) == "digits"
    assert digit_style(["1234567"]) == "whole"
    assert digit_style(["123", "45", "67"]) == "other"
    assert digit_style(["12"]) == "other"  # not the probe's digits
    assert digit_groups([" ", "\u25811", "2"]) == ["1", "2"]
    assert set(STYLES) == {"digits", "left", "right", "whole", "other"}


# -- measured with the real tokenizers --------------------------------------------------------------------


def _labels(name: str, text: str) -> list[str]:
    return [t.label for t in real.load(name).encode_tokens(text)]


@pytest.mark.parametrize(
    ("name", "style"),
    [
        ("cl100k_base", "left"),
        ("o200k_base", "left"),
        ("llama3", "left"),
        ("qwen3", "digits"),
        ("mistral-tekken", "digits"),
        ("mistral-sp-v3", "digits"),
        ("r50k_base", "other"),  # GPT-2 has no digit rule: 123 45 67
    ],
)
def test_each_real_tokenizer_digit_rule_measured(name: str, style: str) -> None:
    if real.status(name):
        pytest.skip(real.status(name))
    from analyses.numbers import DIGIT_PROBE

    assert digit_style(digit_groups(_labels(name, DIGIT_PROBE))) == style


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_the_curriculum_numbers_with_gpt4_and_gpt4o(name: str) -> None:
    assert _labels(name, "12345") == ["123", "45"]
    assert _labels(name, international("123456")) == ["123", ",", "456"]
    assert _labels(name, indian("123456")) == ["1", ",", "23", ",", "456"]  # same value, two more tokens
