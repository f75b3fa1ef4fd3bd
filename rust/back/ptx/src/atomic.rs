//! Atomic read-modify-write and compare-and-swap emitters (filled in by the ptxlib work).
