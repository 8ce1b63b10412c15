"""The Estimate page, part 1: your input (a pasted text or an uploaded file) and how to read it (one prompt, a record
a line, JSONL, CSV), read into records as the command line reads the same file (:func:`analyses.records.batches`;
an upload decoded by :func:`tokenizer.textfile.iter_text`, the command line's reader: a UTF-8 byte-order mark
dropped, a NUL byte or UTF-16 refused with the same words)."""

from __future__ import annotations

import csv
import io

import streamlit as st

import i18n
from analyses import estimate as est
from analyses.textstats import utf8_length
from i18n import _, _n, decimal, localized, number
from tokenizer.textfile import iter_text
from ui import state
from ui.display import and_words, md_escape, translated
from ui.links import lesson_link
from ui.show import Show
from ui.uploads import too_big, uploaded_bytes, uploaded_file

from . import settings as s
from .command import too_big_for_page
from .parts import Data


def intro(show: Show) -> None:
    if not show.classroom:
        st.markdown(_(
            "What will your prompts cost? Paste a prompt, or upload a dataset (text, JSONL, CSV), pick the models "
            "you would send it to, and read the tokens each one's tokenizer counts, exactly, and what a request and "
            "a month cost in USD and INR: the input (measured) and the output (your guess) apart. **Prices change**: "
            "each one below shows its date and source, and every one is yours to change (the link keeps your "
            "numbers; a file is never put in the link)."
        ))
    lesson_link(5)


def use_example() -> None:
    state.set_value(s.TEXT, s.EXAMPLE["text"])
    state.set_value(s.ENGLISH, s.EXAMPLE["english"])
    state.set_value(s.KIND, "text")
    state.set_value(s.SOURCE, "paste")


def file_chosen() -> None:
    """on_change of the uploader: read the file the way its name says (JSONL, CSV, else a record a line)."""
    file = uploaded_file(s.UPLOAD.skey)
    if file is None:
        return
    ext = file.name.rsplit(".", 1)[-1].lower() if "." in file.name else ""
    state.set_value(s.KIND, s.EXTENSIONS.get(ext, "lines"))


def input_section(show: Show) -> Data | None:
    """The text box or the uploader, how to read it, and the records read; None (after saying why) when there is
    nothing to count. Classroom mode: in the page's closed box of controls (the costs are the slide)."""
    st.segmented_control(_("Your input"), tuple(s.SOURCES), key=s.SOURCE.skey, format_func=translated(s.SOURCES).__getitem__,
                         required=True)
    kind_picker()
    found = uploaded_text() if state.value(s.SOURCE) == "file" else pasted_text(show)
    if found is None:
        return None
    text, ident, name = found
    return read_section(text, ident, name)


def kind_picker() -> None:
    st.segmented_control(_("Read it as"), tuple(s.KINDS), key=s.KIND.skey, format_func=translated(s.KINDS).__getitem__,
                         required=True, help=_("One prompt: the whole text is one request. A record a line: each "
                         "non-empty line is a request. JSONL: each line a JSON record (a chat's `messages`, or a field "
                         "you name). CSV: each row, from the column you pick."))


def uploaded_text() -> tuple[str, str, str] | None:
    """The uploaded file's text, its identity and its name; None after saying why not."""
    raw, name = uploaded_bytes(
        _("A file: plain text, JSONL or CSV"), key=s.UPLOAD.skey, types=s.FILE_TYPES, limit_mb=s.UPLOAD_MB,
        on_change=file_chosen,
        help=_("UTF-8. A text file is one prompt or one record a line; JSONL one record a line (a chat's "
               "`messages`, or a field you name); CSV one row a record (a column you pick)."))
    st.caption(s.limits())
    if raw is None or name is None:  # both, or neither
        st.info(_("Upload a file to count it (a file is never put in the link: after a reload, upload it again). "
                  "Or paste text instead."), icon=":material/upload_file:")
        return None
    if len(raw) > s.UPLOAD_BYTES:
        too_big_for_page(_("This file is {size} MB; this page reads files of up to {mb} MB.",
                           size=decimal(len(raw) / 1e6, 1), mb=s.UPLOAD_MB), name)
        return None
    if not raw.strip():
        st.warning(md_escape(_("{name} is empty: there is nothing to count.", name=name)), icon=":material/error:")
        return None
    try:  # the command line's reader, so the page and the command it prints read the same text
        text = "".join(iter_text(io.BytesIO(raw), name))
    except ValueError as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        return None
    finally:
        del raw
    return text, f"file:{getattr(uploaded_file(s.UPLOAD.skey), 'file_id', name)}:{len(text)}", name


def pasted_text(show: Show) -> tuple[str, str, None] | None:
    st.text_area(_("Your prompt or records"), key=s.TEXT.skey, height=90 if show.classroom else 130,
                 placeholder=_("Paste a prompt, or records one a line…"),
                 help=_("Up to {paste} MB; bigger: upload a file (up to {upload} MB).", paste=s.PASTE_MB,
                        upload=s.UPLOAD_MB))
    if not show.classroom:
        st.button(_("Back to the example: {label}", label=localized(s.EXAMPLE)["label"]), key=s.EXAMPLE_BUTTON.skey,
                  on_click=use_example, type="tertiary", icon=":material/restart_alt:")
    text = state.value(s.TEXT) or ""
    if not text.strip():
        st.info(_("Paste a prompt above (or records, one a line), or upload a file."), icon=":material/edit:")
        return None
    if too_big(utf8_length(text), s.PASTE_BYTES, _("or upload it as a file, up to {mb} MB", mb=s.UPLOAD_MB)):
        return None
    if state.too_long([s.TEXT]):
        st.caption(_("This text is too long to put in the page's link; the link keeps the models and the numbers."))
    return text, "text:" + state.digest(text), None


def _header(text: str) -> list[str]:
    """A CSV's header row (read from its start only: a whole file's copy per click is not needed for it)."""
    try:
        return next(csv.reader(io.StringIO(text[:s.HEADER_CHARS], newline="")), [])
    except csv.Error:
        return []


def missing_column(text: str, column: str) -> str:
    """The engine's words for a CSV without ``column`` (it lists the columns there are)."""
    try:
        est.read_records(text.split("\n", 1)[0] + "\n", "csv", column=column)
    except est.EstimateInputError as exc:
        return str(exc)
    return _("This CSV has no column “{column}”.", column=column)


def read_section(text: str, ident: str, file_name: str | None) -> Data | None:
    """The JSONL field or the CSV column, then the records read from ``text``."""
    kind = state.value(s.KIND)
    field = column = None
    if kind == "jsonl":
        st.text_input(_("Field"), key=s.FIELD.skey,
                      placeholder=_("{some} or {last}", some="messages, text", last="prompt"),  # field names: code
                      help=_("The field that holds each record's text, or its chat (a list of role and content). "
                             "Empty: a record's `messages` if it has them, else its `text` or `prompt`."))
        field = (state.value(s.FIELD) or "").strip() or None
    elif kind == "csv":
        column = column_picker(text)
        if column is None:
            return None
    if kind == "text" and len(text) > est.MAX_RECORD_CHARS:
        too_big_for_page(_("As one prompt, this text is longer than any model reads ({n} characters is the most one "
                           "record may have): read it as one record a line, or", n=number(est.MAX_RECORD_CHARS)),
                         file_name)
        return None
    data = cached_data(text, kind, field, column, ident, file_name)
    if data is None:
        return None
    if data.more:
        too_big_for_page(_("This input has more than {n} records; this page counts up to {n} in one go.",
                           n=number(s.MAX_RECORDS)), file_name)
        return None
    if data.broken:
        say_problems(data)
    if not data.records:
        st.warning(_("Nothing to count: no record could be read.") + " " + _kind_hint(kind), icon=":material/error:")
        return None
    return data


def column_picker(text: str) -> str | None:
    header = _header(text)
    if not header:
        st.warning(_("This CSV has no header row: its first line names the columns."), icon=":material/error:")
        return None
    wanted = state.value(s.COLUMN)
    if wanted and wanted not in header:  # a link (or the last file) named a column this file does not have
        st.warning(md_escape(missing_column(text, wanted) + " " + _("Showing the column “{column}”.",
                                                                     column=header[0])),
                   icon=":material/error:")
    if not wanted or wanted not in header:
        state.set_value(s.COLUMN, header[0])
    st.selectbox(_("Column"), header, key=s.COLUMN.skey, help=_("The column that holds each record's text."))
    return state.value(s.COLUMN)


def cached_data(text: str, kind: str, field: str | None, column: str | None, ident: str,
                file_name: str | None) -> Data | None:
    """The records of ``text``, read once a session for the data on screen (a change of price or rate reads
    nothing again)."""
    cached = st.session_state.get(s.COUNTS.skey)
    key, lang = (ident, kind, field, column), i18n.current()
    if cached is not None and cached["key"] == key and cached.get("lang") == lang:
        return cached["data"]
    try:
        data = read_data(text, kind, field, column, ident, file_name)
    except est.EstimateInputError as exc:
        st.warning(md_escape(str(exc)), icon=":material/error:")
        return None
    # read again in another language (a broken record's reason is a sentence), its counts kept
    counts = cached["counts"] if cached is not None and cached["key"] == key else {}
    st.session_state[s.COUNTS.skey] = {"key": key, "lang": lang, "data": data, "counts": counts}
    return data


def read_data(text: str, kind: str, field: str | None, column: str | None, ident: str,
              file_name: str | None) -> Data:
    """The records of ``text``, read as a stream and held up to MAX_RECORDS (one more says there are more: a file
    of millions of short lines is refused without a million records in memory); the first broken ones listed, all
    of them counted."""
    records: list[est.Record] = []
    problems: list[est.Problem] = []
    broken = 0
    for item in est.iter_records([text], kind, field, column):
        if isinstance(item, est.Record):
            if len(records) == s.MAX_RECORDS:
                return Data(ident, [], problems, len(text), file_name, broken, more=True)
            records.append(item)
        else:
            broken += 1
            if len(problems) < s.MAX_LISTED_PROBLEMS:
                problems.append(item)
    return Data(ident, records, problems, len(text), file_name, broken)


def _kind_hint(kind: str) -> str:
    if kind == "jsonl":
        return _("Each line should be a JSON object with the field named (or `messages`, `text` or `prompt`).")
    return _("Each row should have text in the column picked.") if kind == "csv" else _("Paste or upload some text.")


def say_problems(data: Data) -> None:
    """Broken records: which, why (the first), and that the rest are counted."""
    problems, broken = data.problems, data.broken
    numbers = [number(p.number) for p in problems[:s.MAX_LISTED_PROBLEMS]]
    more = broken - len(numbers)
    which = (_("{some} and {n} more", some=", ".join(numbers), n=number(more)) if more else and_words(numbers))
    st.warning(md_escape(
        _n("{n} line could not be read and is left out: line {which} (line {first}: {why}).",
           "{n} lines could not be read and are left out: lines {which} (line {first}: {why}).", broken,
           which=which, first=number(problems[0].number), why=problems[0].reason)
        + " " + _n("The other {n} record is counted.", "The other {n} records are counted.", len(data.records))),
        icon=":material/rule:")


__all__ = ["Data", "input_section", "intro", "read_data"]
