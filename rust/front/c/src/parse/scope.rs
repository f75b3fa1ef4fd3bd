//! Lexical scopes: ordinary identifiers (variables, functions, typedef names,
//! enumerators) and tags (`struct`/`union`/`enum` names), innermost first.

use super::ctype::CType;
use accjit_ir::{GlobalId, LocalId, Span, StructId};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub enum Sym {
    Local {
        id: LocalId,
        ty: CType,
        is_const: bool,
    },
    Global {
        id: GlobalId,
        ty: CType,
        is_const: bool,
    },
    /// Index into the parser's function table.
    Func(usize),
    Typedef {
        ty: CType,
        is_const: bool,
    },
    Enum(i64),
}

#[derive(Clone, Debug)]
pub enum Tag {
    Struct(StructId),
    Enum,
}

#[derive(Default)]
struct Scope {
    syms: HashMap<String, (Sym, Span)>,
    tags: HashMap<String, Tag>,
}

pub struct Scopes {
    stack: Vec<Scope>,
}

impl Scopes {
    pub fn new() -> Scopes {
        Scopes { stack: vec![Scope::default()] }
    }
    pub fn push(&mut self) {
        self.stack.push(Scope::default());
    }
    pub fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }
    pub fn at_file_scope(&self) -> bool {
        self.stack.len() == 1
    }
    pub fn lookup(&self, name: &str) -> Option<&Sym> {
        self.stack.iter().rev().find_map(|s| s.syms.get(name).map(|(s, _)| s))
    }
    /// The symbol declared with this name in the innermost scope, with its span.
    pub fn lookup_here(&self, name: &str) -> Option<&(Sym, Span)> {
        self.stack.last().and_then(|s| s.syms.get(name))
    }
    /// True when `name` resolves to a symbol of the innermost block, or of
    /// the parameter scope just outside a function's body block.
    pub fn declared_in_current_block(&self, name: &str) -> bool {
        let Some(at) = self.stack.iter().rposition(|s| s.syms.contains_key(name)) else { return false };
        at + 1 == self.stack.len() || (at == 1 && self.stack.len() == 3)
    }
    pub fn declare(&mut self, name: &str, sym: Sym, span: Span) {
        if let Some(s) = self.stack.last_mut() {
            s.syms.insert(name.to_string(), (sym, span));
        }
    }
    /// Declare at file scope whatever the current depth (block-scope `extern`).
    pub fn declare_global(&mut self, name: &str, sym: Sym, span: Span) {
        self.stack[0].syms.insert(name.to_string(), (sym, span));
    }
    pub fn is_typedef(&self, name: &str) -> bool {
        matches!(self.lookup(name), Some(Sym::Typedef { .. }))
    }
    pub fn lookup_tag(&self, name: &str) -> Option<&Tag> {
        self.stack.iter().rev().find_map(|s| s.tags.get(name))
    }
    pub fn lookup_tag_here(&self, name: &str) -> Option<&Tag> {
        self.stack.last().and_then(|s| s.tags.get(name))
    }
    pub fn declare_tag(&mut self, name: &str, tag: Tag) {
        if let Some(s) = self.stack.last_mut() {
            s.tags.insert(name.to_string(), tag);
        }
    }
    /// Every ordinary name visible (for "did you mean" hints).
    pub fn visible_names(&self) -> Vec<String> {
        self.stack.iter().flat_map(|s| s.syms.keys().cloned()).collect()
    }
}
