"""Shared fixtures for the Python test suites (test_api, test_errors, test_cli)."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent

# The disk cache (compiled programs and cubins) of this test session: a
# fresh directory unless one is given, so that the suite neither reads nor
# fills the user's (subprocesses inherit it; tests that need their own set
# ACCJIT_CACHE_DIR themselves).
if not os.environ.get("ACCJIT_CACHE_DIR"):
    import tempfile

    os.environ["ACCJIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="accjit-test-cache-")


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture
def accjit_cli():
    """Run `python -m accjit ...` in a subprocess; returns CompletedProcess."""

    def run(*args, input=None, timeout=120, env=None):
        e = dict(os.environ)
        if env:
            e.update(env)
        return subprocess.run(
            [sys.executable, "-m", "accjit", *map(str, args)],
            capture_output=True,
            text=True,
            input=input,
            timeout=timeout,
            env=e,
        )

    return run


@pytest.fixture
def shared_dir():
    """`shared/` beside the repository (CI) or inside /work (developers); None if absent."""
    for cand in (ROOT.parent / "shared", ROOT / "shared", Path("/work/shared")):
        if (cand / "bench" / "kernels.c").exists():
            return cand
    return None
