"""python -m i18n extract | check: the catalogue's upkeep (the program; its code is i18n/tool.py)."""

import sys

from i18n.tool import main

sys.exit(main(sys.argv[1:]))
