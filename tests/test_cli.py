"""The `accjit` command: run (exit codes, argv, stdout), clif, ir, info, errors."""

import pytest

PROG = r"""
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10;
    double *a = malloc(n * sizeof(double));
    double s = 0.0;
    #pragma acc parallel loop copyout(a[0:n])
    for (int i = 0; i < n; i++) a[i] = 2.0 * i;
    for (int i = 0; i < n; i++) s += a[i];
    printf("n=%d sum=%.1f argc=%d last=%s\n", n, s, argc, argv[argc - 1]);
    free(a);
    return argc > 2 ? atoi(argv[2]) : 0;
}
"""


@pytest.fixture
def prog(tmp_path):
    p = tmp_path / "prog.c"
    p.write_text(PROG)
    return p


def test_run_prints_and_exits_zero(accjit_cli, prog):
    r = accjit_cli("run", prog, "100")
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"n=100 sum=9900.0 argc=2 last=100\n"
    assert r.stderr == ""


def test_run_exit_code_and_argv(accjit_cli, prog):
    r = accjit_cli("run", prog, "4", "7")
    assert r.returncode == 7
    assert "n=4 sum=12.0 argc=3 last=7" in r.stdout
    r = accjit_cli("run", prog, "3", "-5", "--flag")  # dash arguments go to the program
    assert "argc=4 last=--flag" in r.stdout
    assert r.returncode == 251  # -5 & 0xff


def test_run_with_defines(accjit_cli, tmp_path):
    p = tmp_path / "d.c"
    p.write_text("int main(void) { return CODE + 1; }\n")
    r = accjit_cli("run", "-D", "CODE=41", p)
    assert r.returncode == 42, r.stderr
    r = accjit_cli("run", "-DCODE=1", "--device", "host", p)
    assert r.returncode == 2, r.stderr


def test_exit_inside_program(accjit_cli, tmp_path):
    p = tmp_path / "e.c"
    p.write_text('#include <stdio.h>\n#include <stdlib.h>\nint main(void) { printf("bye\\n"); exit(3); return 0; }\n')
    r = accjit_cli("run", p)
    assert r.returncode == 3
    assert r.stdout == "bye\n"


def test_compile_error_exit_1(accjit_cli, tmp_path):
    p = tmp_path / "bad.c"
    p.write_text("int main(void) {\n  return nope;\n}\n")
    r = accjit_cli("run", p)
    assert r.returncode == 1
    assert r.stdout == ""
    assert f"{p}:2:" in r.stderr
    assert "return nope;" in r.stderr and "^" in r.stderr


def test_missing_file(accjit_cli, tmp_path):
    r = accjit_cli("run", tmp_path / "nope.c")
    assert r.returncode == 2
    assert "cannot read" in r.stderr


def test_clif_and_ir(accjit_cli, prog):
    r = accjit_cli("clif", prog)
    assert r.returncode == 0, r.stderr
    assert "function" in r.stdout
    r = accjit_cli("ir", prog)
    assert r.returncode == 0, r.stderr
    assert "main" in r.stdout


def test_ptx(accjit_cli, tmp_path):
    p = tmp_path / "k.c"
    p.write_text(
        "void scale(int n, float a, float *x) {\n"
        "  #pragma acc parallel loop copy(x[0:n])\n"
        "  for (int i = 0; i < n; i++) x[i] *= a;\n"
        "}\n"
    )
    r = accjit_cli("ptx", p)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(".version ")
    assert ".visible .entry scale_parallel_0(" in r.stdout
    # The module's own PTX is the same back end's.
    import accjit as acc

    assert ".entry scale_parallel_0(" in acc.c(p.read_text()).ptx()


def test_ptx_rejects_host_only_calls(accjit_cli, tmp_path):
    p = tmp_path / "bad.c"
    p.write_text(
        "#include <stdio.h>\n"
        "void f(int n, int *y) {\n"
        "  #pragma acc parallel loop copy(y[0:n])\n"
        "  for (int i = 0; i < n; i++) y[i] = fopen(\"x\", \"r\") != 0;\n"
        "}\n"
    )
    r = accjit_cli("ptx", p)
    assert r.returncode == 1
    assert r.stdout == ""
    assert f"{p}:4:" in r.stderr and "'fopen'" in r.stderr and "nvidia" in r.stderr


def test_info(accjit_cli):
    r = accjit_cli("info")
    assert r.returncode == 0
    assert "multicore" in r.stdout and "host" in r.stdout
    assert "threads:" in r.stdout


def test_kernels_c_anchor(accjit_cli, shared_dir):
    if shared_dir is None:
        pytest.skip("shared/bench/kernels.c is not beside the repository")
    r = accjit_cli("run", shared_dir / "bench" / "kernels.c", "1000000", "512", "128", timeout=600)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    for word in ("saxpy", "jacobi", "reduction", "matmul", "check"):
        assert any(l.startswith(word) for l in lines), r.stdout
    # sum of x[i] = (i % 1000) / 1000 over 1e6 elements = 1000 * 499.5 / 1000 * 1000
    red = next(l for l in lines if l.startswith("reduction"))
    assert "sum=4.995000e+05" in red, red


def test_device_option_sets_the_runtime_device(accjit_cli, tmp_path):
    p = tmp_path / "dev.c"
    p.write_text(r"""
#include <openacc.h>
#include <stdio.h>
int main(void) {
    printf("%d\n", (int)acc_get_device_type());
    return 0;
}
""")
    r = accjit_cli("run", "--device", "host", p)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) == 2  # acc_device_host
    r = accjit_cli("run", "--device", "multicore", p)
    assert int(r.stdout) == 7  # acc_device_multicore
    r = accjit_cli("run", p, env={"ACC_DEVICE_TYPE": "host"})
    assert int(r.stdout) == 2
    r = accjit_cli("run", "--device", "fpga", p)
    assert r.returncode == 2 and "fpga" in r.stderr


def test_nvidia_without_a_gpu_is_a_clean_error(accjit_cli, prog):
    """`nvidia` compiles anywhere; running on it without a GPU says so (no crash)."""
    import accjit as acc

    if acc.get_num_devices("nvidia") > 0:
        pytest.skip("this machine has an nvidia device")
    r = accjit_cli("run", "--device", "nvidia", prog, "10")
    assert r.returncode == 2
    assert "no nvidia device" in r.stderr, r.stderr
    r = accjit_cli("run", prog, "10", env={"ACC_DEVICE_TYPE": "nvidia"})
    assert r.returncode == 1
    assert "no nvidia device" in r.stderr and "prog.c:" in r.stderr, r.stderr
    assert r.stdout == ""
    # The program compiled for nvidia carries the CPU form too: on multicore it runs.
    m = acc.c(PROG.replace("int main(int argc, char **argv)", "int run_it(int argc, char **argv)"), device_type="nvidia")
    assert m.device_type == "nvidia"
