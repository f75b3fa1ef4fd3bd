//! C math functions as PTX `.func`s (filled in by the ptxlib work).
