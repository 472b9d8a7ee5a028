"""``python -m houserules ...`` is the ``houserules`` command."""
import sys

from houserules.cli import main

sys.exit(main())
