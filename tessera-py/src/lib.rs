//! Python bindings for tessera (module `tessera._tessera`).
//!
//! Batches come in through the Arrow PyCapsule interface (or Python lists),
//! go through the library's batch APIs with the GIL released, and go back
//! out as `pyarrow.Array`s.

mod columns;
mod errors;
mod fpe;
mod keyset;
mod keyset_fpe;
mod pgp;
mod pgp_certs;
mod pgp_io;
mod pgp_keys;
mod pgp_sign;
mod siv;

use pyo3::prelude::*;

#[pymodule]
fn _tessera(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<fpe::PyFF1>()?;
    m.add_class::<fpe::PyFF3_1>()?;
    m.add_class::<fpe::PyFF3>()?;
    m.add_class::<siv::PyAesSiv>()?;
    m.add_class::<keyset::PyKeyset>()?;
    m.add_class::<keyset::PyTransform>()?;
    m.add_function(wrap_pyfunction!(pgp::encrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(pgp::decrypt_file, m)?)?;
    m.add_function(wrap_pyfunction!(pgp::encrypt_stream, m)?)?;
    m.add_function(wrap_pyfunction!(pgp::decrypt_stream, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_keys::generate_key, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_keys::extract_cert, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_keys::inspect_keys, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_certs::revoke_key, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_certs::merge_certs, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_certs::update_key, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_certs::certify_userid, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_certs::validate_userid, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_sign::sign, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_sign::sign_file, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_sign::verify, m)?)?;
    m.add_function(wrap_pyfunction!(pgp_sign::verify_file, m)?)?;
    m.add_class::<pgp_keys::KeyInfo>()?;
    m.add_class::<pgp_sign::Verification>()?;
    m.add_class::<pgp_sign::Decrypted>()?;
    m.add_class::<pgp_sign::Verified>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
