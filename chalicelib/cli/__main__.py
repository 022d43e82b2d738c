import sys

from chalicelib.cli.main import main

sys.exit(main())
