"""``python -m houserules.web``: the playground, as ``houserules serve`` starts it."""
import sys

from .cli import main

sys.exit(main())
