# Type stubs for accjit._core, the compiled extension (rust/py). They give type checkers and the
# docs site's API reference (mkdocstrings reads .pyi files) the names, signatures and one-line
# docs of what the Rust bindings export. tests/test_stubs.py checks that every public name of the
# built module has a stub here, that every stub names something the module has, and that the
# signatures agree wherever inspect can read the module's own. Most users call these through the
# `accjit` package (acc.c, acc.fortran, acc.data, ...), not directly.

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, final

from typing_extensions import disjoint_base

import numpy as np

__version__: str
"""The package version (the Cargo version of rust/py)."""

ENGINE_VERSION: str
"""The engine version and cache format, part of every compile-cache key."""

DEVICE_TYPES: List[str]
"""The device types this build knows: `multicore`, `host`, `nvidia`."""

_Defines = Optional[Sequence[Tuple[str, Optional[str]]]]

# ---------------------------------------------------------------------------
# Errors

class CompileError(Exception):
    """A source failed to compile; `str()` is the first error as `file:line:col: error: message`."""

    headline: str
    rendered: str
    file: Optional[str]
    line: Optional[int]
    col: Optional[int]

class AccError(Exception):
    """An OpenACC runtime error: `.code`, `.code_name`, `.var`, `.host_range`, `.loc`."""

    code: int
    code_name: str
    var: Optional[str]
    host_range: Optional[Tuple[int, int]]
    loc: Optional[str]

class NotPresentError(AccError):
    """acc_error_not_present: the data is not present on the device."""

class PartlyPresentError(AccError):
    """acc_error_partly_present: only part of the data is present on the device."""

class InvalidAsyncError(AccError):
    """acc_error_invalid_async: not a valid async argument."""

class DeviceTypeUnavailableError(AccError):
    """The device type (or device) is not available."""

class InvalidArgumentError(AccError):
    """acc_error_invalid_argument: an argument of a runtime routine is invalid."""

class InvalidNullPointerError(AccError):
    """acc_error_invalid_null_pointer: a null pointer where data is required."""

class OutOfMemoryError(AccError):
    """acc_error_out_of_memory: the device memory is exhausted."""

class ProgramExit(RuntimeError):
    """The C program called `exit(code)`: `.code` is the status; the Python process goes on."""

    code: int

class ProgramAbort(RuntimeError):
    """The C program called `abort()` or an assert failed: `.message` says which."""

    message: str

# ---------------------------------------------------------------------------
# Compiled programs

@final
class Module:
    """A compiled program (C or Fortran): its exported functions, IR, timings and `main`."""

    @property
    def device_type(self) -> str:
        """The device type the program was compiled for."""
    @property
    def kernel_count(self) -> int:
        """Number of outlined compute regions (kernels)."""
    @property
    def name(self) -> str:
        """The name the source was compiled under."""
    @property
    def from_cache(self) -> bool:
        """True when this module came from the in-process cache."""
    def functions(self) -> List[Dict[str, Any]]:
        """Exported functions: dicts `{name, signature, ret, params: [{name, ctype, kind, dtype, const}]}`."""
    def signature(self, name: str) -> str:
        """The C signature of function `name`."""
    def call(self, name: str, args: Tuple[Any, ...]) -> Any:
        """Call exported function `name` with `args` (GIL released; Ctrl-C abandons the call)."""
    def fortran_procedures(self) -> List[Dict[str, Any]]:
        """The procedures of a program compiled from Fortran (empty for C)."""
    def call_fortran(self, name: str, args: Tuple[Any, ...]) -> Any:
        """Call the Fortran procedure `name` (any case), arguments by its Fortran interface."""
    def run_main(self, argv: Sequence[str], hosted: bool = True) -> int:
        """Run `main(argc, argv)` and return its status (`hosted=False`: exit ends the process)."""
    def clif(self) -> str:
        """Cranelift IR text (only when compiled with `keep_clif=True`)."""
    def ptx(self) -> str:
        """The PTX the nvidia back end makes of this program's kernels."""
    def ir(self) -> str:
        """The lowered IR as text."""
    def timings(self) -> Dict[str, float]:
        """Seconds spent in each stage: `{parse, lower, codegen, total}`."""
    def report(self) -> Dict[str, Any]:
        """The compile report: `name`, `device_type`, `regions`, `loops`, `kernels`, `timings`."""

def compile_c(
    source: str,
    name: str = "<string>",
    device_type: Optional[str] = None,
    defines: _Defines = None,
    undefines: Optional[Sequence[str]] = None,
    include_dirs: Optional[Sequence[str]] = None,
    keep_clif: bool = False,
) -> Module:
    """Compile C source text (through the in-process cache); raises `CompileError`."""

def compile_fortran(
    files: Sequence[Tuple[str, str]],
    device_type: Optional[str] = None,
    defines: _Defines = None,
    undefines: Optional[Sequence[str]] = None,
    include_dirs: Optional[Sequence[str]] = None,
    keep_clif: bool = False,
) -> Module:
    """Compile Fortran `files`, a list of (name, text); raises `CompileError`."""

def ptx_text(
    source: str,
    name: str = "<string>",
    defines: _Defines = None,
    undefines: Optional[Sequence[str]] = None,
    include_dirs: Optional[Sequence[str]] = None,
) -> str:
    """The PTX of C source text's kernels for the nvidia device (no GPU needed)."""

def ptx_text_fortran(
    files: Sequence[Tuple[str, str]],
    defines: _Defines = None,
    undefines: Optional[Sequence[str]] = None,
    include_dirs: Optional[Sequence[str]] = None,
) -> str:
    """The PTX of a Fortran program's kernels for the nvidia device."""

def fortran_sources(paths: Sequence[str]) -> List[str]:
    """The files of a Fortran program given by path: those given, then the module files they use."""

def is_fortran_file(name: str) -> bool:
    """Whether a file name is Fortran source by its extension."""

def cache_stats() -> Dict[str, int]:
    """`{hits, misses, stale, compilations, entries, capacity}` of the in-process cache."""

def clear_cache() -> None:
    """Empty the in-process cache (modules already returned stay usable)."""

def settle_before_exit() -> None:
    """Wait (at most a few seconds) until no CUDA prewarm thread is inside the
    driver; registered with ``atexit`` by the package."""

def call_stats() -> Dict[str, int]:
    """`{inline, worker, abandoned_stacks}`: calls from Python run inline on the calling thread,
    calls handed to a worker thread, inline calls that ended early and left their stack behind."""

def disk_cache_info() -> Dict[str, Any]:
    """`{dir, exists, entries, bytes, max_bytes}` of the on-disk kernel cache."""

def disk_cache_clear() -> Dict[str, int]:
    """Removes the disk cache's entries (accjit's own files only); `{entries, bytes}` removed."""

def _disk_cache_store(ptx: str, payload: bytes) -> bool:
    """Stores `payload` in the disk cache under the key of a cubin of `ptx` (for tests)."""

def cuda_devices() -> Dict[str, Any]:
    """`{available, driver_version, devices: [{ordinal, name, memory, compute_capability, sm_count} | {ordinal, error}]}`."""

# ---------------------------------------------------------------------------
# Runtime settings

def get_device_type() -> str:
    """The current device type (`multicore`, `host`, `nvidia`)."""

def set_device_type(dev: str) -> None:
    """Set the current device type (an `acc_device_` prefix is accepted)."""

def get_num_threads() -> int:
    """Threads that multicore kernels run on."""

def set_num_threads(n: int) -> None:
    """Set the number of threads of the multicore pool."""

def get_num_devices(device_type: Optional[str] = None) -> int:
    """Number of devices of `device_type` (default: the current type)."""

# ---------------------------------------------------------------------------
# Profiling

def profile_start() -> int:
    """Start recording every runtime event; returns the session's token."""

def profile_stop(token: int) -> Tuple[List[Dict[str, Any]], int]:
    """Stop session `token`, returning `(events, duration_ns)`."""

def profile_active() -> int:
    """The number of open profiling sessions."""

# ---------------------------------------------------------------------------
# Python kernels and interop

@disjoint_base
class Dispatcher:
    """The call path of a Python kernel: one compiled specialisation per argument types."""

    def __new__(cls, name: str, params: List[str]) -> "Dispatcher": ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the kernel, compiling for these argument types on first use."""
    def _compile_like(self, samples: Sequence[Any]) -> str:
        """Compile for the types of `samples` on the current device; returns the signature text."""
    def _signatures(self) -> List[Tuple[str, Tuple[str, ...]]]:
        """`[(device_type, (arg spelling, ...)), ...]` in compile order."""
    def _inspect(self, index: Optional[int] = None, code: bool = False) -> Dict[str, Any]:
        """What `inspect()` shows of one specialisation (the last compiled by default)."""

@final
class Function:
    """One exported C function of a `Module`, callable with its arguments (`accjit.CFunction` derives from it)."""

    def __new__(cls, module: Module, info: Dict[str, Any]) -> "Function": ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Calls the function; keyword arguments are bound by the subclass's `_bind`."""

@disjoint_base
class Procedure:
    """One Fortran procedure of a `Module`, callable with its arguments (`accjit.FProcedure` derives from it)."""

    def __new__(cls, module: Module, info: Dict[str, Any]) -> "Procedure": ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Calls the procedure; keywords and left-out optional arguments are bound by the subclass's `_bind_call`."""

@final
class DeviceView:
    """The device copy of a present NumPy array, for CuPy/PyTorch/Numba (CUDA array interface, DLPack)."""

    def __new__(cls, x: np.ndarray) -> "DeviceView": ...
    @property
    def base(self) -> np.ndarray:
        """The host array this view is the device copy of."""
    @property
    def ptr(self) -> int:
        """The device address of the first element."""
    @property
    def shape(self) -> Tuple[int, ...]:
        """The array's shape."""
    @property
    def __cuda_array_interface__(self) -> Dict[str, Any]:
        """The CUDA array interface (version 3) of the device copy."""
    def __dlpack_device__(self) -> Tuple[int, int]:
        """`(kDLCUDA, device number)`."""
    def __dlpack__(
        self,
        stream: Any = None,
        max_version: Any = None,
        dl_device: Any = None,
        copy: Optional[bool] = None,
    ) -> Any:
        """A DLPack capsule of the device copy."""

# ---------------------------------------------------------------------------
# The OpenACC data API on NumPy arrays (a submodule of _core; acc.copyin & co. wrap it).

_Async = Optional[int]

class data_api:
    """`accjit._core.data_api`, a submodule: the chapter-3 data routines on NumPy arrays."""

    @staticmethod
    def copyin(a: np.ndarray, async_: _Async = None, *, name: Optional[str] = None, loc: Optional[str] = None) -> None:
        """acc_copyin: make `a` present (dynamic count + 1), copying it to the device."""
    @staticmethod
    def create(a: np.ndarray, async_: _Async = None, *, name: Optional[str] = None, loc: Optional[str] = None) -> None:
        """acc_create: make `a` present without copying (dynamic count + 1)."""
    @staticmethod
    def copyout(
        a: np.ndarray, async_: _Async = None, finalize: bool = False, *, name: Optional[str] = None, loc: Optional[str] = None
    ) -> None:
        """acc_copyout[_finalize]: dynamic count − 1 (or 0), copying back when it ends."""
    @staticmethod
    def delete(
        a: np.ndarray, async_: _Async = None, finalize: bool = False, *, name: Optional[str] = None, loc: Optional[str] = None
    ) -> None:
        """acc_delete[_finalize]: like copyout without the copy."""
    @staticmethod
    def update_device(a: np.ndarray, async_: _Async = None, *, name: Optional[str] = None, loc: Optional[str] = None) -> None:
        """acc_update_device: copy `a` (or a slice of it) to the device."""
    @staticmethod
    def update_self(a: np.ndarray, async_: _Async = None, *, name: Optional[str] = None, loc: Optional[str] = None) -> None:
        """acc_update_self: copy `a` (or a slice of it) back from the device."""
    @staticmethod
    def is_present(a: np.ndarray) -> bool:
        """acc_is_present: True when all of `a`'s bytes are present on the current device."""
    @staticmethod
    def deviceptr(a: np.ndarray) -> int:
        """acc_deviceptr: the device address of `a`'s first byte (0 when not present)."""
    @staticmethod
    def hostptr(d: int) -> int:
        """acc_hostptr: the host address whose device copy holds device address `d`."""
    @staticmethod
    def ref_counts(a: np.ndarray) -> Optional[Tuple[int, int]]:
        """(structured, dynamic) reference counts of the present entry containing `a`, or None."""
    @staticmethod
    def present_table() -> List[Dict[str, Any]]:
        """The current device's present table, one dict per entry."""
    @staticmethod
    def attach(p: np.ndarray, async_: _Async = None) -> None:
        """acc_attach: attach the pointer stored in `p[0]`."""
    @staticmethod
    def detach(p: np.ndarray, async_: _Async = None, finalize: bool = False) -> None:
        """acc_detach[_finalize]: attachment count − 1 (finalize: 0)."""
    @staticmethod
    def attach_count(p: np.ndarray) -> int:
        """The attachment count of the pointer stored in `p[0]`."""
    @staticmethod
    def region_enter(kind: str, a: np.ndarray, name: Optional[str] = None, loc: Optional[str] = None) -> None:
        """The entry action of data clause `kind` on `a` (structured count), as `acc.data` does."""
    @staticmethod
    def region_exit(kind: str, a: np.ndarray, name: Optional[str] = None, loc: Optional[str] = None) -> None:
        """The exit action matching `region_enter`."""
    @staticmethod
    def malloc(bytes: int) -> int:
        """acc_malloc: `bytes` of device memory; returns its device address."""
    @staticmethod
    def free(d: int) -> None:
        """acc_free: release memory from `malloc`."""
    @staticmethod
    def map_data(a: np.ndarray, d: int) -> None:
        """acc_map_data: make `a` present with its device copy at `d`."""
    @staticmethod
    def unmap_data(a: np.ndarray) -> None:
        """acc_unmap_data: undo `map_data` (the device memory stays allocated)."""
    @staticmethod
    def memcpy_to_device(d: int, src: np.ndarray, bytes: Optional[int] = None, async_: _Async = None) -> None:
        """acc_memcpy_to_device: host array `src` to device address `d`."""
    @staticmethod
    def memcpy_from_device(dst: np.ndarray, d: int, bytes: Optional[int] = None, async_: _Async = None) -> None:
        """acc_memcpy_from_device: device address `d` to host array `dst`."""
    @staticmethod
    def memcpy_device(dst: int, src: int, bytes: int, async_: _Async = None) -> None:
        """acc_memcpy_device: device to device on the current device."""
    @staticmethod
    def wait(*queues: int, async_: _Async = None, device_num: Optional[int] = None) -> None:
        """acc_wait / acc_wait_all (no queues), or their `_async` / `_device` forms."""
    @staticmethod
    def async_test(queue: Optional[int] = None, device_num: Optional[int] = None) -> bool:
        """acc_async_test (and its `_all`, `_device` forms): True when the queue (or every queue) is idle."""
    @staticmethod
    def wait_any(queues: Sequence[int], device_num: Optional[int] = None) -> int:
        """acc_wait_any: waits until one of `queues` is idle; returns its index (-1: none)."""
    @staticmethod
    def get_default_async() -> int:
        """acc_get_default_async."""
    @staticmethod
    def set_default_async(a: int) -> None:
        """acc_set_default_async."""
    @staticmethod
    def set_device_num(num: int, device_type: Optional[str] = None) -> None:
        """acc_set_device_num: select device `num` of the type."""
    @staticmethod
    def get_device_num(device_type: Optional[str] = None) -> int:
        """acc_get_device_num (-1 when the type has no devices)."""
    @staticmethod
    def get_property(prop: Union[str, int], device_num: Optional[int] = None, device_type: Optional[str] = None) -> Union[int, str]:
        """acc_get_property / acc_get_property_string of a device."""
