"""``python -m pdfthin``: the command line."""

import sys

from pdfthin.adapters.cli import main

sys.exit(main())
