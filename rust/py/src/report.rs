//! The compile report (`accjit_driver::Report`, made for every program: C,
//! Fortran, Python kernels) as Python data: `Module.report()` and the
//! `regions`/`loops` of `Kernel.inspect()`. `python/accjit/_report.py`
//! renders it as text and HTML.

use accjit_driver::{Program, Report};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Each region as a dict: `kind`, `file`, `line`, `source`, `function`,
/// `clauses` [(clause, var)] — with `added`, [(clause, var, whether the
/// front end added it)] —, `<implicit_key>` [(clause, var, why)],
/// `launch` [(clause, value)], `kernels`, `enclosing` [(var, line)].
pub fn regions<'py>(py: Python<'py>, r: &Report, implicit_key: &str, added: bool) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for r in &r.regions {
        let d = PyDict::new(py);
        d.set_item("kind", &r.kind)?;
        d.set_item("file", &r.file)?;
        d.set_item("line", r.line)?;
        d.set_item("source", &r.source)?;
        d.set_item("function", &r.function)?;
        if added {
            let clauses: Vec<(String, String, bool)> = r.clauses.iter().enumerate().map(|(i, (c, v))| (c.clone(), v.clone(), r.added.contains(&i))).collect();
            d.set_item("clauses", clauses)?;
        } else {
            d.set_item("clauses", r.clauses.clone())?;
        }
        d.set_item(implicit_key, r.implicit.clone())?;
        d.set_item("launch", r.launch.clone())?;
        d.set_item("kernels", r.kernels.clone())?;
        d.set_item("enclosing", r.enclosing.clone())?;
        out.append(d)?;
    }
    Ok(out)
}

/// Each loop as a dict: `function`, `file`, `line`, `source`, `schedule`, `reason`,
/// `clauses` [(clause, var)] (its reductions and privates).
pub fn loops<'py>(py: Python<'py>, r: &Report) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for l in &r.loops {
        let d = PyDict::new(py);
        d.set_item("function", &l.function)?;
        d.set_item("file", &l.file)?;
        d.set_item("line", l.line)?;
        d.set_item("source", &l.source)?;
        d.set_item("schedule", &l.schedule)?;
        d.set_item("reason", &l.reason)?;
        d.set_item("clauses", l.clauses.clone())?;
        out.append(d)?;
    }
    Ok(out)
}

/// The whole report of a program: `name`, `device_type`, `regions`,
/// `loops`, `kernels` (count), `timings` (seconds per stage),
/// `from_disk_cache` (the code was loaded from the disk cache).
pub fn program_report<'py>(py: Python<'py>, p: &Program) -> PyResult<Bound<'py, PyDict>> {
    let r = p.report();
    let d = PyDict::new(py);
    d.set_item("name", p.name())?;
    d.set_item("device_type", p.device_type())?;
    d.set_item("regions", regions(py, r, "implicit", true)?)?;
    d.set_item("loops", loops(py, r)?)?;
    d.set_item("kernels", p.kernel_count())?;
    let t = p.timings();
    let td = PyDict::new(py);
    td.set_item("parse", t.parse.as_secs_f64())?;
    td.set_item("lower", t.lower.as_secs_f64())?;
    td.set_item("codegen", t.codegen.as_secs_f64())?;
    td.set_item("total", t.total.as_secs_f64())?;
    d.set_item("timings", td)?;
    d.set_item("from_disk_cache", t.from_disk)?;
    Ok(d)
}
