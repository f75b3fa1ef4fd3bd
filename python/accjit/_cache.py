"""The compile caches from Python: `cache_info()` and `cache_clear()`.

accjit keeps compiled programs in an in-process LRU (see `cache_stats()`,
`clear_cache()`) and in an on-disk cache shared by every process
(`ACCJIT_CACHE_DIR`, size limit `ACCJIT_CACHE_MAX_MB`, off with
`ACCJIT_CACHE=0`): each program's native code and PTX (`prog-<hash>.bin`)
and the cubins the CUDA driver compiled (`cuda-<hash>.bin`). These
functions report and empty the disk cache; they are what `accjit cache
info` and `accjit cache clear` print.
"""

from __future__ import annotations

from . import _core

__all__ = ["cache_info", "cache_clear"]


def cache_info() -> dict:
    """The on-disk kernel cache and the in-process cache.

    Returns `{"dir", "exists", "entries", "bytes", "max_bytes", "memory"}`:
    the directory (`ACCJIT_CACHE_DIR`, else `$XDG_CACHE_HOME/accjit`, else
    `~/.cache/accjit`), whether it exists yet, the cache entries in it and
    their total size in bytes, the size limit in bytes
    (`ACCJIT_CACHE_MAX_MB`, default 1024 MiB), and `memory`: the in-process
    cache's statistics (`cache_stats()`).

    >>> import accjit as acc
    >>> info = acc.cache_info()
    >>> sorted(info)
    ['bytes', 'dir', 'entries', 'exists', 'max_bytes', 'memory']
    """
    info = dict(_core.disk_cache_info())
    info["memory"] = _core.cache_stats()
    return info


def cache_clear() -> dict:
    """Remove the on-disk cache's entries; returns `{"entries", "bytes"}` removed.

    Only accjit's own files go: entries (named `cuda-<hash>.bin` or
    `prog-<hash>.bin` and starting with the cache's header) and temporary
    files abandoned by a writer. Anything else in the directory, and the directory, stay. The
    in-process cache is untouched (`clear_cache()` empties it).

    >>> import accjit as acc
    >>> removed = acc.cache_clear()
    >>> acc.cache_info()["entries"]
    0
    """
    return dict(_core.disk_cache_clear())
