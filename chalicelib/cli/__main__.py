import sys

from chalicelib.cli.main import main

if __name__ == "__main__":  # the sync's spawned workers import this module as __mp_main__
    sys.exit(main())
