#!/usr/bin/env bash
# GPU check of Fortran from Python and the command line on the nvidia device
# (issue 11, fdrive): tests/test_fortran_api.py with ACC_DEVICE_TYPE=nvidia
# (acc.fortran's arrays on discrete memory: implicit and explicit copies of
# Fortran-ordered arrays, column slices, 0-d intent(out) results; accjit run
# of Fortran programs whose output must equal gfortran's), then the Fortran
# vs C Jacobi benchmark on nvidia and multicore. Run with the wheel
# installed and PYTHONPATH set:
#
#     bash scripts/gpu/fortran_api_gpu.sh
#
# Prints a short table last (also in results/fortran_api_gpu.txt); exit
# status 1 when a check failed.
set -u
cd "$(dirname "$0")/../.."
mkdir -p results
OUT=results/fortran_api_gpu.txt
: > "$OUT"
status=0
ACC_DEVICE_TYPE=nvidia python -m pytest -q tests/test_fortran_api.py -p no:cacheprovider 2>&1 | tail -15 | tee -a "$OUT"
[ "${PIPESTATUS[0]}" -eq 0 ] && t1=pass || { t1=FAIL; status=1; }
python benchmarks/bench_fortran.py --device nvidia --n 4000 --reps 21 2>&1 | tee -a "$OUT"
[ "${PIPESTATUS[0]}" -eq 0 ] && b1=pass || { b1=FAIL; status=1; }
python benchmarks/bench_fortran.py --device multicore --n 2000 --reps 11 2>&1 | tee -a "$OUT"
[ "${PIPESTATUS[0]}" -eq 0 ] && b2=pass || { b2=FAIL; status=1; }
{
  echo
  echo "check                                   result"
  echo "test_fortran_api.py on nvidia           $t1"
  echo "bench_fortran.py nvidia (checked)       $b1"
  echo "bench_fortran.py multicore (checked)    $b2"
} | tee -a "$OUT"
exit $status
