"""``python -m spyhouse``: the command line (see ``spyhouse.cli``)."""

from spyhouse.cli import main

raise SystemExit(main())
