"""Fortran from Python (`acc.fortran`) and the command line (`accjit run
prog.f90`): argument passing by Fortran interface, the errors for wrong
arrays, output as gfortran writes it, stop/exit statuses, several files and
module discovery, the docs' example. Tests that need the front end to
compile skip while it cannot (it says so); the file checks run regardless."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import accjit as acc

ROOT = Path(__file__).resolve().parents[1]


def _front_end_ready():
    try:
        acc.fortran("subroutine probe()\nend subroutine\n")
        return True
    except acc.CompileError as e:
        if "cannot compile yet" in str(e):
            return False
        raise


needs_sema = pytest.mark.skipif(not _front_end_ready(), reason="the Fortran front end cannot compile yet (parsing only)")


def test_fortran_file_names_by_extension():
    for n in ("a.f90", "a.F90", "b.f", "b.F", "c.f95", "c.F03", "d.f08"):
        assert acc._core.is_fortran_file(n), n
    for n in ("a.c", "a.py", "a.h", "f90"):
        assert not acc._core.is_fortran_file(n), n


def test_module_files_are_found_beside_the_main_file(tmp_path):
    (tmp_path / "main.F90").write_text("program m\n  use consts\nend program\n")
    (tmp_path / "consts.f90").write_text("module consts\n  use kinds\nend module\n")
    (tmp_path / "zz_kinds.f90").write_text("module kinds\nend module\n")
    files = acc._core.fortran_sources([str(tmp_path / "main.F90")])
    assert [Path(n).name for n, _ in files] == ["main.F90", "consts.f90", "zz_kinds.f90"]
    assert files[1][1].startswith("module consts")


def test_compile_errors_point_at_the_fortran_source():
    with pytest.raises(acc.CompileError) as ei:
        acc.fortran("subroutine s(\n  x = \nend\n", name="bad.f90")
    assert ei.value.file == "bad.f90" and ei.value.line is not None, ei.value.rendered


# --- calls ----------------------------------------------------------------------

SRC = """
module kernels
contains
  subroutine scale2d(a, s)
    real(8), intent(inout) :: a(:,:)
    real(8), value :: s
    integer :: i, j
    !$acc parallel loop collapse(2) copy(a)
    do j = 1, size(a, 2)
      do i = 1, size(a, 1)
        a(i, j) = s * a(i, j) + i + 10 * j
      end do
    end do
  end subroutine

  subroutine axpy_explicit(n, a, x, y)
    integer, intent(in) :: n
    real, intent(in) :: a
    real, intent(in) :: x(n)
    real, intent(inout) :: y(n)
    integer :: i
    !$acc parallel loop copyin(x) copy(y)
    do i = 1, n
      y(i) = a * x(i) + y(i)
    end do
  end subroutine

  subroutine stats(x, total, count, scale)
    real(8), intent(in) :: x(:)
    real(8), intent(out) :: total
    integer, intent(out) :: count
    real(8), intent(in), optional :: scale
    total = sum(x)
    if (present(scale)) total = total * scale
    count = size(x)
  end subroutine

  integer function isum(v)
    integer, intent(in) :: v(:)
    isum = sum(v)
  end function

  real(8) function dot(x, y)
    real(8), intent(in) :: x(:), y(:)
    dot = dot_product(x, y)
  end function
end module
"""


@pytest.fixture(scope="module")
def m():
    if not _front_end_ready():
        pytest.skip("the Fortran front end cannot compile yet (parsing only)")
    return acc.fortran(SRC)


@needs_sema
def test_assumed_shape_2d_fortran_order_zero_copy(m):
    a = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    want = 2.0 * a + (np.arange(1, 4)[:, None] + 10 * np.arange(1, 5)[None, :])
    m.scale2d(a, 2.0)
    np.testing.assert_array_equal(a, want)


@needs_sema
def test_column_slices_pass_with_their_strides(m):
    base = np.asfortranarray(np.ones((3, 6)))
    view = base[:, ::2]  # first dimension contiguous, columns 2 apart
    m.scale2d(view, 3.0)
    want = np.ones((3, 6))
    want[:, ::2] = 3.0 + (np.arange(1, 4)[:, None] + 10 * np.arange(1, 4)[None, :])
    np.testing.assert_array_equal(base, want)


@needs_sema
def test_c_ordered_arrays_are_refused_with_what_to_pass(m):
    a = np.zeros((3, 4))
    with pytest.raises(ValueError, match=r"scale2d\(\): argument 'a'.*C-ordered.*np\.asfortranarray\(a\)"):
        m.scale2d(a, 1.0)


@needs_sema
def test_dtype_and_rank_errors_name_the_argument(m):
    with pytest.raises(TypeError, match=r"argument 'a'.*float32.*astype\(np\.float64\)"):
        m.scale2d(np.zeros((2, 2), dtype=np.float32, order="F"), 1.0)
    with pytest.raises(TypeError, match=r"rank-2 array, got a rank-1"):
        m.scale2d(np.zeros(4), 1.0)
    with pytest.raises(TypeError, match=r"missing argument\(s\) s: subroutine scale2d\(a, s\)"):
        m.scale2d(np.zeros((2, 2), order="F"))
    with pytest.raises(TypeError, match=r"takes 2 arguments \(3 given\)"):
        m.scale2d(np.zeros((2, 2), order="F"), 1.0, 2.0)
    with pytest.raises(TypeError, match=r"expects a NumPy array"):
        m.scale2d([[1.0]], 1.0)
    ro = np.zeros((2, 2), order="F")
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"read-only"):
        m.scale2d(ro, 1.0)


@needs_sema
def test_explicit_shape_and_scalars_by_reference(m):
    rng = np.random.default_rng(3)
    x = rng.random(100, dtype=np.float32)
    y = rng.random(100, dtype=np.float32)
    want = np.float32(2.5) * x + y
    m.axpy_explicit(100, 2.5, x, y)  # n and a by reference: temporaries
    np.testing.assert_allclose(y, want, rtol=1e-6)


@needs_sema
def test_zero_d_arrays_receive_intent_out_and_optionals_may_be_absent(m):
    x = np.arange(1.0, 6.0)
    total, count = np.zeros(()), np.zeros((), dtype=np.int32)
    assert m.stats(x, total, count) is None  # scale left out: absent
    assert (float(total), int(count)) == (15.0, 5)
    m.stats(x, total, count, 2.0)
    assert float(total) == 30.0
    m.stats(x, total, count, scale=None)
    assert float(total) == 15.0


@needs_sema
def test_function_results_and_case_insensitive_names(m):
    v = np.arange(10, dtype=np.int32)
    assert m.isum(v) == 45
    assert m.ISUM(v) == 45 and "isum" in m
    x = np.linspace(0, 1, 7)
    assert m.Dot(x, x) == pytest.approx(float(x @ x))
    assert "function dot(x, y)" in m.dot.__doc__
    with pytest.raises(AttributeError, match="no procedure 'nothere'"):
        m.nothere


@needs_sema
def test_cached_like_acc_c():
    a = acc.fortran(SRC)
    b = acc.fortran(SRC)
    assert b.from_cache
    assert a.procedures.keys() == b.procedures.keys()


@needs_sema
def test_the_docs_example_runs():
    text = (ROOT / "docs" / "fortran.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "docs/fortran.md has a Python example"
    for code in blocks:
        exec(compile(code, "docs/fortran.md", "exec"), {})


# --- whole programs -----------------------------------------------------------


def run_cli(*args, input=None):
    return subprocess.run([sys.executable, "-m", "accjit", "run", *map(str, args)], capture_output=True, text=True, input=input, timeout=120)


PRINTS = """program prints
  implicit none
  integer :: i
  real(8) :: a(4)
  do i = 1, 4
    a(i) = i * 0.5d0
  end do
  print *, 'sum', sum(a), 42, .true.
  write(*, '(A, I4, F8.3)') 'n=', 7, a(3)
  write(*, '(4F6.2)') a
  print *, 1.5, (1.0, -2.0)
end program
"""

# what gfortran 12 prints for PRINTS
PRINTS_OUT = (
    " sum   5.0000000000000000               42 T\n"
    "n=   7   1.500\n"
    "  0.50  1.00  1.50  2.00\n"
    "   1.50000000                (1.00000000,-2.00000000)\n"
)


@needs_sema
def test_run_prints_as_gfortran(tmp_path):
    p = tmp_path / "prints.f90"
    p.write_text(PRINTS)
    r = run_cli(p)
    assert r.returncode == 0, r.stderr
    assert r.stdout == PRINTS_OUT
    assert r.stderr == ""


@needs_sema
@pytest.mark.parametrize(
    "body, status, err",
    [
        ("stop", 0, ""),
        ("stop 3", 3, "STOP 3\n"),
        ("stop 'bye'", 0, "STOP bye\n"),
        ("error stop", 1, "ERROR STOP \n"),
        ("error stop 4", 4, "ERROR STOP 4\n"),
        ("call exit(7)", 7, ""),
    ],
)
def test_stop_and_exit_statuses(tmp_path, body, status, err):
    p = tmp_path / "s.f90"
    p.write_text(f"program s\n  print *, 'before'\n  {body}\n  print *, 'after'\nend program\n")
    r = run_cli(p)
    assert r.returncode == status, r.stderr
    assert r.stdout == " before\n"
    assert r.stderr == err


@needs_sema
def test_read_from_stdin_and_iostat(tmp_path):
    p = tmp_path / "r.f90"
    p.write_text(
        "program r\n  integer :: n, ios\n  real(8) :: x\n  read(*, *) n, x\n  print *, n * 2, x + 1\n"
        "  read(*, *, iostat=ios) n\n  print *, ios\n  read(*, *, iostat=ios) n\n  print *, ios\nend program\n"
    )
    r = run_cli(p, input="21 1.5\nabc\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "          42   2.5000000000000000     \n        5010\n          -1\n"


@needs_sema
def test_random_seed_put_makes_sequences_repeat(tmp_path):
    p = tmp_path / "rnd.f90"
    p.write_text(
        "program rnd\n  integer :: n, i\n  integer, allocatable :: s(:), g(:)\n  real(8) :: a(5), b(5)\n"
        "  call random_seed(size=n)\n  allocate(s(n), g(n))\n  s = [(i * 7, i = 1, n)]\n"
        "  call random_seed(put=s)\n  call random_seed(get=g)\n  if (any(g /= s)) stop 1\n"
        "  call random_number(a)\n  call random_seed(put=s)\n  call random_number(b)\n"
        "  if (any(a /= b)) stop 2\n  if (any(a < 0) .or. any(a >= 1)) stop 3\n  if (a(1) == a(2)) stop 4\n"
        "  print *, n\nend program\n"
    )
    r = run_cli(p)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "           8\n"


@needs_sema
def test_several_files_and_modules_found_beside_the_main_file(tmp_path):
    (tmp_path / "consts.f90").write_text("module consts\n  integer, parameter :: k = 6\nend module\n")
    (tmp_path / "ops.F90").write_text("module ops\n  use consts\ncontains\n  integer function twice_k()\n    twice_k = 2 * k\n  end function\nend module\n")
    (tmp_path / "main.F90").write_text(
        "program main\n  use ops\n#ifdef EXTRA\n  print *, twice_k() + EXTRA\n#else\n  print *, twice_k()\n#endif\nend program\n"
    )
    r = run_cli(tmp_path / "main.F90")  # ops.F90 and consts.f90 found beside it
    assert (r.returncode, r.stdout) == (0, "          12\n"), r.stderr
    r = run_cli("-DEXTRA=30", tmp_path / "main.F90", tmp_path / "ops.F90", "--", "arg")
    assert (r.returncode, r.stdout) == (0, "          42\n"), r.stderr
    r = run_cli(tmp_path / "main.F90", tmp_path / "nothere.f90")
    assert r.returncode == 2 and "cannot read" in r.stderr and "nothere.f90" in r.stderr


@needs_sema
@pytest.mark.parametrize("device", ["multicore", "host"])
def test_jacobi_benchmark_checks_both_against_numpy(device, capsys):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_fortran
    finally:
        sys.path.pop(0)
    before = acc.get_device_type()
    try:
        assert bench_fortran.main(["--quick", "--device", device]) == 0  # asserts the results inside
    finally:
        acc.set_device_type(before)
    out = capsys.readouterr().out
    assert f"{device}, float64 64x71" in out and re.search(r"^jacobi +\d+\.\d+ +\d+\.\d+ +\d+\.\d+$", out, re.M), out


KERNEL_PROG = """program k
  real(8) :: a(1000)
  integer :: i
  !$acc parallel loop copyout(a)
  do i = 1, 1000
    a(i) = 2.0d0 * i
  end do
  print *, sum(a)
end program
"""


@needs_sema
@pytest.mark.parametrize("cmd, marker", [("clif", "function u0:"), ("ir", "k.f90:4"), ("ptx", ".target sm_")])
def test_clif_ir_ptx_of_a_fortran_program(tmp_path, cmd, marker):
    p = tmp_path / "k.f90"
    p.write_text(KERNEL_PROG)
    r = subprocess.run([sys.executable, "-m", "accjit", cmd, str(p)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert marker in r.stdout


@needs_sema
def test_stop_inside_a_procedure_ends_only_the_call():
    m = acc.fortran("subroutine halt(n)\n  integer, value :: n\n  if (n > 0) stop 3\nend subroutine\n")
    m.halt(0)
    with pytest.raises(acc.ProgramExit) as ei:
        m.halt(1)
    assert ei.value.code == 3
    m.halt(0)  # the module still works


IO_PROG = 'program io2\n  implicit none\n  character(len=40) :: s\n  character(len=8) :: w\n  integer :: i, n, ios\n  real :: x\n  real(8) :: d\n  logical :: l\n  write(s, \'(I5, F8.2)\') 42, 3.14159\n  print \'(A, A, A)\', \'[\', s, \']\'\n  write(s, *) 7, 2.5\n  print *, \'[\', trim(s), \']\'\n  write(*, \'(A)\', advance=\'no\') \'no newline \'\n  write(*, \'(I0)\') 12\n  write(0, *) \'to stderr\'\n  do i = 1, 3\n    write(*, \'(I2, 1X)\', advance=\'no\') i\n  end do\n  write(*, *)\n  read(*, \'(I4, F6.2)\') n, x\n  print *, n, x\n  read(*, *) w, d, l\n  print *, \'[\', w, \']\', d, l\n  read(*, \'(A)\') w\n  print \'(A)\', w\n  read(*, \'(I3)\', iostat=ios) n\n  print *, \'ios\', ios\n  s = \'  123  4.5\'\n  read(s, *) n, x\n  print *, n, x\n  print \'(3(I3, :, ","))\', 1, 2\n  print \'(ES12.4, EN12.3, G0)\', 12345.678d0, 0.00012d0, 2.5\n  print \'(L2, A3, Z6, B10, O5)\', .false., \'abcd\', 255, 5, 64\n  print *, huge(1_8), -huge(1), 1.0e-30, 1.0d-300\nend program\n'
IO_INPUT = '  12 3.5  \nhello 2.5d0 T\nabcdefghij\nxyz\n'
# what gfortran 12 writes for IO_PROG given IO_INPUT
IO_OUT = (
    '[   42    3.14                           ]\n'
    ' [           7   2.50000000]\n'
    'no newline 12\n'
    ' 1  2  3 \n'
    '          12   3.50000000    \n'
    ' [hello   ]   2.5000000000000000      T\n'
    'abcdefgh\n'
    ' ios        5010\n'
    '         123   4.50000000    \n'
    '  1,  2\n'
    '  1.2346E+04 120.000E-062.50000000\n'
    ' Fabc    FF       101  100\n'
    '  9223372036854775807 -2147483647   1.00000000E-30   1.0000000000000000E-300\n'
)


@needs_sema
def test_internal_files_nonadvancing_stderr_and_formatted_input_as_gfortran(tmp_path):
    p = tmp_path / "io2.f90"
    p.write_text(IO_PROG)
    r = run_cli(p, input=IO_INPUT)
    assert r.returncode == 0, r.stderr
    assert r.stdout == IO_OUT
    assert r.stderr == " to stderr\n"


@needs_sema
def test_an_internal_write_past_the_record_ends_as_gfortran(tmp_path):
    p = tmp_path / "eor.f90"
    p.write_text("program eor\n  character(len=20) :: s\n  write(s, *) 7, 2.5\n  print *, s\nend program\n")
    r = run_cli(p)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"At line 3 of file {p}\nFortran runtime error: End of record\n"), r.stderr


KINDS_SRC = """
module kinds_api
contains
  logical function allpos(x)
    real(8), intent(in) :: x(:)
    allpos = all(x > 0)
  end function
  complex(8) function csum(z)
    complex(8), intent(in) :: z(:)
    csum = sum(z)
  end function
  subroutine fill2(a, n, m)
    integer, intent(in) :: n, m
    real, intent(out) :: a(n, m)
    integer :: i, j
    do j = 1, m
      do i = 1, n
        a(i, j) = i + 10 * j
      end do
    end do
  end subroutine
  subroutine twice_sz(a, n)
    integer(8), intent(inout) :: a(*)
    integer, value :: n
    a(1:n) = a(1:n) * 2
  end subroutine
  subroutine cscale(z, f)
    complex, intent(inout) :: z(:)
    complex, intent(in) :: f
    z = z * f
  end subroutine
  logical function anyset(l)
    logical, intent(in) :: l(:)
    anyset = any(l)
  end function
end module
"""


@needs_sema
def test_logical_complex_explicit_shape_assumed_size_and_integer8():
    k = acc.fortran(KINDS_SRC)
    assert k.allpos(np.ones(3)) is True and k.allpos(-np.ones(3)) is False  # logical results are bools
    assert k.csum(np.array([1 + 2j, 3 - 1j])) == 4 + 1j
    a = np.zeros((3, 4), dtype=np.float32, order="F")
    k.fill2(a, 3, 4)
    np.testing.assert_array_equal(a, np.arange(1, 4)[:, None] + 10 * np.arange(1, 5)[None, :])
    with pytest.raises(ValueError, match="np.asfortranarray"):
        k.fill2(np.zeros((3, 4), dtype=np.float32), 3, 4)
    b = np.arange(5, dtype=np.int64)
    k.twice_sz(b, 5)
    np.testing.assert_array_equal(b, 2 * np.arange(5))
    z = np.array([1 + 1j, 2], dtype=np.complex64)
    k.cscale(z, 2j)
    np.testing.assert_array_equal(z, np.array([-2 + 2j, 4j], dtype=np.complex64))
    assert k.anyset(np.array([0, 0, 1], dtype=np.int32)) is True
    assert k.anyset(np.array([0, 0], dtype=np.int32)) is False
    with pytest.raises(TypeError, match=r"anyset\(\): argument 'l'.*got a bool array; pass l.astype\(np.int32\)"):
        k.anyset(np.array([True]))
    assert "real, intent(out) :: a(d1,d2): Fortran-ordered NumPy float32 array" in k.fill2.__doc__


@needs_sema
def test_a_bad_read_without_iostat_ends_as_gfortran(tmp_path):
    p = tmp_path / "rd.f90"
    p.write_text("program rd\n  integer :: n\n  print *, 'reading'\n  read(*, *) n\n  print *, n\nend program\n")
    r = run_cli(p, input="abc\n")
    assert (r.returncode, r.stdout) == (2, " reading\n")
    assert r.stderr.startswith(f"At line 4 of file {p} (unit = 5, file = 'stdin')\nFortran runtime error: Bad integer for item 1 in list input\n"), r.stderr
    r = run_cli(p, input="")
    assert r.returncode == 2 and "Fortran runtime error: End of file" in r.stderr


IFACE_SRC = """
module iface_api
contains
  logical(1) function small_flag(n)
    integer, value :: n
    small_flag = n > 3
  end function
  integer function count_char(s, c)
    character(len=*), intent(in) :: s
    character(len=1), intent(in) :: c
    integer :: i
    count_char = 0
    do i = 1, len(s)
      if (s(i:i) == c) count_char = count_char + 1
    end do
  end function
  subroutine shout(s, out)
    character(len=*), intent(in) :: s
    character(len=*), intent(out) :: out
    integer :: i, k
    out = s
    do i = 1, len_trim(out)
      k = iachar(out(i:i))
      if (k >= 97 .and. k <= 122) out(i:i) = achar(k - 32)
    end do
  end subroutine
  subroutine fixed8(tag, n)
    character(len=8), intent(in) :: tag
    integer, intent(out) :: n
    n = len_trim(tag)
  end subroutine
  function greet(name) result(r)
    character(len=*), intent(in) :: name
    character(len=len(name) + 7) :: r
    r = 'hello, ' // name
  end function
  function outer(x, y) result(r)
    real(8), intent(in) :: x(:), y(:)
    real(8) :: r(size(x), size(y))
    integer :: i, j
    !$acc parallel loop collapse(2) copyin(x, y) copyout(r)
    do j = 1, size(y)
      do i = 1, size(x)
        r(i, j) = x(i) * y(j)
      end do
    end do
  end function
  function positive(x) result(r)
    integer, intent(in) :: x(:)
    logical :: r(size(x))
    r = x > 0
  end function
  subroutine grow(a)
    real(8), allocatable, intent(inout) :: a(:)
    a = [a, 1.0d0]
  end subroutine
end module
"""


@needs_sema
def test_logical_character_and_array_results_and_character_dummies():
    k = acc.fortran(IFACE_SRC)
    assert k.small_flag(5) is True and k.small_flag(2) is False
    text = "a banana, a cabana"
    assert k.count_char(text, "a") == text.count("a")
    assert k.count_char(text.encode(), b"n") == text.count("n")
    out = bytearray(len(text))
    k.shout(text, out)
    assert out.decode() == text.upper()
    with pytest.raises(TypeError, match=r"shout\(\): argument 'out'.*intent\(out\): pass a bytearray"):
        k.shout(text, "xyz")
    n = np.zeros((), dtype=np.int32)
    k.fixed8("abc", n)                      # padded with blanks to the declared len=8
    assert n == 3
    with pytest.raises(TypeError, match=r"count_char\(\): argument 's'.*expects a str or bytes"):
        k.count_char(3, "a")
    assert k.greet("Ada") == "hello, Ada"
    x, y = np.linspace(0.5, 2.0, 7), np.arange(1.0, 5.0)
    r = k.outer(x, y)
    assert r.shape == (7, 4) and r.flags.f_contiguous and r.dtype == np.float64
    np.testing.assert_allclose(r, np.outer(x, y))
    p = k.positive(np.array([3, -1, 0, 8], dtype=np.int32))
    assert p.dtype == np.bool_ and p.tolist() == [True, False, False, True]
    assert "character(len=*), intent(out) :: out: str or bytes, or a bytearray" in k.shout.__doc__
    with pytest.raises(TypeError, match=r"grow\(\): argument 'a'.*is an allocatable or pointer array, which Python cannot pass"):
        k.grow(np.zeros(3))
    assert "cannot be passed from Python" in k.grow.__doc__
    assert k.outer.signature == "real(8), dimension(:,:) function outer(x, y)"
