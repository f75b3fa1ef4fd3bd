//! Semantic lowering: the ASTs of one program's files → accjit IR (the
//! same pre-lowering IR the C front end builds).
//!
//! Order: modules first, in dependency order of their `use`s (each module's
//! variables become IR globals, its procedures `module__name`), then every
//! external procedure's signature (so calls type-check in any order), then
//! the bodies of the external procedures and the main program (IR `main`,
//! returning the exit status). A procedure's internal procedures are
//! declared after its specification part (they see its variables by host
//! association: passed by reference, `cx::HostArg`) and defined after it.
//!
//! Files: `cx` (context, where variables live), `types`/`consts` (types,
//! kinds, folding), `decl` (specification parts), `expr` (scalar
//! expressions), `array` (sections, array expressions as loops,
//! constructors), `intrinsic` (with `reduce`, `transform`, `helpers`), `call` (procedures and calls), `stmt`
//! (execution part), `io` (print/write/read/stop), `acc` (directives),
//! `byref` (variables a compute construct reaches by reference),
//! `builtin` (the `openacc`, `iso_c_binding`, `iso_fortran_env` modules).

mod acc;
mod array;
mod builtin;
mod byref;
mod call;
mod consts;
mod cx;
mod decl;
mod dtype;
mod expr;
mod helpers;
mod intrinsic;
mod io;
mod reduce;
mod stmt;
mod transform;
mod types;
mod walk;

use crate::ast;
use crate::{CompileOptions, FortranModule};
use accjit_ir::{Diagnostic, Diagnostics, SourceMap, Span};
use cx::{ModScope, Shared, Sym};
use std::collections::{HashMap, HashSet};

pub use types::FType;

/// Lower the parsed files of one program.
pub fn lower(sm: &SourceMap, files: &[ast::File], _opts: &CompileOptions) -> Result<FortranModule, Diagnostics> {
    let mut sh = Shared { sm: sm.clone(), ..Default::default() };
    let units: Vec<&ast::ProgramUnit> = files.iter().flat_map(|f| f.units.iter()).collect();

    // Modules in dependency order.
    let mut modules: HashMap<String, &ast::ProgramUnit> = HashMap::new();
    for u in &units {
        if u.kind == ast::UnitKind::Module {
            let name = u.name.as_ref().map(|n| n.text.clone()).unwrap_or_default();
            if modules.insert(name.clone(), u).is_some() {
                return Err(Diagnostic::error(u.head_span, format!("module `{name}` is defined twice")).into());
            }
        }
    }
    let mut done: HashSet<String> = HashSet::new();
    let mut order = vec![];
    let mut names: Vec<&String> = modules.keys().collect();
    names.sort();
    for name in names {
        visit_module(name, &modules, &mut done, &mut vec![], &mut order)?;
    }
    for name in &order {
        decl::compile_module(&mut sh, modules[name.as_str()])?;
    }

    // External procedures: signatures first, then bodies.
    let externals: Vec<&ast::ProgramUnit> = units.iter().copied().filter(|u| matches!(u.kind, ast::UnitKind::Subroutine | ast::UnitKind::Function)).collect();
    let globals = HashMap::new();
    for u in &externals {
        let name = u.name.as_ref().map(|n| n.text.clone()).unwrap_or_default();
        if sh.procs.contains_key(&name) {
            return Err(Diagnostic::error(u.head_span, format!("procedure `{name}` is defined twice")).into());
        }
        call::declare_proc(&mut sh, u, &globals, &name, &name, None)?;
    }
    for u in &externals {
        let name = u.name.as_ref().map(|n| n.text.clone()).unwrap_or_default();
        call::define_proc(&mut sh, u, &globals, &name)?;
    }
    let mut main = None;
    let programs: Vec<&ast::ProgramUnit> = units.iter().copied().filter(|u| u.kind == ast::UnitKind::Program).collect();
    if programs.len() > 1 {
        return Err(Diagnostic::error(programs[1].head_span, "a second main program").into());
    }
    if let Some(p) = programs.first() {
        call::define_program(&mut sh, p)?;
        main = Some("main".to_string());
    }
    accjit_ir::validate::validate(&sh.m, accjit_ir::validate::Stage::Parsed)?;
    Ok(FortranModule { module: sh.m, procedures: sh.interfaces, main })
}

/// Depth-first over `use`s: `order` gets each module after those it uses.
fn visit_module(
    name: &str,
    modules: &HashMap<String, &ast::ProgramUnit>,
    done: &mut HashSet<String>,
    stack: &mut Vec<String>,
    order: &mut Vec<String>,
) -> Result<(), Diagnostics> {
    if done.contains(name) {
        return Ok(());
    }
    if stack.iter().any(|s| s == name) {
        let u = modules[name];
        return Err(Diagnostic::error(u.head_span, format!("module `{name}` uses itself (through {})", stack.join(" -> "))).into());
    }
    stack.push(name.to_string());
    let u = modules[name];
    for (m, sp) in uses_of(u) {
        if builtin::is_builtin_module(&m) {
            continue;
        }
        if !modules.contains_key(&m) {
            return Err(Diagnostic::error(sp, format!("module `{m}` not found"))
                .with_hint("pass the file defining it too (`accjit run main.f90 mod.f90`), or put it beside the main file")
                .into());
        }
        visit_module(&m, modules, done, stack, order)?;
    }
    stack.pop();
    done.insert(name.to_string());
    order.push(name.to_string());
    Ok(())
}

/// The modules a unit (and its contained procedures) uses.
fn uses_of(u: &ast::ProgramUnit) -> Vec<(String, Span)> {
    let mut out = vec![];
    for d in &u.decls {
        if let ast::DeclKind::Use { module, .. } = &d.kind {
            out.push((module.text.clone(), module.span));
        }
    }
    for c in &u.contains {
        out.extend(uses_of(c));
    }
    out
}

pub(crate) fn unit_name(u: &ast::ProgramUnit) -> String {
    u.name.as_ref().map(|n| n.text.clone()).unwrap_or_else(|| "main".into())
}

/// The public names of a module, for `use`.
pub(crate) fn module_scope(sh: &Shared, name: &str) -> Option<HashMap<String, Sym>> {
    sh.modules.get(name).map(|m: &ModScope| m.syms.clone())
}
