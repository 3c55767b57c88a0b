"""Create .venv and install gamelog into it, once, even when two `make` runs start together.

`make serve` and `make test` on a fresh clone both need the virtual environment;
run at the same moment, two pip installs into one folder would race. This takes
an exclusive lock on a file beside the venv, then does the work only if the
venv is missing or older than pyproject.toml, so the second run waits for the
first and then finds nothing to do.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
STAMP = VENV / ".installed"
PROJECT = ROOT / "pyproject.toml"


def up_to_date() -> bool:
    return STAMP.exists() and STAMP.stat().st_mtime >= PROJECT.stat().st_mtime


def main() -> int:
    with (ROOT / ".setup.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if up_to_date():
            return 0
        print("setting up .venv (once; about a minute)", flush=True)
        python = str(VENV / "bin" / "python")
        if not Path(python).exists():
            venv.EnvBuilder(with_pip=True).create(VENV)
        pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        # setuptools warns about editable installs in general; nothing to act on.
        quiet = {**os.environ, "PYTHONWARNINGS": "ignore"}
        subprocess.run([*pip, "--upgrade", "pip"], check=True, env=quiet)
        subprocess.run([*pip, "-e", f"{ROOT}[dev]"], check=True, env=quiet)
        STAMP.touch()
    return 0


if __name__ == "__main__":
    sys.exit(main())
