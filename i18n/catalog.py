"""The catalogues: ``i18n/locale/<lang>/LC_MESSAGES/lab.po``, read with Babel into gettext translations.

No compiled ``.mo`` file is kept in the repository: the ``.po`` a translator edits is the one source, read when the
package is imported (Babel parses it and writes the ``.mo`` form in memory, which :class:`gettext.GNUTranslations`
reads: its plural rule comes from the catalogue's ``Plural-Forms`` header). Fuzzy entries are left out, so a
string whose English changed shows in English until its Hindi is reviewed (``python -m i18n check`` fails
meanwhile). A catalogue is read the first time its language is asked for, once a process: the lab's pages read
every one when the first page runs (:func:`read_all`, from ``ui.frame``), so the first learner in Hindi does not
pay for it, and a command-line run in English never reads one (it cost each ``python -m tokenizer`` 0.1 s).

The pseudo-locale (:data:`PSEUDO_LANG`) translates every message into itself between :data:`MARKS`.
"""

from __future__ import annotations

import gettext
import re
from functools import cache
from io import BytesIO
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "lab"
#: The languages with a catalogue (English is the messages themselves).
CATALOGUED = ("hi",)
PSEUDO_LANG = "xx"
#: What the pseudo-locale puts around every translated string.
MARKS = ("⟦", "⟧")

# A line's Markdown lead (indent, a list marker, a heading's #s, a quote) stays outside the marks, and so do its
# trailing spaces (two of them are a line break), so the marked text is drawn as the English is.
_LINE = re.compile(r"^(\s*(?:[-*+]\s+|\d+\.\s+|#+\s+|>\s*)?)(.*?)(\s*)$")


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def pseudo(text: str) -> str:
    """``text`` as the pseudo-locale shows it: each line's words between the marks.

    >>> pseudo("Tokens")
    '⟦Tokens⟧'
    >>> pseudo("- **one**  \\n- two")
    '- ⟦**one**⟧  \\n- ⟦two⟧'
    """
    out = []
    for line in text.split("\n"):
        found = _LINE.match(line)
        assert found is not None  # the pattern matches any line (every part of it may be empty)
        lead, body, tail = found.groups()
        out.append(f"{lead}{MARKS[0]}{body}{MARKS[1]}{tail}" if body else line)
    return "\n".join(out)


class PseudoTranslations(gettext.NullTranslations):
    """Every message, marked (English's plural rule picks the form)."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)


def read_catalogue(lang: str):
    """The Babel catalogue of ``lang`` as its ``.po`` file holds it."""
    from babel.messages.pofile import read_po  # (Babel's catalogue code: imported when a catalogue is read)

    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (for English, and a language without a catalogue, the messages themselves)."""
    if lang == PSEUDO_LANG:
        return PseudoTranslations()
    if lang not in CATALOGUED or not po_path(lang).is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo

    compiled = BytesIO()
    write_mo(compiled, read_catalogue(lang), use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def read_all() -> None:
    """Read every catalogue now (the pages call this when their first run imports ``ui.frame``): the first learner
    in a language does not wait for its catalogue."""
    for lang in CATALOGUED:
        translations(lang)
