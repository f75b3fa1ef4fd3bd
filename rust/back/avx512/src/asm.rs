//! x86-64 encoder (placeholder).
