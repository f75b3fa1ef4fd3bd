#!/usr/bin/env bash
# Implementation of ./run (see there). Environment:
#   PYTHON     interpreter used to create .venv (default: python3)
#   ACCJIT_VENV  venv location (default: .venv)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
VENV="${ACCJIT_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"

log() { printf '[accjit] %s\n' "$*"; }

setup_venv() {
    if [ ! -x "$PY" ]; then
        log "creating $VENV"
        "${PYTHON:-python3}" -m venv "$VENV"
    fi
    local need=()
    "$PY" -c "import numpy" 2>/dev/null || need+=(numpy)
    [ -x "$VENV/bin/maturin" ] || need+=("maturin>=1.16,<2")
    for extra in "$@"; do
        "$PY" -c "import $extra" 2>/dev/null || need+=("$extra")
    done
    if [ ${#need[@]} -gt 0 ]; then
        log "pip install ${need[*]}"
        "$PY" -m pip install --disable-pip-version-check -q "${need[@]}"
    fi
}

build() {
    log "building accjit (release) into $VENV"
    # maturin develop needs an active venv
    VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH" "$VENV/bin/maturin" develop --release --quiet
    "$PY" -c "import accjit" || { log "build failed: accjit does not import"; exit 1; }
}

# ptxas (pip's nvidia-cuda-nvcc-cu12) into the venv, for the test that
# assembles the PTX of the conformance corpus (rust/back/ptx/tests/ptxas.rs
# finds it there); without it that test is skipped, not failed.
setup_ptxas() {
    if ! ls "$VENV"/lib/python*/site-packages/nvidia/cuda_nvcc/bin/ptxas >/dev/null 2>&1; then
        log "pip install nvidia-cuda-nvcc-cu12 (ptxas)"
        "$PY" -m pip install --disable-pip-version-check -q nvidia-cuda-nvcc-cu12 || log "ptxas could not be installed: PTX assembly checks will be skipped"
    fi
}

# The lint gate: one format (rustfmt.toml) and no clippy warnings, in every
# target of every crate. Installs the two rustup components when missing.
lint() {
    if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
        log "rustup component add rustfmt clippy"
        rustup component add rustfmt clippy
    fi
    log "cargo fmt --all --check"
    cargo fmt --all --check || return 1
    log "cargo clippy --workspace --all-targets -- -D warnings"
    cargo clippy --workspace --all-targets --quiet -- -D warnings || return 1
}

# The docs site's tools (mkdocs, mkdocstrings with its Python handler, ruff to lay out the
# signatures) into the venv; the site reads the package statically (griffe), so it needs no
# build of the extension.
DOCS_PACKAGES=("mkdocs>=1.6,<2" "mkdocstrings>=1.0,<2" "mkdocstrings-python>=2.0,<3" "ruff")
setup_docs() {
    if ! "$PY" -c "import mkdocs, mkdocstrings, mkdocstrings_handlers.python, ruff" 2>/dev/null; then
        log "pip install ${DOCS_PACKAGES[*]}"
        "$PY" -m pip install --disable-pip-version-check -q "${DOCS_PACKAGES[@]}"
    fi
}

# Builds the site into site/ with warnings as errors (mkdocs.yml sets strict too).
docs_build() {
    log "mkdocs build --strict (site/)"
    "$VENV/bin/mkdocs" build --strict "$@"  # not --quiet: it hides the warnings strict counts
}

cmd="${1:-help}"
shift || true
case "$cmd" in
    build)
        setup_venv
        build
        ;;
    demo)
        setup_venv
        build
        "$PY" -m accjit.demo "$@"
        ;;
    test)
        setup_venv pytest pandas matplotlib nbclient ipykernel nbformat mypy
        setup_ptxas
        build
        # Both suites always run (a Rust failure must not hide the Python
        # results); the exit status is non-zero if either failed.
        status=0
        lint || status=1
        log "cargo test --workspace"
        cargo test --workspace --no-fail-fast "$@" || status=1
        log "pytest tests"
        "$PY" -m pytest -q tests || status=1
        setup_docs
        docs_build || status=1
        [ "$status" = 0 ] && log "all tests passed" || log "some tests FAILED (see above)"
        exit "$status"
        ;;
    lint)
        lint
        ;;
    docs)
        setup_venv
        setup_docs
        docs_build "$@"
        log "site built: site/index.html (serve it while editing: $VENV/bin/mkdocs serve)"
        ;;
    bench)
        setup_venv
        "$PY" -c "import numba" 2>/dev/null || "$PY" -m pip install --disable-pip-version-check -q numba \
            || log "numba could not be installed; its columns will be skipped"
        build
        "$PY" benchmarks/bench_multicore.py "$@"
        ;;
    help|-h|--help)
        sed -n '2,/^[^#]/{/^#/p}' "$ROOT/run" | sed 's/^# \{0,1\}//'
        ;;
    *)
        log "unknown command '$cmd'"
        sed -n '2,/^[^#]/{/^#/p}' "$ROOT/run" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
