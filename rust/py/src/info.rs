//! What `accjit info` and `accjit cache` report, as Python data: the disk
//! cache (directory, entries, size, limit; clearing it), and the CUDA
//! driver's state with each GPU's name, memory and compute capability.
//! The wording of the report is the CLI's (python/accjit/cli.py).

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `{dir, exists, entries, bytes, max_bytes}` of the on-disk kernel cache.
#[pyfunction]
fn disk_cache_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let i = accjit_driver::disk_cache_info();
    let d = PyDict::new(py);
    d.set_item("dir", i.dir.to_string_lossy().into_owned())?;
    d.set_item("exists", i.exists)?;
    d.set_item("entries", i.entries)?;
    d.set_item("bytes", i.bytes)?;
    d.set_item("max_bytes", i.max_bytes)?;
    Ok(d)
}

/// Removes the disk cache's entries (accjit's own files only);
/// `{entries, bytes}` removed.
#[pyfunction]
fn disk_cache_clear(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let r = py.detach(accjit_driver::disk_cache_clear);
    let d = PyDict::new(py);
    d.set_item("entries", r.entries)?;
    d.set_item("bytes", r.bytes)?;
    Ok(d)
}

/// Stores `payload` in the disk cache under the key of a cubin compiled
/// from `ptx` (compute capability 0.0, driver 0): what a GPU run stores,
/// written by the cache's own writer, for tests of `accjit cache` on
/// machines without a GPU. False when the store failed.
#[pyfunction]
fn _disk_cache_store(ptx: &str, payload: &[u8]) -> bool {
    let key = accjit_runtime::cuda::CacheKey::for_cubin(ptx, (0, 0), 0);
    accjit_runtime::cuda::DiskCache::from_env().store(&key, payload)
}

/// `{available, driver_version, devices: [{ordinal, name, memory,
/// compute_capability, sm_count} | {ordinal, error}]}`: the CUDA driver
/// (loaded and `cuInit` done) and its GPUs. Opens each GPU's context.
#[pyfunction]
fn cuda_devices(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    use accjit_runtime::cuda;
    let d = PyDict::new(py);
    let available = py.detach(cuda::available);
    d.set_item("available", available)?;
    d.set_item("driver_version", if available { cuda::driver_version() } else { 0 })?;
    let devices = pyo3::types::PyList::empty(py);
    for i in 0..cuda::device_count() {
        let g = PyDict::new(py);
        g.set_item("ordinal", i)?;
        match py.detach(|| cuda::gpu(i)) {
            Ok(gpu) => {
                g.set_item("name", gpu.name())?;
                g.set_item("memory", gpu.total_memory())?;
                g.set_item("compute_capability", gpu.compute_capability())?;
                g.set_item("sm_count", gpu.sm_count())?;
            }
            Err(e) => g.set_item("error", e.to_string())?,
        }
        devices.append(g)?;
    }
    d.set_item("devices", devices)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(disk_cache_info, m)?)?;
    m.add_function(wrap_pyfunction!(disk_cache_clear, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_devices, m)?)?;
    m.add_function(wrap_pyfunction!(_disk_cache_store, m)?)?;
    Ok(())
}
