"""`accjit info`, `accjit cache info|clear` and `acc.cache_info()` /
`acc.cache_clear()`: the on-disk kernel cache (rust/runtime/src/cuda/cache.rs)
as the user sees it.

The CPU devices store nothing on disk, so the entries here are written by
the cache's own writer (`_core._disk_cache_store`, what a GPU run stores)
into a temporary ACCJIT_CACHE_DIR.
"""

import os
import re

import pytest

import accjit as acc
from accjit import _core


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "kcache"
    monkeypatch.setenv("ACCJIT_CACHE_DIR", str(d))
    monkeypatch.delenv("ACCJIT_CACHE_MAX_MB", raising=False)
    monkeypatch.delenv("ACCJIT_CACHE", raising=False)  # ACCJIT_CACHE=0 would turn the cache under test off
    return d


def store(n_entries, sizes=None):
    """Stores n entries of the given payload sizes; returns their total file bytes."""
    sizes = sizes or [100 * (i + 1) for i in range(n_entries)]
    for i, n in enumerate(sizes):
        assert _core._disk_cache_store(f"kernel {i}", bytes([i % 256]) * n)
    return sizes


def entry_files(d):
    return sorted(p.name for p in d.iterdir() if re.fullmatch(r"cuda-[0-9a-f]{32}\.bin", p.name))


def test_python_api_counts_and_clears_only_its_own_files(cache_dir):
    info = acc.cache_info()
    assert info["dir"] == str(cache_dir)
    assert not info["exists"] and info["entries"] == 0 and info["bytes"] == 0
    assert info["max_bytes"] == 1024 << 20
    assert "compilations" in info["memory"]
    sizes = store(3, [10, 2000, 70_000])
    files = entry_files(cache_dir)
    assert len(files) == 3
    on_disk = sum((cache_dir / f).stat().st_size for f in files)
    assert on_disk > sum(sizes)  # each file has a header
    info = acc.cache_info()
    assert info["exists"] and info["entries"] == 3 and info["bytes"] == on_disk
    # Not the cache's: other names, and an entry's name without the header.
    (cache_dir / "notes.txt").write_text("mine")
    impostor = cache_dir / ("cuda-" + "0" * 32 + ".bin")
    impostor.write_bytes(b"not a cache file")
    removed = acc.cache_clear()
    assert removed == {"entries": 3, "bytes": on_disk}
    assert (cache_dir / "notes.txt").read_text() == "mine"
    assert impostor.exists()
    assert entry_files(cache_dir) == [impostor.name]
    impostor.unlink()
    assert acc.cache_info()["entries"] == 0
    # Stores work again after a clear.
    store(1)
    assert acc.cache_info()["entries"] == 1


def test_limit_follows_the_environment(cache_dir, monkeypatch):
    monkeypatch.setenv("ACCJIT_CACHE_MAX_MB", "3")
    assert acc.cache_info()["max_bytes"] == 3 << 20
    monkeypatch.setenv("ACCJIT_CACHE_MAX_MB", "0")
    assert acc.cache_info()["max_bytes"] == 0
    assert not _core._disk_cache_store("k", b"x"), "limit 0 stores nothing"
    assert acc.cache_info()["entries"] == 0


def test_cli_cache_info_and_clear(accjit_cli, cache_dir):
    env = {"ACCJIT_CACHE_DIR": str(cache_dir), "ACCJIT_CACHE_MAX_MB": "5"}
    r = accjit_cli("cache", "info", env=env)
    assert r.returncode == 0 and r.stderr == ""
    assert f"directory: {cache_dir} (not created yet)" in r.stdout
    assert "entries: 0\n" in r.stdout and "bytes: 0 " in r.stdout
    assert f"limit: {5 << 20} (5.0 MiB" in r.stdout
    # Clearing a directory that does not exist removes nothing and creates nothing.
    r = accjit_cli("cache", "clear", env=env)
    assert r.returncode == 0 and r.stdout.startswith("removed 0 entries")
    assert not cache_dir.exists()
    store(4)
    total = sum((cache_dir / f).stat().st_size for f in entry_files(cache_dir))
    r = accjit_cli("cache", "info", env=env)
    assert "entries: 4\n" in r.stdout and f"bytes: {total} " in r.stdout, r.stdout
    r = accjit_cli("cache", "clear", env=env)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith("removed 4 entries") and str(cache_dir) in r.stdout
    assert entry_files(cache_dir) == []
    r = accjit_cli("cache", env=env)
    assert r.returncode == 2 and "accjit cache" in r.stderr


def test_info_lists_every_device_type_with_devices_or_a_reason(accjit_cli, cache_dir):
    store(2)
    env = {"ACCJIT_CACHE_DIR": str(cache_dir)}
    r = accjit_cli("info", env=env)
    assert r.returncode == 0 and r.stderr == ""
    out = r.stdout
    assert out.startswith(f"accjit {acc.__version__} ({_core.ENGINE_VERSION})")
    sections = re.split(r"^  (host|multicore|nvidia|opencl)$", out, flags=re.M)
    found = dict(zip(sections[1::2], sections[2::2]))
    assert list(found) == ["host", "multicore", "nvidia", "opencl"], out
    assert re.search(r"^    0: .+, [0-9.]+ GiB memory$", found["host"], re.M), found["host"]
    assert f"({acc.get_num_threads()} threads)" in found["multicore"]
    nv = found["nvidia"]
    if acc.get_num_devices("nvidia") > 0:
        assert re.search(r"^    0: .+, [0-9.]+ GiB, compute capability \d+\.\d+, \d+ SMs$", nv, re.M), nv
    else:
        assert re.search(r"^    none: (libcuda\.so not found|libcuda\.so was found but|the CUDA driver reports no GPU)", nv, re.M), nv
    assert "none: the opencl back end is not built yet" in found["opencl"]
    assert f"threads: {acc.get_num_threads()} (CPU count {os.cpu_count()})" in out
    assert f"cache directory: {cache_dir}\n" in out
    assert re.search(r"^cache entries: 2 \(\d+ B; limit 1\.0 GiB", out, re.M), out


def test_cuda_devices_binding_never_fails_without_a_gpu():
    cuda = _core.cuda_devices()
    assert set(cuda) == {"available", "driver_version", "devices"}
    assert len(cuda["devices"]) == acc.get_num_devices("nvidia")
    if not cuda["available"]:
        assert cuda["devices"] == [] and cuda["driver_version"] == 0
