"""`acc.c(...)`: compile C source and expose its functions as Python callables."""

from __future__ import annotations

import os
from typing import Iterable, Mapping, Optional, Sequence, Union

from . import _core

Defines = Union[None, Mapping[str, object], Iterable[Union[str, tuple]]]


def _normalize_defines(defines: Defines) -> list:
    """Accept {"N": 4, "DEBUG": None}, ["N=4", "DEBUG"] or [("N", "4")]."""
    if defines is None:
        return []
    out = []
    items = defines.items() if isinstance(defines, Mapping) else defines
    for d in items:
        if isinstance(d, str):
            name, eq, value = d.partition("=")
            out.append((name, value if eq else None))
        else:
            name, value = d
            if value is True:
                value = "1"
            elif value is False:
                value = "0"
            out.append((str(name), None if value is None else str(value)))
    return out


class CFunction(_core.Function):
    """A C function of a compiled module. Call it like the C function:
    pointer parameters take NumPy arrays of the exact element type (or None),
    scalar parameters take Python numbers.

    The call itself is `_core.Function.__call__` (no Python frame on the way
    to the native call); keyword arguments go through `_bind`."""

    def __init__(self, module: "_core.Module", info: dict):
        self._module = module
        self.__name__ = info["name"]
        self.__qualname__ = info["name"]
        self.signature = info["signature"]
        self.params = info["params"]
        self.ret = info["ret"]
        lines = [self.signature, ""]
        for p in self.params:
            if p["kind"] == "pointer":
                want = f"NumPy {p['dtype']} array" if p["dtype"] else "NumPy array"
                ro = "" if p["const"] else ", writeable"
                lines.append(f"  {p['name']}: {want} (C-contiguous{ro}) or None")
            else:
                lines.append(f"  {p['name']}: Python {p['kind']}")
        lines.append(f"  returns: {self.ret}")
        self.__doc__ = "\n".join(lines)

    def _bind(self, args, kwargs):
        names = [p["name"] for p in self.params]
        bound = list(args) + [_MISSING] * (len(names) - len(args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{self.__name__}() got an unexpected keyword argument '{k}': {self.signature}")
            i = names.index(k)
            if i < len(args):
                raise TypeError(f"{self.__name__}() got multiple values for argument '{k}'")
            bound[i] = v
        missing = [n for n, v in zip(names, bound) if v is _MISSING]
        if missing:
            raise TypeError(f"{self.__name__}() missing argument(s) {', '.join(missing)}: {self.signature}")
        return tuple(bound)

    def __repr__(self):
        return f"<accjit function {self.signature}>"


_MISSING = object()


class CModule:
    """A compiled C source, as `c` and `compile_file` return it.

    Its exported functions are attributes (``lib.saxpy``) and items
    (``lib["saxpy"]``), each a `CFunction`; ``"saxpy" in lib`` tests for one.
    """

    def __init__(self, core_module: "_core.Module"):
        self._core = core_module
        self._functions = {f["name"]: CFunction(core_module, f) for f in core_module.functions()}
        # Plain instance attributes, so that `lib.f(...)` finds the function
        # without calling `__getattr__` (a Python call per access); names the
        # class or the instance already use stay reachable through it.
        for name, fn in self._functions.items():
            if not hasattr(type(self), name) and name not in self.__dict__:
                self.__dict__[name] = fn

    def __getattr__(self, name: str):
        try:
            return self.__dict__["_functions"][name]
        except KeyError:
            raise AttributeError(f"compiled module has no function '{name}' (functions: {', '.join(self.__dict__.get('_functions', {}))})") from None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._functions))

    def __getitem__(self, name: str) -> CFunction:
        return self._functions[name]

    def __contains__(self, name: str) -> bool:
        return name in self._functions

    @property
    def functions(self) -> dict:
        """Name → CFunction."""
        return dict(self._functions)

    @property
    def from_cache(self) -> bool:
        """True when this module came from the in-process cache."""
        return self._core.from_cache

    def report(self) -> "Report":
        """The compile report: each compute region with its data clauses
        (implicit ones with why), each loop with the levels it runs on and
        why, compile times. ``str()`` is text like ``-Minfo=accel``; in a
        notebook it renders as HTML tables (``accjit._report.Report``)."""
        from ._report import Report

        return Report(self._core.report())

    @property
    def timings(self) -> dict:
        """Seconds spent in each compiler stage: parse, lower, codegen, total."""
        return self._core.timings()

    @property
    def kernel_count(self) -> int:
        """Number of compute regions outlined as kernels."""
        return self._core.kernel_count

    @property
    def device_type(self) -> str:
        """The device type the module was compiled for (``multicore``, ``host``, ``nvidia``)."""
        return self._core.device_type

    def clif(self) -> str:
        """CLIF of every function (compile with keep_clif=True)."""
        return self._core.clif()

    def ir(self) -> str:
        """The lowered IR as text."""
        return self._core.ir()

    def ptx(self) -> str:
        """The PTX the nvidia back end makes of this module's kernels (as
        lowered for the module's device type; `accjit ptx prog.c` lowers for
        the nvidia device). No GPU is needed. Raises CompileError when a
        kernel uses something the nvidia back end does not support yet."""
        return self._core.ptx()

    def run_main(self, argv: Sequence[str] = ("prog",)) -> int:
        """Run the program's main(argc, argv) and return its status."""
        return self._core.run_main([str(a) for a in argv])

    def __repr__(self):
        return f"<accjit.CModule [{self.device_type}] {', '.join(self._functions)}>"


def c(
    source: str,
    *,
    defines: Defines = None,
    undefines: Optional[Sequence[str]] = None,
    include_dirs: Optional[Sequence[Union[str, os.PathLike]]] = None,
    device_type: Optional[str] = None,
    name: str = "<source>",
    keep_clif: bool = False,
) -> CModule:
    """Compile OpenACC C `source` and return a `CModule` of its functions.

    - ``defines``: macros as ``{"N": 64, "DEBUG": None}``, ``["N=64", "DEBUG"]``
      or ``[("N", "64")]`` (``-D``); ``undefines``: names to ``#undef`` (``-U``).
    - ``include_dirs``: directories searched by ``#include`` (``-I``); the
      headers of libc, libm and ``openacc.h`` are bundled.
    - ``device_type``: ``"multicore"``, ``"host"`` or ``"nvidia"``; by default
      the current one (``acc.get_device_type()``, ``ACC_DEVICE_TYPE``).
    - ``name``: the file name errors and profiles show.
    - ``keep_clif``: keep the Cranelift IR for ``CModule.clif()``.

    Compiling the same source with the same options again returns the cached
    module (in-process LRU, 64 entries; the key also covers every header the
    compile read). Raises `CompileError` on bad input, with the file, line
    and column of the first error and ``.rendered`` showing every error with
    its source line.
    """
    core = _core.compile_c(
        source,
        name=name,
        device_type=device_type,
        defines=_normalize_defines(defines),
        undefines=list(undefines or []),
        include_dirs=[os.fspath(d) for d in (include_dirs or [])],
        keep_clif=keep_clif,
    )
    return CModule(core)


def compile_file(path: Union[str, os.PathLike], **kwargs) -> CModule:
    """Compile the C file at ``path`` (its directory is searched for
    ``#include "..."``); keywords as for `c`, errors name the file."""
    path = os.fspath(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return c(text, name=path, **kwargs)


def cache_stats() -> dict:
    """{hits, misses, stale, compilations, entries, capacity} of the compile cache."""
    return _core.cache_stats()


def clear_cache() -> None:
    """Empty the compile cache (modules already returned keep working)."""
    _core.clear_cache()
