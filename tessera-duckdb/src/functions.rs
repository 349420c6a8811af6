//! The SQL functions `tessera_encrypt`, `tessera_decrypt` and
//! `tessera_rewrap`: registration and DuckDB's three callbacks. Bind reads
//! the settings, opens the keyset (kept: see [`crate::keysets`]) and
//! resolves the transformation once per query; init gives each thread its
//! buffers; the function runs one library batch call per chunk.

use std::ffi::c_void;
use std::sync::Arc;

use libduckdb_sys as ffi;

use crate::api::{BindInfo, LogicalType, TextColumn, TextOutput, c_string};
use crate::bind::{self, Args, Form};
use crate::job::{Job, Op, Scratch, wipe};
use crate::keysets;
use crate::settings::Settings;

/// What bind resolved, shared by the copies DuckDB makes of it.
#[derive(Debug)]
struct Bound {
    form: Form,
    /// The transformation names as the call gave them, for error messages.
    names: String,
    job: Job,
}

/// DuckDB runs a query's chunks on several threads, each reading the same [`Bound`].
const _: () = {
    const fn shared_across_threads<T: Send + Sync>() {}
    shared_across_threads::<Bound>();
};

/// One thread's state: rows read so far (to name a row in an error) and buffers.
#[derive(Debug, Default)]
struct Local {
    rows: u64,
    scratch: Scratch,
    out: Vec<u8>,
    ends: Vec<usize>,
}

/// Drops a `Box<T>` handed to DuckDB.
unsafe extern "C" fn drop_box<T>(p: *mut c_void) {
    if !p.is_null() {
        // SAFETY: `p` came from `Box::<T>::into_raw` and DuckDB drops it once.
        drop(unsafe { Box::from_raw(p.cast::<T>()) });
    }
}

/// Copies the bind data: another handle on the same [`Bound`].
unsafe extern "C" fn copy_bound(p: *mut c_void) -> *mut c_void {
    // SAFETY: `p` is a live `Box<Arc<Bound>>` set by `bind_callback`.
    let bound = unsafe { &*p.cast::<Arc<Bound>>() };
    Box::into_raw(Box::new(Arc::clone(bound))).cast()
}

/// The constant arguments of the call, checked.
fn arguments(info: BindInfo, ctx: &crate::api::ClientContext, form: Form) -> Result<Args, String> {
    let constant_text = |i: u64, what: &str| -> Result<String, String> {
        info.constant_argument(ctx, i)?
            .and_then(|v| v.text())
            .ok_or_else(|| format!("the {what} must be a constant string, not NULL or a column"))
    };
    let name = constant_text(0, "transformation name")?;
    let (mut target, mut version) = (None, None);
    match form {
        Form::Plain(_) => {}
        Form::Migrate => target = Some(constant_text(1, "target transformation name")?),
        Form::Versioned(_) => {
            let v = info.constant_argument(ctx, 2)?.and_then(|v| v.int());
            let v = v.and_then(|v| u32::try_from(v).ok()).filter(|&v| v > 0);
            version = Some(v.ok_or_else(|| "the key version must be a constant positive integer".to_string())?);
        }
    }
    Ok(Args { name, target, version })
}

/// Resolves the call: settings, keyset, transformation.
fn bind_call(info: BindInfo, form: Form) -> Result<Bound, String> {
    let ctx = info.context().ok_or("no client context")?;
    let args = arguments(info, &ctx, form)?;
    let settings = Settings::read(&ctx)?;
    let ks = keysets::open(&settings.keyset, &settings.password)?;
    let job = bind::job(&ks, form, &args, settings.allow_withdrawn)?;
    let names = match &args.target {
        Some(target) => format!("'{}', '{target}'", args.name),
        None => format!("'{}'", args.name),
    };
    Ok(Bound { form, names, job })
}

unsafe extern "C" fn bind_callback(info: ffi::duckdb_bind_info) {
    let info = BindInfo(info);
    // SAFETY: the extra info is the `Box<Form>` set at registration, alive as long as the function.
    let form = unsafe { *ffi::duckdb_scalar_function_bind_get_extra_info(info.0).cast::<Form>() };
    match bind_call(info, form) {
        Ok(bound) => {
            let data = Box::into_raw(Box::new(Arc::new(bound)));
            // SAFETY: a live bind info; DuckDB owns `data` from here and frees
            // it with `drop_box`, copying it with `copy_bound`.
            unsafe {
                ffi::duckdb_scalar_function_set_bind_data(info.0, data.cast(), Some(drop_box::<Arc<Bound>>));
                ffi::duckdb_scalar_function_set_bind_data_copy(info.0, Some(copy_bound));
            }
        }
        Err(e) => info.set_error(&format!("{}: {e}", form.sql_name())),
    }
}

unsafe extern "C" fn init_callback(info: ffi::duckdb_init_info) {
    let local = Box::into_raw(Box::<Local>::default());
    // SAFETY: a live init info; DuckDB owns `local` from here and frees it with `drop_box`.
    unsafe { ffi::duckdb_scalar_function_init_set_state(info, local.cast(), Some(drop_box::<Local>)) };
}

/// Runs the call on one chunk; on error, the message to abort the query with.
fn run_chunk(bound: &Bound, local: &mut Local, input: &TextColumn, output: &mut TextOutput) -> Result<(), String> {
    let mut rows = Vec::with_capacity(input.len());
    let mut values = Vec::with_capacity(input.len());
    let row_error = |row: usize, message: &str| {
        let n = local.rows + row as u64 + 1;
        format!("{}({}): row {n}: {message}", bound.form.sql_name(), bound.names)
    };
    for row in 0..input.len() {
        match input.get(row) {
            None => output.set_null(row),
            Some(b) => {
                values.push(std::str::from_utf8(b).map_err(|_| row_error(row, "the value is not UTF-8"))?);
                rows.push(row);
            }
        }
    }
    let done = bound.job.run(&values, &mut local.scratch, &mut local.out, &mut local.ends);
    if let Err(e) = done {
        wipe(&mut local.out);
        return Err(row_error(rows.get(e.index).copied().unwrap_or(0), &e.message));
    }
    if local.ends.len() != rows.len() {
        // Every row of the output must be written: refuse rather than leave one unset.
        wipe(&mut local.out);
        return Err(row_error(0, "the batch returned a result count unlike its input's"));
    }
    // One UTF-8 check for the chunk, then each result's bounds.
    let written = std::str::from_utf8(&local.out).ok().is_some_and(|text| {
        let starts = std::iter::once(0).chain(local.ends.iter().copied());
        rows.iter()
            .zip(starts)
            .zip(&local.ends)
            .all(|((&row, start), &end)| text.get(start..end).map(|t| output.set(row, t)).is_some())
    });
    wipe(&mut local.out);
    if !written {
        return Err(row_error(0, "the batch returned a result that is not UTF-8"));
    }
    local.rows += input.len() as u64;
    Ok(())
}

unsafe extern "C" fn function_callback(
    info: ffi::duckdb_function_info,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
) {
    // SAFETY: the bind data is the `Box<Arc<Bound>>` set by `bind_callback`
    // and the state the `Box<Local>` of `init_callback`, used by this thread
    // only; the chunk and output vector are live during the call, and the
    // value column of every form is VARCHAR.
    let (bound, local, column, mut out) = unsafe {
        let bound = &*ffi::duckdb_scalar_function_get_bind_data(info).cast::<Arc<Bound>>();
        let local = &mut *ffi::duckdb_scalar_function_get_state(info).cast::<Local>();
        (bound, local, TextColumn::of(input, bound.form.value_column()), TextOutput::new(output))
    };
    if let Err(e) = run_chunk(bound, local, &column, &mut out) {
        let c = c_string(&e);
        // SAFETY: a live function info; DuckDB copies the message and aborts the query.
        unsafe { ffi::duckdb_scalar_function_set_error(info, c.as_ptr()) };
    }
}

/// The argument types of each form.
fn parameters(form: Form) -> Vec<LogicalType> {
    match form {
        Form::Plain(_) => vec![LogicalType::varchar(), LogicalType::varchar()],
        Form::Versioned(_) => vec![LogicalType::varchar(), LogicalType::varchar(), LogicalType::integer()],
        Form::Migrate => vec![LogicalType::varchar(), LogicalType::varchar(), LogicalType::varchar()],
    }
}

/// Registers one SQL function with its forms.
///
/// # Safety
/// `con` is a live connection.
unsafe fn register_set(con: ffi::duckdb_connection, name: &str, forms: &[Form]) -> Result<(), String> {
    let cname = c_string(name);
    let ret = LogicalType::varchar();
    // SAFETY: every object is created here, filled with live pointers
    // (DuckDB copies types and names; the set takes the functions' extra
    // info), registered on a live connection and destroyed here.
    let state = unsafe {
        let mut set = ffi::duckdb_create_scalar_function_set(cname.as_ptr());
        for &form in forms {
            let mut f = ffi::duckdb_create_scalar_function();
            ffi::duckdb_scalar_function_set_name(f, cname.as_ptr());
            for p in parameters(form) {
                ffi::duckdb_scalar_function_add_parameter(f, p.0);
            }
            ffi::duckdb_scalar_function_set_return_type(f, ret.0);
            let extra = Box::into_raw(Box::new(form));
            ffi::duckdb_scalar_function_set_extra_info(f, extra.cast(), Some(drop_box::<Form>));
            ffi::duckdb_scalar_function_set_bind(f, Some(bind_callback));
            ffi::duckdb_scalar_function_set_init(f, Some(init_callback));
            ffi::duckdb_scalar_function_set_function(f, Some(function_callback));
            ffi::duckdb_add_scalar_function_to_set(set, f);
            ffi::duckdb_destroy_scalar_function(&mut f);
        }
        let state = ffi::duckdb_register_scalar_function_set(con, set);
        ffi::duckdb_destroy_scalar_function_set(&mut set);
        state
    };
    if state != ffi::DuckDBSuccess {
        return Err(format!("cannot register {name}"));
    }
    Ok(())
}

/// Registers the three functions.
///
/// # Safety
/// `con` is a live connection.
pub unsafe fn register(con: ffi::duckdb_connection) -> Result<(), String> {
    let sets: [(&str, &[Form]); 3] = [
        ("tessera_encrypt", &[Form::Plain(Op::Encrypt)]),
        ("tessera_decrypt", &[Form::Plain(Op::Decrypt), Form::Versioned(Op::Decrypt)]),
        ("tessera_rewrap", &[Form::Plain(Op::Rewrap), Form::Versioned(Op::Rewrap), Form::Migrate]),
    ];
    for (name, forms) in sets {
        // SAFETY: as the caller promises.
        unsafe { register_set(con, name, forms)? };
    }
    Ok(())
}
