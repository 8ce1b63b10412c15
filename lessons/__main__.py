"""``python -m lessons check|class ...``: runs :func:`lessons.commands.main` (a program: nothing imports it)."""

import sys

from lessons.commands import main

sys.exit(main())
