//! OpenACC directives (stub while the parser core settles).
use super::{PResult, Parser};
use crate::token::Token;
use accjit_ir::Stmt;

impl<'a> Parser<'a> {
    pub fn file_scope_pragma(&mut self, t: &Token) -> PResult<()> {
        self.err(t.span, "directives not yet supported")
    }
    pub fn stmt_pragma(&mut self, t: &Token, _out: &mut Vec<Stmt>) -> PResult<()> {
        self.err(t.span, "directives not yet supported")
    }
}
