"""The `%%acc` cell magic (python/accjit/_magic.py), run by a real Jupyter
kernel through nbclient: the cell's functions become callables in the
notebook, the compile report is the cell's HTML output (a table per region
with each loop's schedule), a compile error shows the source line and the
caret without a Python traceback, profiles render inline, and interrupting
the kernel stops a long-running call."""

import os
import subprocess
import sys
import time

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from test_notebooks import execute, outputs_text  # noqa: E402


def html_of(cell) -> str:
    return "\n".join(
        "".join(o["data"]["text/html"]) for o in cell.outputs if o["output_type"] in ("display_data", "execute_result") and "text/html" in o["data"]
    )


def run_cells(*sources, allow_errors=True):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    return execute(nb, allow_errors=allow_errors).cells


C_CELL = r"""%%acc c --name lib -D SCALE=3
void scale(int n, double *x) {
    #pragma acc parallel loop gang vector copy(x[0:n])
    for (int i = 0; i < n; i++) x[i] *= SCALE;
}
double total(int n, const double *x) {
    double s = 0;
    #pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < n; i++) s += x[i];
    return s;
}
"""

F_CELL = r"""%%acc fortran --device host
subroutine prefix(a, b, n)
  integer, value :: n
  real(8) :: a(n), b(n)
  integer :: i
  b(1) = a(1)
  !$acc kernels
  do i = 2, n
    b(i) = b(i-1) + a(i)
  end do
  !$acc end kernels
end subroutine
"""

ERROR_CELL = r"""%%acc c
void broken(int n, float *x) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) x[i] = undefined_name * 2;
}
"""


@pytest.fixture(scope="module")
def cells():
    return run_cells(
        "%load_ext accjit",
        C_CELL,
        "import numpy as np\n"
        "x = np.random.default_rng(7).random(1000); want = 3 * x\n"
        "scale(x.size, x)\n"
        "assert np.allclose(x, want)\n"
        "assert abs(total(x.size, x) - want.sum()) < 1e-9 * want.sum()\n"
        "print(type(scale).__name__, type(lib).__name__, sorted(lib.functions))",
        F_CELL,
        "a = np.asfortranarray(np.random.default_rng(8).random(50)); b = np.zeros_like(a)\n"
        "prefix(a, b, a.size)\n"
        "assert np.allclose(b, np.cumsum(a))\n"
        "print('fortran ok')",
        ERROR_CELL,
        "%%acc c --quiet\nint twice(int v) { return 2 * v; }",
        "print(twice(21))",
        "import accjit as acc\n"
        "with acc.profile() as prof:\n"
        "    scale(x.size, x)\n"
        "prof",
        "print(acc.get_device_type())",
        "import os, tempfile\ninc = tempfile.mkdtemp()\nwith open(os.path.join(inc, 'factor.h'), 'w') as f:\n    f.write('#define FACTOR 7\\n')",
        '%%acc c --quiet -I {inc} -D OFFSET=1\n#include "factor.h"\nint scaled(int v) { return FACTOR * v + OFFSET; }',
        "print(scaled(6))",
    )


def test_magic_defines_callables(cells):
    assert not [o for o in cells[0].outputs if o["output_type"] == "error"]
    assert "CFunction CModule ['scale', 'total']" in outputs_text(cells[2])
    assert "fortran ok" in outputs_text(cells[4])
    assert outputs_text(cells[7]).strip() == "42"


def test_magic_renders_the_report_as_html(cells):
    html = html_of(cells[1])
    assert html.count('<table class="accjit-region"') == 2
    assert "<b>parallel region</b> in <code>scale</code>" in html
    assert '<tr class="accjit-loop">' in html and "<b>gang vector</b>" in html
    assert "reduction(+:s)" in html and "lib.c" in html
    assert "compiled in" in html
    fhtml = html_of(cells[3])
    assert "kernels region" in fhtml and "<b>seq</b>" in fhtml and "kept it sequential" in fhtml and "for host" in fhtml


def test_magic_device_option_sets_the_device_type(cells):
    # the Fortran cell's --device host: compiled for host, and host is now current
    assert outputs_text(cells[9]).strip() == "host"


def test_magic_include_dirs_and_defines(cells):
    # -I {inc}: IPython expands the notebook variable in the magic's line
    assert not [o for o in cells[11].outputs if o["output_type"] == "error"], outputs_text(cells[11])
    assert outputs_text(cells[12]).strip() == "43"


def test_magic_quiet_shows_nothing(cells):
    assert cells[6].outputs == []


def test_compile_error_shows_caret_without_traceback(cells):
    (err,) = [o for o in cells[5].outputs if o["output_type"] == "error"]
    tb = "\n".join(err["traceback"])
    assert "undefined_name" in tb and "^" in tb and "cell.c:4" in tb
    assert "Traceback" not in tb and "File " not in tb and "_magic.py" not in tb
    assert err["ename"] == "CellCompileError"


def test_profile_renders_inline(cells):
    html = html_of(cells[8])
    assert 'class="accjit-profile"' in html and "enqueue_launch" in html and "<svg" in html


def test_import_accjit_does_not_import_ipython():
    code = "import sys, accjit; assert 'IPython' not in sys.modules, 'IPython imported'; print('ok')"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


@pytest.mark.skipif(
    os.environ.get("ACC_DEVICE_TYPE", "multicore").lower() == "nvidia",
    reason="a running CUDA kernel cannot be stopped from the host, and a call waiting on it does not poll for SIGINT yet (multicore and host only)",
)
def test_interrupting_the_kernel_stops_a_long_call():
    """A call into a compute kernel whose gangs spin (for minutes unless
    stopped): interrupting the Jupyter kernel (SIGINT, as the Stop button)
    ends the cell with KeyboardInterrupt within a few seconds, and the
    kernel goes on working."""
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    try:
        setup = r'''
import numpy as np, accjit as acc
lib = acc.c(r"""
void spin_gangs(const volatile int *stop, long *count, long limit) {
    #pragma acc parallel loop num_gangs(8) gang
    for (int g = 0; g < 8; g++) {
        long k = 0;
        while (stop[0] == 0 && k < limit) k++;
        #pragma acc atomic update
        count[0] += k;
    }
}
""")
stop = np.zeros(1, np.int32); count = np.zeros(1, np.int64)
'''
        reply = kc.execute_interactive(setup, timeout=120)
        assert reply["content"]["status"] == "ok", reply["content"]
        # stop_on_error=False: the kernel must not abort the requests that
        # follow the interrupted one (it does for a while after an error)
        msg_id = kc.execute("lib.spin_gangs(stop, count, 1 << 40)", stop_on_error=False)
        time.sleep(1.0)
        t = time.perf_counter()
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=30)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = kc.get_shell_msg(timeout=30)
        took = time.perf_counter() - t
        assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt", reply["content"]
        assert took < 5.0, f"the interrupt took {took:.1f} s"
        # The abandoned kernel ends when told; the Jupyter kernel still works.
        reply = kc.execute_interactive("stop[0] = 1; acc.wait(); print(lib.spin_gangs(np.zeros(1, np.int32), np.zeros(1, np.int64), 3))", timeout=60)
        assert reply["content"]["status"] == "ok", reply["content"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
