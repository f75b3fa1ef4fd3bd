"""`python -m accjit ...` is the `accjit` command."""

import sys

from .cli import main

sys.exit(main())
