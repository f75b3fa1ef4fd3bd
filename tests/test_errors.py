"""Errors users make, and that the process survives all of them."""

import numpy as np
import pytest

import accjit as acc

SAXPY = r"""
void saxpy(int n, float a, const float *x, float *y) {
    #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


@pytest.fixture(scope="module")
def lib():
    return acc.c(SAXPY)


def test_malformed_pragma_has_location():
    src = "void f(int n, float *a) {\n    #pragma acc parallel loop copyin(a[0:n]\n    for (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    with pytest.raises(acc.CompileError) as ei:
        acc.c(src, name="bad_pragma.c")
    e = ei.value
    assert str(e).startswith("bad_pragma.c:2:"), str(e)
    assert e.file == "bad_pragma.c" and e.line == 2 and e.col >= 1
    assert "#pragma acc parallel loop" in e.rendered
    assert "^" in e.rendered


def test_unknown_clause():
    src = "void f(int n, float *a) {\n#pragma acc parallel loop frobnicate(a)\nfor (int i = 0; i < n; i++) a[i] = 0;\n}\n"
    with pytest.raises(acc.CompileError) as ei:
        acc.c(src, name="clause.c")
    assert str(ei.value).startswith("clause.c:2:")
    assert "frobnicate" in str(ei.value)


def test_undeclared_variable():
    with pytest.raises(acc.CompileError) as ei:
        acc.c("int f(void) {\n  return undeclared_thing + 1;\n}\n", name="undecl.c")
    e = ei.value
    assert str(e).startswith("undecl.c:2:10:"), str(e)
    assert "undeclared_thing" in str(e)
    assert "return undeclared_thing + 1;" in e.rendered


def test_syntax_error_is_not_fatal_to_the_cache():
    with pytest.raises(acc.CompileError):
        acc.c("int f( { }")
    with pytest.raises(acc.CompileError):  # failures are not cached as successes
        acc.c("int f( { }")


def test_wrong_dtype_names_parameter(lib):
    x = np.ones(4, dtype=np.float64)
    y = np.ones(4, dtype=np.float32)
    with pytest.raises(TypeError) as ei:
        lib.saxpy(4, 1.0, x, y)
    msg = str(ei.value)
    assert "saxpy(): parameter 'x'" in msg
    assert "float64" in msg and "x.astype(np.float32)" in msg


def test_float32_for_double_pointer():
    lib = acc.c("double first(const double *p) { return p[0]; }")
    with pytest.raises(TypeError, match=r"parameter 'p' \(const double \*\) got a float32 array"):
        lib.first(np.ones(3, dtype=np.float32))


def test_wrong_arg_count(lib):
    with pytest.raises(TypeError) as ei:
        lib.saxpy(4, 1.0)
    msg = str(ei.value)
    assert "saxpy() takes 4 arguments (2 given)" in msg
    assert "void saxpy(int n, float a, const float *x, float *y)" in msg


def test_non_contiguous_array(lib):
    x = np.ones(8, dtype=np.float32)[::2]
    y = np.ones(4, dtype=np.float32)
    with pytest.raises(ValueError, match=r"parameter 'x'.*non-contiguous.*np.ascontiguousarray\(x\)"):
        lib.saxpy(4, 1.0, x, y)


def test_read_only_array_for_non_const_pointer(lib):
    x = np.ones(4, dtype=np.float32)
    y = np.ones(4, dtype=np.float32)
    y.flags.writeable = False
    with pytest.raises(ValueError, match=r"parameter 'y'.*read-only"):
        lib.saxpy(4, 1.0, x, y)
    # a read-only array is fine where the pointee is const
    x.flags.writeable = False
    y2 = np.ones(4, dtype=np.float32)
    lib.saxpy(4, 1.0, x, y2)
    assert (y2 == 2).all()


def test_scalar_type_errors(lib):
    x = np.ones(4, dtype=np.float32)
    y = np.ones(4, dtype=np.float32)
    with pytest.raises(TypeError, match=r"parameter 'n' \(int\) expects an integer, got float"):
        lib.saxpy(4.0, 1.0, x, y)
    with pytest.raises(TypeError, match=r"parameter 'a' \(float\) expects a real number, got str"):
        lib.saxpy(4, "1", x, y)
    with pytest.raises(OverflowError, match=r"parameter 'n'"):
        lib.saxpy(2**40, 1.0, x, y)
    with pytest.raises(TypeError, match=r"parameter 'x'.*expects a NumPy array or None, got list"):
        lib.saxpy(4, 1.0, [1.0, 2.0], y)


def test_unknown_function_and_keyword(lib):
    with pytest.raises(AttributeError, match="no function 'daxpy'"):
        lib.daxpy
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        lib.saxpy(4, 1.0, None, None, z=1)


def test_runtime_errors_are_acc_errors():
    a = np.zeros(16)
    with pytest.raises(acc.NotPresentError) as ei:
        acc.update_self(a)
    e = ei.value
    assert isinstance(e, acc.AccError)
    assert e.code_name == "acc_error_not_present"
    lo, hi = e.host_range
    assert hi - lo == a.nbytes
    with pytest.raises(acc.AccError):
        with acc.data(present=[a]):
            pass
    with pytest.raises(ValueError, match="contiguous"):
        acc.copyin(np.zeros((4, 4))[:, 1])
    with pytest.raises(TypeError):
        acc.copyin([1, 2, 3])


def test_bad_device_type():
    with pytest.raises(ValueError, match="quantum"):
        acc.set_device_type("quantum")
    with pytest.raises(acc.CompileError, match="quantum"):
        acc.c("int f(void){return 0;}", device_type="quantum")


def test_process_survives_everything(lib):
    # After all of the above, the module and new compilations still work.
    x = np.arange(4, dtype=np.float32)
    y = np.zeros(4, dtype=np.float32)
    lib.saxpy(4, 2.0, x, y)
    assert y.tolist() == [0.0, 2.0, 4.0, 6.0]
    assert acc.c("int one(void) { return 1; }").one() == 1
