//! Text form of the IR for snapshot tests (to be written).
