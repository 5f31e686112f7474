"""A fresh interpreter, and the packages that an engine must never load."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What an engine module must never load, directly or not.
WEB_PACKAGES = {
    "flask",
    "flask_babel",
    "flask_sqlalchemy",
    "jinja2",
    "sqlalchemy",
    "weasyprint",
    "werkzeug",
    "wtforms",
}


def run_python(code: str, *flags: str) -> str:
    """Run code in a fresh interpreter from the repository root; return its stdout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, *flags, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()
