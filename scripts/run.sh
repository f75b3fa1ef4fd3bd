#!/usr/bin/env bash
# Implementation of ./run (see there). Environment:
#   PYTHON     interpreter used to create .venv (default: python3)
#   ACCJIT_VENV  venv location (default: .venv)
#   ACCJIT_BUILD how `test` builds the extension: `develop` (default: maturin
#                develop, editable, incremental) or `wheel` (CI: the
#                manylinux wheel of `./run wheel`, installed into the venv,
#                then the smoke test of that wheel in a clean venv)
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

# The wheel users install: abi3 (one wheel for every CPython >= 3.9),
# manylinux_2_28 (glibc >= 2.28: RHEL/Rocky 8 and newer), linked with zig's
# cc against glibc 2.28's symbols (maturin --zig; pip's ziglang package, so
# no system toolchain beyond Rust). `auditwheel show` must confirm the tag;
# the extension may need only libc/libm/libpthread/libdl (libcuda is
# dlopen'ed at run time by cudarc, never linked). Cargo builds it in
# target/x86_64-unknown-linux-gnu/ (maturin passes the target triple to
# zig), apart from `maturin develop`'s target/release/: the two builds do
# not share artifacts, which is why CI (ACCJIT_BUILD=wheel) builds only this
# one and installs it for the tests too.
WHEEL_TAG=manylinux_2_28
wheel_build() {
    setup_venv ziglang auditwheel
    mkdir -p dist
    rm -f dist/accjit-*.whl
    log "maturin build --release --zig --compatibility $WHEEL_TAG (dist/)"
    VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH" "$VENV/bin/maturin" build --release --zig --compatibility "$WHEEL_TAG" --out dist --quiet || return 1
    local whl
    whl="$(ls dist/accjit-*.whl)" || return 1
    local shown
    shown="$("$VENV/bin/auditwheel" show "$whl")" || return 1
    printf '%s\n' "$shown"
    case "$whl" in *-abi3-*) ;; *) log "wheel check failed: $whl is not an abi3 wheel"; return 1 ;; esac
    tr '\n' ' ' <<<"$shown" | grep -q "consistent with *the following platform tag: *\"${WHEEL_TAG}_x86_64\"" \
        || { log "wheel check failed: auditwheel does not confirm $WHEEL_TAG"; return 1; }
    # DT_NEEDED of the extension (pyelftools comes with auditwheel).
    local needed
    needed="$("$PY" - "$whl" <<'PYEOF'
import io, sys, zipfile
from elftools.elf.elffile import ELFFile
with zipfile.ZipFile(sys.argv[1]) as z:
    so = next(n for n in z.namelist() if n.startswith("accjit/_core") and n.endswith(".so"))
    elf = ELFFile(io.BytesIO(z.read(so)))
print(" ".join(t.needed for t in elf.get_section_by_name(".dynamic").iter_tags() if t.entry.d_tag == "DT_NEEDED"))
PYEOF
)" || return 1
    log "the extension links: $needed"
    for lib in $needed; do
        case "$lib" in libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|ld-linux-x86-64.so.*|librt.so.*|libgcc_s.so.*) ;;
            *) log "wheel check failed: _core links $lib (only the C library may be linked)"; return 1 ;;
        esac
    done
    log "wheel: $whl"
}

# Installs dist/'s wheel into the venv (not editable) for the test suites:
# the one release build of CI. The extension is also copied beside the
# sources in python/accjit/, where tests that run a child with python/ on
# PYTHONPATH (a source checkout's way) find the very same binary.
wheel_install() {
    local whl
    whl="$(ls dist/accjit-*.whl)" || return 1
    log "pip install $whl into $VENV"
    "$PY" -m pip install --disable-pip-version-check -q --force-reinstall --no-deps "$whl" || return 1
    rm -f python/accjit/_core*.so
    local so
    so="$(cd /tmp && "$PY" -c 'import accjit._core as c; print(c.__file__)')"
    case "$so" in "$ROOT"/python/*) log "wheel install failed: accjit still imports from the source tree"; return 1 ;; esac
    cp "$so" python/accjit/ || return 1
}

# The smoke test of a wheel as a user installs it: a fresh venv in a temp
# dir, `pip install` of the wheel (numpy from the index), then
# scripts/wheel_smoke.py copied out of the tree and run from that dir with
# a PATH of the venv and the system directories that have no cargo/rustc,
# and nothing else of this environment (no PYTHONPATH, no VIRTUAL_ENV).
wheel_smoke() {
    local whl=""
    if [ $# -gt 0 ] && [ -f "$1" ]; then
        whl="$1"
        shift
    fi
    [ -n "$whl" ] || whl="$(ls dist/accjit-*.whl 2>/dev/null || true)"
    [ -f "$whl" ] || { log "no wheel: run ./run wheel first (or name one)"; return 1; }
    whl="$(cd "$(dirname "$whl")" && pwd)/$(basename "$whl")"
    local tmp
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/accjit-wheel-smoke.XXXXXX")"
    log "wheel smoke: fresh venv in $tmp"
    "${PYTHON:-python3}" -m venv "$tmp/venv"
    "$tmp/venv/bin/python" -m pip install --disable-pip-version-check -q "$whl" || { rm -rf "$tmp"; return 1; }
    cp scripts/wheel_smoke.py "$tmp/"
    local path="$tmp/venv/bin" dir
    for dir in /usr/local/bin /usr/bin /bin; do
        [ -x "$dir/cargo" ] || [ -x "$dir/rustc" ] || path="$path:$dir"
    done
    local status=0
    (cd "$tmp" && env -i HOME="$HOME" PATH="$path" LANG=C.UTF-8 TMPDIR="${TMPDIR:-/tmp}" \
        ACCJIT_CACHE_DIR="$tmp/cache" "$tmp/venv/bin/python" wheel_smoke.py "$@") || status=1
    rm -rf "$tmp"
    return "$status"
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
        case "${ACCJIT_BUILD:-develop}" in
            develop) build ;;
            wheel) wheel_build && wheel_install || exit 1 ;;
            *) log "ACCJIT_BUILD=${ACCJIT_BUILD} (expected develop or wheel)"; exit 2 ;;
        esac
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
        if [ "${ACCJIT_BUILD:-develop}" = wheel ]; then
            wheel_smoke || status=1
        else
            log "wheel smoke test skipped (ACCJIT_BUILD=wheel runs it, as CI does; or ./run wheel && ./run wheel-smoke)"
        fi
        [ "$status" = 0 ] && log "all tests passed" || log "some tests FAILED (see above)"
        exit "$status"
        ;;
    lint)
        lint
        ;;
    wheel)
        setup_venv
        wheel_build
        ;;
    wheel-smoke)
        wheel_smoke "$@"
        ;;
    sdist)
        setup_venv
        log "maturin sdist (dist/)"
        "$VENV/bin/maturin" sdist --out dist
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
