"""No product file is over 800 lines (issue 25): a file that long holds several things, and is split by what they
are (a package of parts, as views/train/, views/family/, views/estimate/ and lessons/exercises/ are), not cut at a
line. Tests, benchmarks and scripts are not product files."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).parents[1]
MAX_LINES = 800
PRODUCT = ("app.py", "pages", "views", "ui", "lessons", "analyses", "family", "tokenizer", "cli", "i18n", "deploy")


def product_files(root: Path = ROOT) -> list[Path]:
    files = []
    for name in PRODUCT:
        place = root / name
        files += [place] if place.is_file() else sorted(place.rglob("*.py"))
    return files


def lines(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for _ in f)


def test_no_product_file_is_over_800_lines() -> None:
    too_long = {str(p.relative_to(ROOT)): n for p in product_files() if (n := lines(p)) > MAX_LINES}
    assert too_long == {}, f"split these by what they hold (at most {MAX_LINES} lines a file): {too_long}"


def test_the_rule_sees_every_product_place_and_a_long_file(tmp_path: Path) -> None:
    """The places it reads are the house's (each exists, so a renamed one is not silently skipped), and a file one
    line over the limit is found."""
    assert all((ROOT / name).exists() for name in PRODUCT)
    (tmp_path / "views").mkdir()
    (tmp_path / "views" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "views" / "short.py").write_text("x = 1\n" * MAX_LINES)
    found = {p.name: lines(p) for p in product_files(tmp_path)}
    assert found == {"long.py": MAX_LINES + 1, "short.py": MAX_LINES}
