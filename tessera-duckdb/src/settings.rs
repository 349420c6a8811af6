//! The extension's settings (`SET name = value`, per connection): which
//! keyset, where its password is (a file or an environment variable: never
//! the password itself, so it is in no query text and no log), and the
//! opt-in to make tokens with a withdrawn FPE method.

use std::path::PathBuf;

use libduckdb_sys as ffi;

use crate::api::{ClientContext, LogicalType, Value, c_string};
use crate::keysets::PasswordSource;

/// The keyset file.
pub const KEYSET: &str = "tessera_keyset";
/// The file holding the keyset's password.
pub const PASSWORD_FILE: &str = "tessera_keyset_password_file";
/// The environment variable holding the keyset's password.
pub const PASSWORD_ENV: &str = "tessera_keyset_password_env";
/// Whether `tessera_encrypt` may use an FF3-1 transformation (withdrawn by NIST).
pub const ALLOW_WITHDRAWN: &str = "tessera_allow_withdrawn";

const TEXT_SETTINGS: [(&str, &str); 3] = [
    (KEYSET, "tessera: the keyset file the tessera_* functions use"),
    (PASSWORD_FILE, "tessera: file holding the keyset's password (one trailing newline stripped)"),
    (PASSWORD_ENV, "tessera: environment variable holding the keyset's password"),
];

/// Registers the settings on the database of `con`.
///
/// # Safety
/// `con` is a live connection.
pub unsafe fn register(con: ffi::duckdb_connection) -> Result<(), String> {
    let text = TEXT_SETTINGS.iter().map(|&(n, d)| (n, d, LogicalType::varchar(), Value::varchar("")));
    let flag = (
        ALLOW_WITHDRAWN,
        "tessera: let tessera_encrypt make tokens with FF3-1, which NIST withdrew (SP 800-38G Rev 1 second draft)",
        LogicalType::boolean(),
        Value::boolean(false),
    );
    for (name, description, ty, default) in text.chain(std::iter::once(flag)) {
        let (cname, cdesc) = (c_string(name), c_string(description));
        // SAFETY: the option is created, filled with live pointers (DuckDB
        // copies each), registered on a live connection and destroyed here.
        let state = unsafe {
            let mut opt = ffi::duckdb_create_config_option();
            ffi::duckdb_config_option_set_name(opt, cname.as_ptr());
            ffi::duckdb_config_option_set_type(opt, ty.0);
            ffi::duckdb_config_option_set_default_value(opt, default.raw());
            ffi::duckdb_config_option_set_default_scope(
                opt,
                ffi::duckdb_config_option_scope_DUCKDB_CONFIG_OPTION_SCOPE_SESSION,
            );
            ffi::duckdb_config_option_set_description(opt, cdesc.as_ptr());
            let state = ffi::duckdb_register_config_option(con, opt);
            ffi::duckdb_destroy_config_option(&mut opt);
            state
        };
        if state != ffi::DuckDBSuccess {
            return Err(format!("cannot register the setting {name}"));
        }
    }
    Ok(())
}

/// The settings as a query sees them.
#[derive(Debug)]
pub struct Settings {
    /// The keyset file.
    pub keyset: PathBuf,
    /// Where its password is.
    pub password: PasswordSource,
    /// [`ALLOW_WITHDRAWN`].
    pub allow_withdrawn: bool,
}

/// A text setting; empty or NULL is unset.
fn text(ctx: &ClientContext, name: &str) -> Option<String> {
    ctx.setting(name).and_then(|v| v.text()).filter(|s| !s.is_empty())
}

impl Settings {
    /// Reads the settings of the connection; an error says which to set.
    pub fn read(ctx: &ClientContext) -> Result<Settings, String> {
        let keyset = text(ctx, KEYSET).ok_or_else(|| format!("no keyset: SET {KEYSET} = 'FILE'"))?;
        let password = match (text(ctx, PASSWORD_FILE), text(ctx, PASSWORD_ENV)) {
            (Some(f), None) => PasswordSource::File(f.into()),
            (None, Some(v)) => PasswordSource::Env(v),
            (None, None) => {
                return Err(format!("no keyset password: SET {PASSWORD_FILE} = 'FILE' or {PASSWORD_ENV} = 'VARIABLE'"));
            }
            (Some(_), Some(_)) => return Err(format!("set one of {PASSWORD_FILE} and {PASSWORD_ENV}, not both")),
        };
        let allow_withdrawn = ctx.setting(ALLOW_WITHDRAWN).is_some_and(|v| v.boolean_value());
        Ok(Settings { keyset: keyset.into(), password, allow_withdrawn })
    }
}
