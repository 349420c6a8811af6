//! tessera as a DuckDB loadable extension: the FPE and AES-SIV
//! transformations of a keyset as SQL functions, vectorised over DuckDB's
//! chunks (one library batch call per chunk).
//!
//! ```sql
//! SET allow_unsigned_extensions = true;            -- in the connection's config
//! LOAD 'target/release/tessera.duckdb_extension';  -- scripts/build-duckdb-extension --release
//! SET tessera_keyset = 'ks.tks'; SET tessera_keyset_password_file = 'pw';
//! SELECT tessera_encrypt('cards', card), tessera_decrypt('cards', token), tessera_rewrap('cards', token) FROM t;
//! SELECT tessera_rewrap('cards_ff3', 'cards', token) FROM old;  -- migrate from another transformation
//! ```
//!
//! `tessera_keyset_password_env` names an environment variable instead of
//! a file. `tessera_decrypt(name, token, version)` and
//! `tessera_rewrap(name, token, version)` name the key version of FPE
//! tokens (external versions). NULL stays NULL; a bad value aborts the
//! query with one error naming the function, the transformation and the
//! row (counted from 1 in the order the function read the rows, per
//! thread). Built on DuckDB's C extension API (`libduckdb-sys`'s
//! `loadable-extension`: function pointers handed over at load), so nothing
//! of DuckDB is compiled; `scripts/build-duckdb-extension` appends the
//! metadata footer DuckDB checks.

mod api;
mod bind;
mod functions;
mod job;
mod keysets;
mod settings;
#[cfg(test)]
mod testing;

use libduckdb_sys as ffi;

/// The C API version the extension asks for (and writes in its footer):
/// the last of the v1 API, which DuckDB 2.0 serves.
pub const C_API_VERSION: &str = "v1.5.6";

/// Registers the settings and the functions.
///
/// # Safety
/// `info` and `access` are what DuckDB handed to the entry point.
unsafe fn load(info: ffi::duckdb_extension_info, access: &ffi::duckdb_extension_access) -> Result<(), String> {
    // SAFETY: as the caller promises; the API struct is valid for the database's lifetime.
    match unsafe { ffi::duckdb_rs_extension_api_init(info, access, C_API_VERSION) } {
        Ok(true) => {}
        Ok(false) => return Err(format!("DuckDB does not offer C API {C_API_VERSION}")),
        Err(e) => return Err(e.to_string()),
    }
    let get_database = access.get_database.ok_or("no get_database in the access struct")?;
    // SAFETY: DuckDB's own callback on its own info; the database is borrowed for the entry point.
    let db = unsafe { get_database(info) };
    if db.is_null() {
        return Err("no database".into());
    }
    let mut con: ffi::duckdb_connection = std::ptr::null_mut();
    // SAFETY: `db` points to a live database; the connection is closed below.
    if unsafe { ffi::duckdb_connect(*db, &mut con) } != ffi::DuckDBSuccess {
        return Err("cannot connect to the database".into());
    }
    // SAFETY: `con` is live until the disconnect below.
    let done = unsafe { settings::register(con).and_then(|()| functions::register(con)) };
    // SAFETY: the connection opened above, closed once.
    unsafe { ffi::duckdb_disconnect(&mut con) };
    done
}

/// The entry point DuckDB calls on `LOAD` (the file's base name `tessera`,
/// then `_init_c_api`). Returns false after reporting an error to DuckDB.
///
/// # Safety
/// Called by DuckDB only, with its own `info` and `access`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tessera_init_c_api(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> bool {
    // SAFETY: DuckDB hands a valid access struct for the duration of the call.
    let Some(access) = (unsafe { access.as_ref() }) else { return false };
    // SAFETY: as the caller promises.
    match unsafe { load(info, access) } {
        Ok(()) => true,
        Err(e) => {
            if let Some(set_error) = access.set_error {
                let c = api::c_string(&format!("tessera: {e}"));
                // SAFETY: DuckDB's own callback; it copies the message.
                unsafe { set_error(info, c.as_ptr()) };
            }
            false
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_build_script_writes_the_c_api_version_asked_for() {
        let script = include_str!("../../scripts/build-duckdb-extension");
        assert!(script.contains(&format!("capi_version={}\n", super::C_API_VERSION)));
    }
}
