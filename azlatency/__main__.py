"""``python -m azlatency ...``: the command line, as ``azlatency ...``."""

from .cli import main

main(prog_name="azlatency")
