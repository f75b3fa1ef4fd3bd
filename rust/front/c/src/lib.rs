//! The C front end: preprocessor, lexer, parser and type checker, producing
//! accjit IR with OpenACC directives validated and attached.
//!
//! - `token`: the preprocessing tokens shared by preprocessor and parser.
//! - `lex`, `pp`, `headers`: the preprocessor and bundled headers.
//! - `parse`: the recursive-descent parser and type checker (IR built
//!   directly; `#pragma acc` directives validated into `accjit_ir::acc`).

use accjit_ir::{Diagnostics, Module, SourceMap};
use std::path::PathBuf;

/// Options of one C compilation.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// `-D name[=value]`
    pub defines: Vec<(String, Option<String>)>,
    /// `-U name`
    pub undefines: Vec<String>,
    /// `-I dir`, searched after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
}

/// Preprocess, parse and type-check `text` (named `name` in diagnostics).
/// Every file read is added to `sm`; diagnostics point into it.
pub fn compile(sm: &mut SourceMap, name: &str, text: &str, opts: &CompileOptions) -> Result<Module, Diagnostics> {
    let pp = pp::PpOptions { defines: opts.defines.clone(), undefines: opts.undefines.clone(), include_dirs: opts.include_dirs.clone() };
    let tokens = pp::preprocess(sm, name, text, &pp)?;
    parse::parse_tokens(tokens, Some(sm))
}

/// Parse and type-check preprocessed tokens (ending with `Eof`) into a module.
pub fn parse_tokens(tokens: Vec<token::Token>, sm: Option<&SourceMap>) -> Result<Module, Diagnostics> {
    parse::parse_tokens(tokens, sm)
}

pub mod headers;
pub mod lex;
pub mod parse;
pub mod pp;
pub mod token;
