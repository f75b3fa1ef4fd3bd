"""accjit — a JIT OpenACC engine for Python.

OpenACC C source is compiled in-process (C front end → lowering → Cranelift)
for the multicore CPU device and called with NumPy arrays::

    import numpy as np
    import accjit as acc

    lib = acc.c(r'''
    void saxpy(int n, float a, const float *x, float *y) {
        #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
        for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
    }
    ''')
    x = np.arange(8, dtype=np.float32); y = np.ones_like(x)
    lib.saxpy(x.size, 2.0, x, y)

OpenACC Fortran likewise, with Fortran-ordered arrays (docs/fortran.md)::

    m = acc.fortran('''
    subroutine scale(a, s)
      real(8), intent(inout) :: a(:,:)
      real(8), value :: s
      !$acc parallel loop collapse(2)
      do j = 1, size(a, 2)
        do i = 1, size(a, 1)
          a(i, j) = s * a(i, j)
        end do
      end do
    end subroutine
    ''')
    m.scale(np.asfortranarray(np.ones((4, 3))), 2.0)

Python functions become kernels under decorators (docs/python-kernels.md)::

    @acc.parallel
    def saxpy(a, x, y):
        for i in acc.loop(len(x)):
            y[i] = a * x[i] + y[i]

See docs/python-api.md for the full reference, docs/data-environment.md for
the data API and ``acc.profile()`` for profiling.
"""

from ._errors import *  # noqa: F401,F403  (CompileError, AccError and subclasses, ProgramExit, ProgramAbort)
from ._errors import __all__ as _errors_all
from . import _core
from ._cmodule import CFunction, CModule, c, cache_stats, clear_cache, compile_file  # noqa: F401
from ._cache import cache_clear, cache_info  # noqa: F401
from ._fmodule import FModule, FProcedure, fortran, fortran_files  # noqa: F401
from ._runtime import *  # noqa: F401,F403
from ._runtime import __all__ as _runtime_all
from ._data import *  # noqa: F401,F403
from ._data import __all__ as _data_all
from .profile import Profile, profile  # noqa: F401
from ._pykernel import *  # noqa: F401,F403  (parallel, kernels, serial, jit, routine, loop, atomic, ...)
from ._pykernel import __all__ as _pykernel_all

__version__ = _core.__version__

# Before the interpreter's C-level exit: no CUDA prewarm thread may still be
# inside the driver when the driver's exit handlers run (docs/cuda.md).
import atexit as _atexit  # noqa: E402

_atexit.register(_core.settle_before_exit)


def load_ipython_extension(ipython):
    """``%load_ext accjit``: the ``%%acc c`` / ``%%acc fortran`` cell magics
    (docs/jupyter.md). IPython is imported only here."""
    from ._magic import load_ipython_extension as load

    load(ipython)

__all__ = [
    "c",
    "CModule",
    "CFunction",
    "fortran",
    "fortran_files",
    "FModule",
    "FProcedure",
    *_errors_all,
    "compile_file",
    "cache_stats",
    "clear_cache",
    "cache_info",
    "cache_clear",
    *_runtime_all,
    *_data_all,
    "profile",
    "Profile",
    *_pykernel_all,
]
