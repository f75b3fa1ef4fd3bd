"""Python kernels: ``@acc.parallel``, ``@acc.kernels``, ``@acc.serial``,
``@acc.jit`` and ``@acc.routine`` (docs/python-kernels.md).

A decorated function becomes a :class:`Kernel`. Its calls go straight to the
Rust dispatcher (``_core.Dispatcher``, which ``Kernel`` derives from): one
specialisation per tuple of argument types and device type, compiled on
first use from the request text ``_pyast.request`` writes once per kernel.

The OpenACC spellings used *inside* kernel bodies — ``acc.loop``,
``acc.atomic``, ``acc.cache``, ``with acc.parallel(...)``, ``acc.data``,
``acc.host_data``, ``acc.update_self``/``update_device``/``enter_data``/
``exit_data``/``wait`` — also exist here as plain Python, so that
``fn.py_func(...)`` runs the function uncompiled with the same results
(atomics and loops run sequentially; data directives act through the
runtime as the data API does).
"""

from __future__ import annotations

import functools
import inspect as _inspect
import itertools
import re
from typing import Any, Optional

import numpy as np

from . import _core, _data, _pyast

__all__ = [
    "Kernel",
    "parallel",
    "kernels",
    "serial",
    "jit",
    "routine",
    "loop",
    "atomic",
    "cache",
    "host_data",
    "enter_data",
    "exit_data",
]

# Clauses each decorator / construct accepts (keywords with a trailing
# underscore are Python keywords: async_, if_, self_).
_DATA = ("copy", "copyin", "copyout", "create", "present", "no_create", "deviceptr", "attach")
_COMPUTE = {
    "parallel": _DATA + ("num_gangs", "num_workers", "vector_length", "async_", "wait", "if_", "self_",
                         "private", "firstprivate", "reduction", "default", "device_type"),
    "kernels": _DATA + ("num_gangs", "num_workers", "vector_length", "async_", "wait", "if_", "self_",
                        "default", "device_type"),
    "serial": _DATA + ("async_", "wait", "if_", "self_", "private", "firstprivate", "reduction", "default",
                       "device_type"),
}
_ROUTINE_LEVELS = ("seq", "vector", "worker", "gang")
# Other spellings of clauses (the front end's acc/clause.rs `canonical`): the
# modifiers spelled into the keyword, the legacy present_or_* names, dtype=.
_CLAUSE_ALIASES = {
    "copyin_readonly": "copyin", "copyout_zero": "copyout", "create_zero": "create",
    "pcopy": "copy", "present_or_copy": "copy", "pcopyin": "copyin", "present_or_copyin": "copyin",
    "pcopyout": "copyout", "present_or_copyout": "copyout", "pcreate": "create",
    "present_or_create": "create", "dtype": "device_type",
}


def _params_of(fn) -> list:
    sig = _inspect.signature(fn)
    out = []
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(f"{fn.__qualname__}: *{p.name}/**{p.name} parameters are not supported in kernels; "
                            "name every parameter")
        out.append(p.name)
    return out


def _binder(fn, params):
    """A function with ``fn``'s parameters that returns them as a tuple, so
    that binding keywords and defaults (and the errors for bad calls) are
    Python's own."""
    sig = _inspect.signature(fn)
    parts, env = [], {}
    seen_kwonly = False
    for i, p in enumerate(sig.parameters.values()):
        if p.kind == p.KEYWORD_ONLY and not seen_kwonly:
            parts.append("*")
            seen_kwonly = True
        text = p.name
        if p.default is not p.empty:
            env[f"__d{i}"] = p.default
            text += f"=__d{i}"
        parts.append(text)
        if p.kind == p.POSITIONAL_ONLY and (i + 1 == len(sig.parameters)
                                            or list(sig.parameters.values())[i + 1].kind != p.POSITIONAL_ONLY):
            parts.append("/")
    name = fn.__name__ if fn.__name__.isidentifier() else "kernel"
    body = ", ".join(params) + ("," if params else "")
    src = f"def {name}({', '.join(parts)}):\n    return ({body})\n"
    exec(compile(src, f"<accjit binder of {name}>", "exec"), env)
    return env[name]


class Kernel(_core.Dispatcher):
    """A Python function compiled for OpenACC devices (made by the
    decorators; see docs/python-kernels.md).

    Call it like the function. Each distinct tuple of argument types (NumPy
    dtype, rank, layout C/F/strided and writability of arrays; the type of
    scalars) on each device type is compiled once, on first use, and kept.

    - ``py_func``: the original function (runs as plain Python).
    - ``compile(signature)``: compile ahead of time; returns the signature.
    - ``signatures``: the compiled argument signatures, in order.
    - ``inspect(...)``: the IR, the loop schedule, the data clauses, the
      generated code.
    """

    def __new__(cls, py_func, kind, keywords=None, level=None):
        return super().__new__(cls, py_func.__name__, _params_of(py_func))

    def __init__(self, py_func, kind: str, keywords: Optional[dict] = None, level: Optional[str] = None):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self._accjit_kind = kind
        self._accjit_level = level
        self._accjit_keywords = dict(keywords or {})
        self.__wrapped_pyfunc__ = py_func
        self._bind_fn = _binder(py_func, _params_of(py_func))

    # --- called by the Rust dispatcher ---------------------------------------------

    def _request_text(self) -> str:
        return _pyast.request(self.py_func, self._accjit_kind, self._accjit_keywords, self._accjit_level)

    def _bind(self, args, kwargs):
        return self._bind_fn(*args, **(kwargs or {}))

    # --- public API ----------------------------------------------------------------

    def compile(self, signature) -> str:
        """Compile for the given argument types on the current device (ahead
        of the first call) and return the signature as spelled in
        ``signatures``. ``signature`` is a sequence (or one comma-separated
        string) whose items are either sample arguments (a NumPy array or a
        scalar, classified exactly as a call would) or spellings:

        - scalars: a NumPy dtype name (``"float32"``, ``"int64"``, ...), a
          NumPy scalar type (``np.float32``) or ``int``/``float``/``complex``/
          ``bool`` (int64/float64/complex128/bool);
        - arrays: ``"float64[:]"``, ``"float32[:, :]"`` (C order), followed
          by ``F`` (Fortran order) or ``strided``, and/or ``readonly``:
          ``"float64[:, :] F readonly"``.
        """
        if isinstance(signature, str):
            signature = _split_signature(signature)
        samples = tuple(_sample(s) for s in signature)
        return self._compile_like(samples)

    @property
    def signatures(self) -> list:
        """The compiled signatures, in compile order: a list of tuples of
        argument spellings (``("float32", "float32[:]", "float32[:]")``).
        A signature compiled for two device types appears once."""
        out = []
        for _dev, sig in self._signatures():
            if sig not in out:
                out.append(sig)
        return out

    def inspect(self, signature=None, *, code: bool = False, which: Optional[int] = None) -> "Inspection":
        """What the compiler made of this kernel for one signature (the last
        compiled, or ``signature`` — compiled now if needed — or the
        ``which``-th of ``signatures``). The result is a dict —
        ``signature``, ``device_type``, ``regions`` (each compute region's
        clauses, implicit ones marked), ``loops`` (line, schedule, reason),
        ``entry`` (how arguments are passed), ``results``, ``ir`` (before
        lowering), ``lowered_ir``, ``compile_seconds`` and with ``code=True``
        ``clif`` (and ``ptx`` on nvidia) — whose ``str()`` is a readable
        report like ``-Minfo=accel``."""
        index = which
        if signature is not None:
            spelled = self.compile(signature)
            sigs = [", ".join(s) for _d, s in self._signatures()]
            devs = [d for d, _s in self._signatures()]
            index = max(i for i, s in enumerate(sigs) if s == spelled and devs[i] == _core.get_device_type())
        return Inspection(self, self._inspect(index, code))

    def __repr__(self):
        n = len(self._signatures())
        return f"<accjit.Kernel @acc.{self._accjit_kind} {self.__qualname__} ({n} signature{'s' if n != 1 else ''})>"

    def __reduce__(self):
        raise TypeError("accjit kernels cannot be pickled; pickle kernel.py_func and decorate it again")


class Inspection(dict):
    """``Kernel.inspect()``: a dict with a readable ``str()`` (the report; with
    ``code=True`` followed by the IR and the generated code)."""

    def __init__(self, kernel: Kernel, d: dict):
        super().__init__(d)
        self._kernel = kernel
        self._mark_implicit()

    def _mark_implicit(self):
        """A clause on a variable the source does not name in the region's
        clauses (the decorator's keywords or the ``with`` line) was chosen
        by the compiler (§2.6.2 implicit data attributes); so were the
        attributes of the scalars the region uses with no clause (the
        ``scalars`` the compiler reports). Each clause gets a ``why``."""
        k = self._kernel
        explicit = set()
        for key, v in k._accjit_keywords.items():
            explicit |= set(_names_in(v))
        try:
            lines = _inspect.getsourcelines(k.py_func)
            first = lines[1]
            src = lines[0]
        except (OSError, TypeError):
            first, src = 0, []
        arrays = {e.split(".")[0] for e in self["entry"] if e.endswith(".data")}
        for r in self["regions"]:
            header = ""
            i = r["line"] - first
            if 0 <= i < len(src) and src[i].lstrip().startswith("with"):
                header = src[i]
            header_names = set(re.findall(r"[A-Za-z_]\w*", header.split("(", 1)[1] if "(" in header else ""))
            around = {}
            for v, line in r.pop("enclosing", []):
                around.setdefault(v, line)
            clauses = []
            for c, v in r["clauses"]:
                implicit = not (_root(v) in explicit or _root(v) in header_names)
                why = _why(c, implicit, _root(v) in arrays)
                if implicit and _root(v) in around and c in ("copy", "copyin"):
                    why = f"found present: the acc.data of line {around[_root(v)]} put it on the device, nothing moves"
                clauses.append({"clause": c, "var": v, "implicit": implicit, "why": why})
            for c, v, why in r.pop("scalars", []):
                clauses.append({"clause": c, "var": v, "implicit": True, "why": why})
            r["clauses"] = clauses

    def __str__(self):
        k = self._kernel
        lines = [f"{k.__qualname__}({', '.join(self['signature'])}) on {self['device_type']}: "
                 f"@acc.{k._accjit_kind}, {self['kernels']} kernel(s), compiled in {self['compile_seconds'] * 1e3:.1f} ms"]
        items = [(r["line"], 0, r) for r in self["regions"]] + [(lp["line"], 1, lp) for lp in self["loops"]]
        for _line, what, x in sorted(items, key=lambda t: (t[0], t[1])):
            if what == 0:
                kern = f" -> kernel{'s' if len(x.get('kernels', [])) != 1 else ''} {', '.join(x['kernels'])}" if x.get("kernels") else ""
                lines.append(f"  line {x['line']}: {x['kind']} region{kern}")
                width = max((len(f"{c['clause']}({c['var']})") for c in x["clauses"]), default=0)
                for c in x["clauses"]:
                    cv = f"{c['clause']}({c['var']})"
                    lines.append(f"      {cv:<{width}}  {'implicit: ' if c['implicit'] else ''}{c['why']}")
                if not x["clauses"]:
                    lines.append("      (no data clauses)")
            else:
                lines.append(f"  line {x['line']}: loop {x['schedule']} -- {x['reason']}")
        lines.append(f"  arguments: {', '.join(self['entry'])}")
        if self["results"]:
            lines.append(f"  returns: {', '.join(self['results'])}")
        if "clif" in self or "ptx" in self:
            lines += ["", "IR (the front end's, before lowering):", self["ir"].rstrip()]
            if "ptx" in self:
                lines += ["", "PTX:", self["ptx"].rstrip()]
            if "clif" in self:
                lines += ["", "CLIF (host code and kernels, Cranelift):", self["clif"].rstrip()]
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle):  # IPython
        p.text(str(self))

    def _repr_html_(self):  # Jupyter: the compile report's tables (accjit._report)
        from ._report import regions_html

        k = self._kernel
        regions = []
        ordered = sorted(self["regions"], key=lambda r: r["line"])
        for i, r in enumerate(ordered):
            end = ordered[i + 1]["line"] if i + 1 < len(ordered) else float("inf")
            regions.append(dict(r, loops=[lp for lp in self["loops"] if r["line"] <= lp["line"] < end]))
        headline = (f"{k.__qualname__}({', '.join(self['signature'])}) on {self['device_type']}: @acc.{k._accjit_kind}, "
                    f"{self['kernels']} kernel(s), compiled in {self['compile_seconds'] * 1e3:.1f} ms")
        return regions_html(headline, regions)


def _why(clause: str, implicit: bool, array: bool) -> str:
    """Why a data clause of a region is there."""
    if not implicit:
        return "as written"
    if not array:
        return {
            "copy": "a scalar used after the region (returned): copied in and out",
            "firstprivate": "a scalar the region reads: its value at the region's start",
            "private": "a scalar the region assigns before reading: one copy per executor",
        }.get(clause, "a reduction variable: its result comes back to the host" if clause.startswith("reduction") else "chosen by the compiler")
    return {
        "copy": "an array the region uses with no clause: present if on the device, else copied in and out (OpenACC 2.6.2)",
        "copyin": "an array the region uses with no clause and never writes: present if on the device, else copied in only",
        "present": 'default="present": an array the region uses must already be on the device',
    }.get(clause, "chosen by the compiler")


def _root(v: str) -> str:
    m = re.match(r"\s*([A-Za-z_]\w*)", v)
    return m.group(1) if m else v


def _names_in(v) -> list:
    if isinstance(v, str):
        return [_root(v)]
    if isinstance(v, dict):
        return [n for x in v.values() for n in _names_in(x)]
    if isinstance(v, (list, tuple)):
        return [n for x in v for n in _names_in(x)]
    return []


# --- signatures ---------------------------------------------------------------------

_ARRAY_SPELLING = re.compile(r"^\s*(\w+)\s*\[([\s:,]*)\]\s*(.*)$")


def _split_signature(text: str) -> list:
    """``"float64[:, :] F, int64"`` → items, splitting on commas outside brackets."""
    items, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        items.append(cur)
    return [i.strip() for i in items]


def _sample(item) -> Any:
    """A value whose type is the signature item's (see ``Kernel.compile``)."""
    if isinstance(item, np.ndarray) or isinstance(item, (bool, int, float, complex, np.generic)):
        return item
    if any(item is t for t in (int, float, complex, bool)):
        return item()
    if isinstance(item, type) and issubclass(item, np.generic):
        return item(0)
    if isinstance(item, np.dtype):
        return item.type(0)
    if hasattr(item, "__cuda_array_interface__") or hasattr(item, "__dlpack_device__"):
        return item
    if not isinstance(item, str):
        raise TypeError(f"signature item {item!r}: expected a sample argument, a dtype or a spelling such as 'float64[:, :]'")
    m = _ARRAY_SPELLING.match(item)
    if not m:
        try:
            return np.dtype(item.strip()).type(0)
        except TypeError:
            raise TypeError(f"signature item {item!r}: not a NumPy dtype name or an array spelling such as 'float64[:]'") from None
    dtype, dims, flags = m.group(1), m.group(2), m.group(3).split()
    ndim = dims.count(":")
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"signature item {item!r}: {dtype!r} is not a NumPy dtype") from None
    bad = [f for f in flags if f not in ("C", "F", "strided", "readonly")]
    if bad:
        raise TypeError(f"signature item {item!r}: unknown flag(s) {bad}; use C, F, strided, readonly")
    if "strided" in flags:
        a = np.zeros((3,) * max(ndim, 1), dtype=dt)[(slice(None, None, 2),) * max(ndim, 1)]
        if ndim == 0:
            raise TypeError(f"signature item {item!r}: a 0-d array cannot be strided")
    elif "F" in flags:
        if ndim < 2:
            raise TypeError(f"signature item {item!r}: Fortran order needs 2 or more dimensions (1-D arrays are C)")
        a = np.zeros((2,) * ndim, dtype=dt, order="F")
    else:
        a = np.zeros((1,) * ndim, dtype=dt)
    if "readonly" in flags:
        a.flags.writeable = False
    return a


# --- decorators and constructs ------------------------------------------------------------


def _check_clauses(kind: str, clauses: dict):
    allowed = _COMPUTE.get(kind)
    if allowed is None:
        return
    for k in clauses:
        if _CLAUSE_ALIASES.get(k, k) not in allowed:
            hint = ""
            if k in ("async", "if", "self"):
                hint = f"; spell it {k}_= (a Python keyword)"
            raise TypeError(f"acc.{kind}() got an unexpected clause '{k}'{hint}; clauses: {', '.join(allowed)}")


class _Construct:
    """``acc.parallel(...)`` with clauses: a decorator (``@acc.parallel(num_gangs=4)``)
    and a context manager for ``@acc.jit`` bodies (``with acc.parallel(...):``),
    which as plain Python simply runs its body."""

    def __init__(self, kind: str, clauses: dict):
        self.kind = kind
        self.clauses = clauses

    def __call__(self, fn):
        if not callable(fn):
            raise TypeError(f"@acc.{self.kind}(...) decorates a function, got {type(fn).__name__}")
        return Kernel(fn, self.kind, self.clauses)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return f"acc.{self.kind}({', '.join(f'{k}={v!r}' for k, v in self.clauses.items())})"


def _construct(kind):
    def decorator(fn=None, /, **clauses):
        _check_clauses(kind, clauses)
        if fn is None:
            return _Construct(kind, clauses)
        if not callable(fn):
            raise TypeError(f"acc.{kind}: pass clauses as keywords (acc.{kind}(num_gangs=4)), got {fn!r}")
        return Kernel(fn, kind, clauses)

    decorator.__name__ = decorator.__qualname__ = kind
    decorator.__doc__ = (
        f"``@acc.{kind}`` / ``@acc.{kind}(clauses...)``: the function body is one {kind} compute "
        f"region (see docs/python-kernels.md). ``with acc.{kind}(...):`` in an ``@acc.jit`` "
        f"body makes a region of its block. Clauses: {', '.join(_COMPUTE[kind])}."
    )
    return decorator


parallel = _construct("parallel")
"""``@acc.parallel`` / ``@acc.parallel(clauses...)``: the function body is one ``parallel``
compute region, compiled per argument types on the first call (a `Kernel`). Clauses are
keywords: ``num_gangs``, ``num_workers``, ``vector_length``, the data clauses (lists of
parameter names, sections allowed: ``copyin=["x[0:n]"]``), ``private``, ``firstprivate``,
``reduction={"+": "s"}``, ``default``, ``async_``, ``wait``, ``if_``, ``self_``,
``device_type``. ``with acc.parallel(...):`` inside an ``@acc.jit`` body makes a region of
its block."""
kernels = _construct("kernels")
"""``@acc.kernels`` / ``@acc.kernels(clauses...)``: the body is one ``kernels`` region; its
loops without clauses are ``auto`` (parallel only when the dependence test proves them
independent). Clauses as for `parallel`, less ``private``, ``firstprivate`` and
``reduction``."""
serial = _construct("serial")
"""``@acc.serial`` / ``@acc.serial(clauses...)``: the body is one ``serial`` region (one gang,
one worker, one vector lane). Clauses as for `parallel`, less the sizes."""


def jit(fn=None, /):
    """``@acc.jit``: a host function compiled with its regions (``with
    acc.parallel(...)``, ``with acc.data(...)``) and directives."""
    if fn is None:
        return jit
    return Kernel(fn, "jit")


def routine(fn=None, /, level: Optional[str] = None, *, seq=False, vector=False, worker=False, gang=False):
    """``@acc.routine``, ``@acc.routine("vector")`` or ``@acc.routine(seq=True)``:
    a function callable from kernels (compiled per argument types of each
    call site) and, called from Python, run as a compiled host function."""
    if isinstance(fn, str):
        fn, level = None, fn
    flags = [n for n, on in (("seq", seq), ("vector", vector), ("worker", worker), ("gang", gang)) if on]
    if len(flags) > 1 or (flags and level):
        raise TypeError("acc.routine takes one level: seq, vector, worker or gang")
    level = level or (flags[0] if flags else "seq")
    if level not in _ROUTINE_LEVELS:
        raise TypeError(f"acc.routine: level {level!r} is not one of {', '.join(_ROUTINE_LEVELS)}")
    if fn is None:
        return lambda f: Kernel(f, "routine", level=level)
    return Kernel(fn, "routine", level=level)


# --- the spellings of kernel bodies, as plain Python -----------------------------------------


def loop(*args, **clauses):
    """``for i in acc.loop(n, gang=True, ...)``: a loop with OpenACC clauses.
    ``acc.loop(n)``, ``acc.loop(a, b[, s])`` and ``acc.loop(range(...))``
    are ranges; ``acc.loop(range(n), range(m), collapse=2)`` yields ``(i, j)``.
    As plain Python it iterates sequentially."""
    if args and all(isinstance(a, range) for a in args):
        return args[0] if len(args) == 1 else itertools.product(*args)
    if not args:
        raise TypeError("acc.loop() needs a range: acc.loop(n), acc.loop(a, b), acc.loop(range(...))")
    return range(*args)


def _store_value(a, i, v):
    """``v`` as ``a``'s element type would hold it (C conversion: truncation)."""
    if a.dtype.kind in "iub" and isinstance(v, (float, np.floating)):
        return a.dtype.type(int(v))
    return v


class _Atomic:
    """``acc.atomic``: ``acc.atomic.add(a, i, v)`` (returns the old value),
    ``sub, mul, div, max, min, and_, or_, xor, lshift, rshift, read, write,
    exchange, cas``, and ``with acc.atomic():`` / ``with acc.atomic("capture"):``
    blocks. As plain Python each is a plain read-modify-write."""

    _FORMS = ("update", "read", "write", "capture")

    def __call__(self, form: str = "update"):
        if form not in self._FORMS:
            raise ValueError(f"acc.atomic({form!r}): the form is one of {', '.join(self._FORMS)}")
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def _update(a, i, f):
        old = a[i]
        a[i] = _store_value(a, i, f(old))
        return old

    def add(self, a, i, v):
        return self._update(a, i, lambda x: x + v)

    def sub(self, a, i, v):
        return self._update(a, i, lambda x: x - v)

    def mul(self, a, i, v):
        return self._update(a, i, lambda x: x * v)

    def div(self, a, i, v):
        if a.dtype.kind in "iu":  # C division of the element type: truncates toward zero
            return self._update(a, i, lambda x: int(x / v) if (x < 0) != (v < 0) else x // v)
        return self._update(a, i, lambda x: x / v)

    def max(self, a, i, v):
        return self._update(a, i, lambda x: x if x >= v else v)

    def min(self, a, i, v):
        return self._update(a, i, lambda x: x if x <= v else v)

    def and_(self, a, i, v):
        return self._update(a, i, lambda x: x & v)

    def or_(self, a, i, v):
        return self._update(a, i, lambda x: x | v)

    def xor(self, a, i, v):
        return self._update(a, i, lambda x: x ^ v)

    def lshift(self, a, i, v):
        return self._update(a, i, lambda x: x << v)

    def rshift(self, a, i, v):
        return self._update(a, i, lambda x: x >> v)

    def read(self, a, i):
        return a[i]

    def write(self, a, i, v):
        a[i] = v

    def exchange(self, a, i, v):
        return self._update(a, i, lambda x: v)

    def cas(self, a, i, expected, v):
        old = a[i]
        if old == expected:
            a[i] = v
        return old

    def __repr__(self):
        return "acc.atomic"


atomic = _Atomic()
"""The atomic construct inside kernel bodies. ``acc.atomic.add(a, i, v)`` updates ``a[i]``
atomically (also ``sub``, ``mul``, ``div``, ``max``, ``min``, ``and_``, ``or_``, ``xor``,
``lshift``, ``rshift``); used as an expression it is a capture and returns the old value.
``acc.atomic.read(a, i)``, ``acc.atomic.write(a, i, v)``, ``acc.atomic.exchange(a, i, v)``;
the index may be a tuple ``(i, j)``. The block forms are ``with acc.atomic(): a[i] += v`` and
``with acc.atomic("capture"): old = a[i]; a[i] += 1``. As plain Python each is a plain
read-modify-write."""


def cache(*sections):
    """``acc.cache(a[i-1:i+2])`` inside a loop: a hint to keep the section
    in fast memory. As plain Python it does nothing."""
    return None


class host_data:
    """``with acc.host_data(use_device=[a]):`` in ``@acc.jit`` bodies: ``a``
    means its device address inside the block. As plain Python (host
    memory) it does nothing."""

    def __init__(self, use_device=(), if_=None, if_present=False):
        self.use_device = use_device

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _arrays(v):
    if v is None:
        return []
    if isinstance(v, np.ndarray):
        return [v]
    return list(v)


def enter_data(*, copyin=(), create=(), attach=(), async_=None, wait=None, if_=True):
    """``acc.enter_data(copyin=[a], create=[b], async_=None)``: the ``enter
    data`` directive (dynamic reference counts)."""
    if not if_:
        return
    if wait is not None:
        _data.wait(*([wait] if isinstance(wait, int) else list(wait)))
    for a in _arrays(copyin):
        _data.copyin(a, async_)
    for a in _arrays(create):
        _data.create(a, async_)


def exit_data(*, copyout=(), delete=(), detach=(), finalize=False, async_=None, wait=None, if_=True):
    """``acc.exit_data(copyout=[a], delete=[b], finalize=False, async_=None)``:
    the ``exit data`` directive."""
    if not if_:
        return
    if wait is not None:
        _data.wait(*([wait] if isinstance(wait, int) else list(wait)))
    for a in _arrays(copyout):
        _data.copyout(a, async_, finalize)
    for a in _arrays(delete):
        _data.delete(a, async_, finalize)
