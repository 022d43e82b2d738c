"""`python -m infra.local run` (make run) and `python -m infra.local cli ...` (make token): the
administrator CLI pointed at the running local stack."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from infra.local.dynamodb_local import port_is_free
from infra.local.env import (
    DATA_SETS,
    DEFAULT_DDB_PORT,
    DEFAULT_PORT,
    dev_dir,
    local_environment,
    running_ddb_port,
)

NOT_RUNNING = (
    "start make run (in another terminal), or give the running stack's: DDB_PORT=<its DDB_PORT> make token"
)


def main(argv: list[str]) -> int:
    data = os.environ.get("DATA") or "samples"
    if data not in DATA_SETS:
        print(f"DATA is one of {', '.join(DATA_SETS)}, not {data!r}", file=sys.stderr)
        return 2
    dev = Path(os.environ.get("DEV_DIR") or dev_dir(data))
    if argv[:1] == ["run"]:
        from infra.local.stack import run

        port = int(os.environ.get("PORT") or DEFAULT_PORT)
        return run(port, int(os.environ.get("DDB_PORT") or DEFAULT_DDB_PORT), dev, data)
    if argv[:1] == ["cli"]:
        ddb_port = running_ddb_port(dev)
        endpoint = f"http://127.0.0.1:{ddb_port}"
        if port_is_free(ddb_port):  # nothing listens: say where we looked, not "try again shortly"
            print(f"error: no DynamoDB Local answers at {endpoint}: {NOT_RUNNING}", file=sys.stderr)
            return 1
        os.environ.update(local_environment(endpoint))
        from chalicelib.cli.main import main as cli_main

        return cli_main(argv[1:])
    print("usage: python -m infra.local run | cli <administrator command>", file=sys.stderr)
    return 2


if __name__ == "__main__":  # the sync's spawned workers import this module as __mp_main__
    sys.exit(main(sys.argv[1:]))
