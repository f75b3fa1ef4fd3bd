"""The OpenACC runtime from Python: device type, threads, and the data API on
NumPy arrays (address range = the array's data pointer and nbytes; arrays must
be contiguous)."""

from __future__ import annotations

import contextlib
from typing import Sequence

from . import _core

__all__ = [
    "set_device_type",
    "get_device_type",
    "set_num_threads",
    "get_num_threads",
    "device_types",
    "copyin",
    "copyout",
    "create",
    "delete",
    "is_present",
    "update_device",
    "update_self",
    "deviceptr",
    "ref_counts",
    "get_num_devices",
    "wait",
    "async_test",
    "data",
]


from ._core import (  # noqa: E402,F401
    async_test,
    copyin,
    copyout,
    create,
    delete,
    deviceptr,
    get_device_type,
    get_num_devices,
    get_num_threads,
    is_present,
    ref_counts,
    set_device_type,
    set_num_threads,
    update_device,
    update_self,
    wait,
)


def device_types() -> list:
    """Device types this build can compile for."""
    return list(_core.DEVICE_TYPES)


@contextlib.contextmanager
def data(copy: Sequence = (), copyin: Sequence = (), copyout: Sequence = (), create: Sequence = (),
         present: Sequence = (), no_create: Sequence = ()):
    """A structured data region over NumPy arrays, like `#pragma acc data`.

    Each array gets its clause's entry action on entry (copy/copyin: copy in,
    copyout/create: allocate, present: must already be present) with the
    *structured* reference count, and the matching exit action (copy/copyout:
    copy back; then release) when the block ends, also on an exception.
    Kernels called inside find the arrays present and move no data.
    """
    entered = []
    try:
        for kind, arrays in (("copy", copy), ("copyin", copyin), ("copyout", copyout), ("create", create),
                             ("present", present), ("no_create", no_create)):
            for i, a in enumerate(arrays):
                name = f"{kind}[{i}]"
                _core.data_enter(kind, a, name)
                entered.append((kind, a, name))
        yield
    finally:
        errors = []
        for kind, a, name in reversed(entered):
            try:
                _core.data_exit(kind, a, name)
            except Exception as e:  # keep unwinding the other arrays
                errors.append(e)
        if errors:
            raise errors[0]
