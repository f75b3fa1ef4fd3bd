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
    "data",
]


def _missing(name):
    def f(*args, **kwargs):
        raise NotImplementedError(f"accjit.{name} is not available in this build of the runtime")

    f.__name__ = name
    return f


def _from_core(name):
    return getattr(_core, name, None) or _missing(name)


set_device_type = _core.set_device_type
get_device_type = _core.get_device_type
set_num_threads = _from_core("set_num_threads")
get_num_threads = _from_core("get_num_threads")
copyin = _from_core("copyin")
copyout = _from_core("copyout")
create = _from_core("create")
delete = _from_core("delete")
is_present = _from_core("is_present")
update_device = _from_core("update_device")
update_self = _from_core("update_self")


def device_types() -> list:
    """Device types this build can compile for."""
    return list(_core.DEVICE_TYPES)


@contextlib.contextmanager
def data(copy: Sequence = (), copyin: Sequence = (), copyout: Sequence = (), create: Sequence = (), present: Sequence = ()):
    """A structured data region over NumPy arrays, like `#pragma acc data`.

    On entry: copyin for `copy`/`copyin`, create for `copyout`/`create`, a
    presence check for `present`. On exit (also on an exception): copyout for
    `copy`/`copyout`, delete for `copyin`/`create`. Kernels called inside find
    the arrays present and move no data.
    """
    g = globals()
    entered = []  # (array, exit action)
    try:
        for a in copy:
            g["copyin"](a)
            entered.append((a, g["copyout"]))
        for a in copyin:
            g["copyin"](a)
            entered.append((a, g["delete"]))
        for a in copyout:
            g["create"](a)
            entered.append((a, g["copyout"]))
        for a in create:
            g["create"](a)
            entered.append((a, g["delete"]))
        for a in present:
            if not g["is_present"](a):
                raise AccError_not_present(a)
        yield
    finally:
        errors = []
        for a, action in reversed(entered):
            try:
                action(a)
            except Exception as e:  # keep unwinding the other arrays
                errors.append(e)
        if errors:
            raise errors[0]


def AccError_not_present(a):
    err = _core.AccError(f"data(present=...): array of {getattr(a, 'nbytes', '?')} bytes is not present on the device")
    err.code = 1
    err.code_name = "acc_error_not_present"
    err.var = None
    try:
        ptr = a.__array_interface__["data"][0]
        err.host_range = (ptr, ptr + a.nbytes)
    except Exception:
        err.host_range = None
    return err
