"""A disk that is really full: a small tmpfs of the test's own, filled to its last byte and freed again.

Mounting needs the right to (root, as the test command runs to install its browser and databases). Where
the machine refuses it, ``FullDisk.mounted`` is False and the tests that need a full disk skip, saying why:
nothing else fills a disk for real without filling the machine's own.
"""

from __future__ import annotations

import errno
import subprocess
from pathlib import Path

CHUNKS = (1 << 20, 1 << 16, 1 << 12, 1 << 8, 1)  # filled with big writes, then ever smaller ones to the last byte


class FullDisk:
    def __init__(self, path: Path, megabytes: int = 16):
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m,mode=0777", "tmpfs", str(path)],
                              capture_output=True, text=True, check=False)
        self.mounted = done.returncode == 0
        self.why = done.stderr.strip() or "mount refused"
        self.filler = path / "filler"

    def fill(self) -> None:
        """Write until the filesystem has not one byte left."""
        with self.filler.open("ab", buffering=0) as out:
            for size in CHUNKS:
                block = b"\0" * size
                while True:
                    try:
                        out.write(block)
                    except OSError as err:
                        if err.errno != errno.ENOSPC:
                            raise
                        break

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def close(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True, check=False)
