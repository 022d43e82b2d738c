"""The Chalice app inside the stack: Chalice's own CDK construct packages the app (`chalice
package`) and includes its SAM template. A stub package (the app's code without its third-party
requirements, so no pip run) gives the same template in seconds: what tests and `make synth`
use; `make package` and `make deploy` build the real one."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from chalice import api
from chalice.cdk import Chalice
from constructs import Construct

PROJECT_DIR = Path(__file__).resolve().parents[2]
_APP_FILES = ("app.py", "chalicelib", ".chalice/config.json")


class ChaliceApp(Chalice):
    def __init__(
        self, scope: Construct, construct_id: str, *, stage_config: dict[str, Any], stub: bool
    ) -> None:
        self._stub = stub
        super().__init__(scope, construct_id, source_dir=str(PROJECT_DIR), stage_config=stage_config)

    def _package_app(self) -> None:
        with _some_region():
            if not self._stub:
                super()._package_app()
                return
            self._package_stub()

    def _package_stub(self) -> None:
        with tempfile.TemporaryDirectory(prefix="ags-stub-") as project:
            for name in _APP_FILES:
                source, target = PROJECT_DIR / name, Path(project) / name
                target.parent.mkdir(parents=True, exist_ok=True)
                if source.is_dir():
                    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    shutil.copy2(source, target)
            api.package_app(project, self._sam_package_dir, self.stage_name, self.stage_config)


@contextmanager
def _some_region() -> Iterator[None]:
    """`chalice package` builds AWS clients it never calls, and they need a region; the template
    itself is region-agnostic."""
    had = os.environ.get("AWS_DEFAULT_REGION")
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    try:
        yield
    finally:
        if had is None:
            os.environ.pop("AWS_DEFAULT_REGION", None)


# `make package`: the role is the stack's (service.py overrides it per function); the packager
# only needs to be told Chalice does not manage one.
_PACKAGE_ONLY = {"manage_iam_role": False, "iam_role_arn": "arn:aws:iam::000000000000:role/set-by-the-stack"}


def main(argv: list[str]) -> int:
    """`python -m infra.aws.package STAGE OUT_DIR`: the real deployment package, then its size."""
    from infra.aws import package_size

    stage, out_dir = argv
    with _some_region():
        api.package_app(str(PROJECT_DIR), out_dir, stage, dict(_PACKAGE_ONLY))
    return package_size.main([str(Path(out_dir) / "deployment.zip")])


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
