"""A Parquet part read from disk as a bucket's ranged GETs would read it: its reads counted, and
(given `breaks_after`) the connection lost after that many reads. A fake of the outside world."""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO, Any, cast


class PartFile(io.RawIOBase):
    def __init__(self, path: Path, breaks_after: int | None = None) -> None:
        super().__init__()
        self._file = path.open("rb")
        self._breaks_after = breaks_after
        self.reads = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()

    def readinto(self, buffer: Any) -> int:
        self.reads += 1
        if self._breaks_after is not None and self.reads > self._breaks_after:
            raise ConnectionResetError("the connection was lost")
        return self._file.readinto(buffer)

    def close(self) -> None:
        self._file.close()
        super().close()

    def opened(self) -> IO[bytes]:
        """As the readers take it (a binary file)."""
        return cast(IO[bytes], self)
