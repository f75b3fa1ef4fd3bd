//! Placeholder until the emitter lands.
use crate::{Code, Program, Unsupported};

pub fn compile(_p: &Program) -> Result<Code, Unsupported> {
    Err(Unsupported("not yet implemented".into()))
}
