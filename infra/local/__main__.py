"""`python -m infra.local run` (make run) and `python -m infra.local cli ...` (make token): the
administrator CLI pointed at the running local stack."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from infra.local.env import DATA_SETS, dev_dir, local_environment


def main(argv: list[str]) -> int:
    port = int(os.environ.get("PORT", "8000"))
    ddb_port = int(os.environ.get("DDB_PORT", "8001"))
    data = os.environ.get("DATA") or "samples"
    if data not in DATA_SETS:
        print(f"DATA is one of {', '.join(DATA_SETS)}, not {data!r}", file=sys.stderr)
        return 2
    if argv[:1] == ["run"]:
        from infra.local.stack import run

        return run(port, ddb_port, Path(os.environ.get("DEV_DIR") or dev_dir(data)), data)
    if argv[:1] == ["cli"]:
        os.environ.update(local_environment(f"http://127.0.0.1:{ddb_port}"))
        from chalicelib.cli.main import main as cli_main

        return cli_main(argv[1:])
    print("usage: python -m infra.local run | cli <administrator command>", file=sys.stderr)
    return 2


if __name__ == "__main__":  # the sync's spawned workers import this module as __mp_main__
    sys.exit(main(sys.argv[1:]))
