"""The OpenACC data API on NumPy arrays (docs/data-environment.md).

Every routine takes a NumPy array — a whole array, a slice/view, a 2-D array
in C or Fortran order — whose host range is its data pointer and ``nbytes``.
The range must be contiguous: a strided view is refused with a hint to map a
contiguous copy instead. The routines are the spec's ``acc_*`` routines on
that range, with the same reference counting and the same errors, raised as
``acc.AccError`` subclasses carrying ``code``, ``var`` (the ``name=`` given or
a description such as ``float64[1000] at 0x…``), ``host_range`` and ``loc``
(the Python ``file:line`` of the call).

Async variants take ``async_=`` (a queue number, or -1 for ``acc_async_noval``);
keep the arrays alive until ``acc.wait()``.
"""

from __future__ import annotations

import sys
from typing import Iterable, Mapping, Union

from . import _core

_api = _core.data_api

__all__ = [
    "copyin",
    "create",
    "copyout",
    "delete",
    "update_device",
    "update_self",
    "is_present",
    "deviceptr",
    "device_view",
    "hostptr",
    "ref_counts",
    "present_table",
    "attach",
    "detach",
    "attach_count",
    "map_data",
    "unmap_data",
    "malloc",
    "free",
    "memcpy_to_device",
    "memcpy_from_device",
    "memcpy_device",
    "wait",
    "wait_any",
    "async_test",
    "get_default_async",
    "set_default_async",
    "set_device_num",
    "get_device_num",
    "get_property",
    "data",
]

copyin = _api.copyin
create = _api.create
copyout = _api.copyout
delete = _api.delete
update_device = _api.update_device
update_self = _api.update_self
is_present = _api.is_present
deviceptr = _api.deviceptr


def device_view(x):
    """The device copy of the present NumPy array ``x`` as a zero-copy view for
    CuPy, PyTorch or Numba (nvidia device): the view has
    ``__cuda_array_interface__`` (v3) and ``__dlpack__``/``__dlpack_device__``,
    so ``cupy.asarray(v)``, ``torch.from_dlpack(v)`` and
    ``numba.cuda.as_cuda_array(v)`` see the same device memory the kernels use.
    The view keeps ``x`` alive and is valid while ``x`` stays present.
    """
    return _core.DeviceView(x)

hostptr = _api.hostptr
ref_counts = _api.ref_counts
present_table = _api.present_table
attach = _api.attach
detach = _api.detach
attach_count = _api.attach_count
map_data = _api.map_data
unmap_data = _api.unmap_data
malloc = _api.malloc
free = _api.free
memcpy_to_device = _api.memcpy_to_device
memcpy_from_device = _api.memcpy_from_device
memcpy_device = _api.memcpy_device
wait = _api.wait
wait_any = _api.wait_any
async_test = _api.async_test
get_default_async = _api.get_default_async
set_default_async = _api.set_default_async
set_device_num = _api.set_device_num
get_device_num = _api.get_device_num
get_property = _api.get_property

_CLAUSES = ("copy", "copyin", "copyout", "create", "present", "no_create")

Arrays = Union[Iterable, Mapping]


def _named(kind: str, arrays) -> list:
    """[(name or None, array)] from a list of arrays or a {name: array} dict."""
    if arrays is None:
        return []
    if isinstance(arrays, Mapping):
        return [(str(k), v) for k, v in arrays.items()]
    if hasattr(arrays, "__array_interface__"):
        raise TypeError(f"data({kind}=...) takes a list of arrays (or a {{name: array}} dict); "
                        f"write {kind}=[a] for one array")
    return [(None, a) for a in arrays]


class data:
    """A structured data region over NumPy arrays, like ``#pragma acc data``::

        with acc.data(copyin=[a], copy={"b": b}, create=[tmp]):
            lib.step(n, a, b, tmp)          # kernels with present(...) clauses

    Each clause takes a list of arrays or a ``{name: array}`` dict (the name
    appears in errors and profiles). On entry every array gets its clause's
    entry action with the *structured* reference count (copy/copyin: copy
    in; copyout/create: allocate; present: must already be present, else
    ``acc.NotPresentError``; no_create: nothing when absent). On exit, also
    after an exception, the exit actions run in reverse order (copy/copyout:
    copy back when the last reference goes). Regions nest, and a region keeps
    its arrays present even across ``acc.delete(..., finalize=True)``.
    """

    def __init__(self, copy: Arrays = (), copyin: Arrays = (), copyout: Arrays = (), create: Arrays = (),
                 present: Arrays = (), no_create: Arrays = ()):
        given = {"copy": copy, "copyin": copyin, "copyout": copyout, "create": create,
                 "present": present, "no_create": no_create}
        self._items = [(kind, name, a) for kind in _CLAUSES for name, a in _named(kind, given[kind])]
        self._entered: list = []
        self._loc = None

    def __enter__(self):
        if self._entered:
            raise RuntimeError("this acc.data region is already active; create a new acc.data(...) to nest")
        f = sys._getframe(1)
        self._loc = f"{f.f_code.co_filename.rsplit('/', 1)[-1]}:{f.f_lineno}"
        try:
            for kind, name, a in self._items:
                _api.region_enter(kind, a, name, self._loc)
                self._entered.append((kind, name, a))
        except BaseException:
            self._unwind()
            raise
        return self

    def __exit__(self, *exc):
        errors = self._unwind()
        if errors and exc[0] is None:
            raise errors[0]
        return False

    def _unwind(self) -> list:
        errors = []
        while self._entered:
            kind, name, a = self._entered.pop()
            try:
                _api.region_exit(kind, a, name, self._loc)
            except Exception as e:  # keep releasing the other arrays
                errors.append(e)
        return errors

    def __repr__(self):
        parts = [f"{k}={n or type(a).__name__}" for k, n, a in self._items]
        return f"acc.data({', '.join(parts)})"
