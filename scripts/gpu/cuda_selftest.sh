#!/usr/bin/env bash
# GPU check of the runtime's CUDA layer (rust/runtime/src/cuda/, issue 9
# B.2/B.4/B.5), no Python needed. Build on the development machine:
#
#     cargo build --release -p accjit-runtime --example cuda_selftest
#
# carry target/release/examples/cuda_selftest to the GPU machine and run
#
#     bash scripts/gpu/cuda_selftest.sh [PATH-TO-BINARY] [--quick]
#
# It checks discovery and properties, the caching allocator, copy round
# trips, copy bandwidth of 1 GiB (staged pageable, driver-direct pageable,
# registered; a sweep of chunk size x host threads x staging buffers),
# module loading through the disk cache (cold, warm, a new process that
# finds the cubin on disk, a corrupt cubin, an unwritable directory, bad
# PTX), saxpy, a .global symbol, launch latency, stream waits, and a kernel
# fault followed by recover(). The table is printed last (also saved in
# results/cuda_selftest.txt); exit status 1 when a check failed.
set -u
cd "$(dirname "$0")/../.."
BIN=${1:-target/release/examples/cuda_selftest}
[ $# -gt 0 ] && shift
mkdir -p results
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv 2>/dev/null | tee results/cuda_selftest.txt
"$BIN" "$@" 2>&1 | tee -a results/cuda_selftest.txt
exit "${PIPESTATUS[0]}"
