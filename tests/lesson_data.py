"""Data that many test files read, named once: lesson 4's English and Hindi parallel texts (its paragraphs,
sentences and word lists), as ``lessons.data`` gives them to the pages."""

from __future__ import annotations

import lessons

LESSON4 = lessons.data("lesson4_english_hindi")
