"""``python -m tokenizer``: starts the lab's command line (:mod:`cli`).

A package's ``__main__`` is a program, not a module: it runs only as ``python -m tokenizer`` and nothing imports it
(tests/test_import_purity.py checks both), so starting the command line from here does not make the engine package
import anything above it.
"""

import sys

from cli import main

sys.exit(main())
