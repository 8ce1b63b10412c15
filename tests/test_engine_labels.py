"""Labels and character runs: how a token's bytes are shown, and where stray bytes become letters again."""

from __future__ import annotations

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import lessons
from tokenizer import train
from tokenizer.labels import bytes_label, character_runs

_PRESET = lessons.presets()["english-hindi"]
BYTE_TOK = train(_PRESET.corpus, _PRESET.merges, **_PRESET.config.to_dict()).tokenizer


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
@settings(max_examples=300, deadline=None)
def test_runs_cover_exactly_the_split_characters(text: str) -> None:
    tokens = BYTE_TOK.encode_tokens(text)
    chunks = [t.bytes for t in tokens]
    runs = character_runs(chunks)
    bounds = {0}
    offset = 0
    for cluster in regex.findall(r"\X", text):
        offset += len(cluster.encode())
        bounds.add(offset)
    starts = [0]
    for c in chunks:
        starts.append(starts[-1] + len(c))
    previous_end = 0
    for start, end, shown in runs:
        assert previous_end <= start < end <= len(chunks)  # in order, never overlapping
        previous_end = end
        assert starts[start] in bounds and starts[end] in bounds  # they start and end between graphemes
        assert shown == b"".join(chunks[start:end]).decode()  # the text is what the bytes make
        assert any(not tokens[i].whole for i in range(start, end))  # and holds a split character
    covered = {i for start, end, _ in runs for i in range(start, end)}
    assert all(i in covered for i, t in enumerate(tokens) if not t.whole)  # every partial token is in a run


def test_bytes_label_never_shows_a_replacement_mark() -> None:
    data = "खबर".encode()
    assert [bytes_label(data[i : i + 2]) for i in range(0, 9, 2)] == ["⟨E0 A4⟩", "⟨96 E0⟩", "⟨A4 AC⟩", "⟨E0 A4⟩", "⟨B0⟩"]
