//! The pieces of DuckDB's C extension API that queries use, each behind a
//! small wrapper: values and settings, argument expressions folded at bind
//! time, and the VARCHAR vectors of a chunk. The other `unsafe` calls are
//! the entry point (lib.rs), registration (settings.rs, functions.rs) and
//! the callbacks' own pointers (functions.rs).

use std::ffi::{CStr, CString, c_char};

use libduckdb_sys as ffi;

/// A C string for DuckDB; an interior NUL (never in the extension's own
/// names and messages) is replaced.
pub fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "\u{fffd}")).unwrap_or_default()
}

/// An owned `duckdb_value`, destroyed on drop.
#[derive(Debug)]
pub struct Value(ffi::duckdb_value);

impl Drop for Value {
    fn drop(&mut self) {
        // SAFETY: the value was created by DuckDB, is owned by this wrapper and destroyed once.
        unsafe { ffi::duckdb_destroy_value(&mut self.0) };
    }
}

impl Value {
    /// Takes ownership of `raw`; `None` if it is null.
    fn from_raw(raw: ffi::duckdb_value) -> Option<Value> {
        (!raw.is_null()).then_some(Value(raw))
    }

    /// A VARCHAR value.
    pub fn varchar(s: &str) -> Value {
        let c = c_string(s);
        // SAFETY: `c` is a valid NUL-terminated string; DuckDB copies it.
        Value(unsafe { ffi::duckdb_create_varchar(c.as_ptr()) })
    }

    /// A BOOLEAN value.
    pub fn boolean(b: bool) -> Value {
        // SAFETY: no pointer arguments.
        Value(unsafe { ffi::duckdb_create_bool(b) })
    }

    /// Whether the value is SQL NULL.
    pub fn is_null(&self) -> bool {
        // SAFETY: `self.0` is a live value.
        unsafe { ffi::duckdb_is_null_value(self.0) }
    }

    /// The value as text (DuckDB's cast to VARCHAR); `None` for NULL.
    pub fn text(&self) -> Option<String> {
        if self.is_null() {
            return None;
        }
        // SAFETY: `self.0` is a live value; the result is a NUL-terminated
        // string allocated by DuckDB, copied here and freed with duckdb_free.
        unsafe {
            let p = ffi::duckdb_get_varchar(self.0);
            if p.is_null() {
                return None;
            }
            let s = CStr::from_ptr(p).to_string_lossy().into_owned();
            ffi::duckdb_free(p.cast());
            Some(s)
        }
    }

    /// The value as a BOOLEAN (false for NULL).
    pub fn boolean_value(&self) -> bool {
        // SAFETY: `self.0` is a live value.
        !self.is_null() && unsafe { ffi::duckdb_get_bool(self.0) }
    }

    /// The value as a BIGINT; `None` for NULL.
    pub fn int(&self) -> Option<i64> {
        // SAFETY: `self.0` is a live value.
        (!self.is_null()).then(|| unsafe { ffi::duckdb_get_int64(self.0) })
    }

    pub(crate) fn raw(&self) -> ffi::duckdb_value {
        self.0
    }
}

/// An owned logical type, destroyed on drop.
#[derive(Debug)]
pub struct LogicalType(pub(crate) ffi::duckdb_logical_type);

impl LogicalType {
    /// VARCHAR.
    pub fn varchar() -> Self {
        // SAFETY: no pointer arguments.
        LogicalType(unsafe { ffi::duckdb_create_logical_type(ffi::DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR) })
    }

    /// INTEGER.
    pub fn integer() -> Self {
        // SAFETY: no pointer arguments.
        LogicalType(unsafe { ffi::duckdb_create_logical_type(ffi::DUCKDB_TYPE_DUCKDB_TYPE_INTEGER) })
    }

    /// BOOLEAN.
    pub fn boolean() -> Self {
        // SAFETY: no pointer arguments.
        LogicalType(unsafe { ffi::duckdb_create_logical_type(ffi::DUCKDB_TYPE_DUCKDB_TYPE_BOOLEAN) })
    }
}

impl Drop for LogicalType {
    fn drop(&mut self) {
        // SAFETY: owned by this wrapper and destroyed once.
        unsafe { ffi::duckdb_destroy_logical_type(&mut self.0) };
    }
}

/// The client context (connection) a query is bound in.
#[derive(Debug)]
pub struct ClientContext(ffi::duckdb_client_context);

impl Drop for ClientContext {
    fn drop(&mut self) {
        // SAFETY: the wrapper was created for this binding and is destroyed once.
        unsafe { ffi::duckdb_destroy_client_context(&mut self.0) };
    }
}

impl ClientContext {
    /// The current value of the setting `name` (`None` if unknown).
    pub fn setting(&self, name: &str) -> Option<Value> {
        let c = c_string(name);
        // SAFETY: a live context and a NUL-terminated name; the scope out-pointer may be null.
        Value::from_raw(unsafe {
            ffi::duckdb_client_context_get_config_option(self.0, c.as_ptr(), std::ptr::null_mut())
        })
    }
}

/// The bind step of a scalar function call.
#[derive(Debug, Clone, Copy)]
pub struct BindInfo(pub(crate) ffi::duckdb_bind_info);

impl BindInfo {
    /// The connection the query runs in.
    pub fn context(&self) -> Option<ClientContext> {
        let mut ctx: ffi::duckdb_client_context = std::ptr::null_mut();
        // SAFETY: `self.0` is the bind info DuckDB handed to the bind callback, alive during it.
        unsafe { ffi::duckdb_scalar_function_get_client_context(self.0, &mut ctx) };
        (!ctx.is_null()).then_some(ClientContext(ctx))
    }

    /// Argument `index`, evaluated now: `Ok(None)` if it is not a constant
    /// (refers to a column).
    pub fn constant_argument(&self, ctx: &ClientContext, index: u64) -> Result<Option<Value>, String> {
        // SAFETY: the bind info is alive during the bind callback; the
        // expression is a copy owned here and destroyed below; folding
        // writes a value owned here or returns an error owned here.
        unsafe {
            let mut expr = ffi::duckdb_scalar_function_bind_get_argument(self.0, index);
            if expr.is_null() {
                return Err(format!("no argument {}", index + 1));
            }
            if !ffi::duckdb_expression_is_foldable(expr) {
                ffi::duckdb_destroy_expression(&mut expr);
                return Ok(None);
            }
            let mut out: ffi::duckdb_value = std::ptr::null_mut();
            let mut err = ffi::duckdb_expression_fold(ctx.0, expr, &mut out);
            ffi::duckdb_destroy_expression(&mut expr);
            if !err.is_null() {
                let msg = CStr::from_ptr(ffi::duckdb_error_data_message(err)).to_string_lossy().into_owned();
                ffi::duckdb_destroy_error_data(&mut err);
                return Err(msg);
            }
            Ok(Value::from_raw(out))
        }
    }

    /// Fails the bind with `message`.
    pub fn set_error(&self, message: &str) {
        let c = c_string(message);
        // SAFETY: the bind info is alive; DuckDB copies the message.
        unsafe { ffi::duckdb_scalar_function_bind_set_error(self.0, c.as_ptr()) };
    }
}

/// The longest string a `duckdb_string_t` holds inline.
const INLINED: usize = 12;

/// A VARCHAR vector of an input chunk (flat: DuckDB flattens the chunk
/// before calling a C API scalar function).
#[derive(Debug)]
pub struct TextColumn {
    data: *mut ffi::duckdb_string_t,
    validity: *mut u64,
    len: usize,
}

impl TextColumn {
    /// Column `index` of `chunk`.
    ///
    /// # Safety
    /// `chunk` is the live input chunk of a scalar function call, `index`
    /// one of its VARCHAR columns, and the column is read only during the call.
    pub unsafe fn of(chunk: ffi::duckdb_data_chunk, index: u64) -> TextColumn {
        // SAFETY: as the caller promises.
        unsafe {
            let v = ffi::duckdb_data_chunk_get_vector(chunk, index);
            TextColumn {
                data: ffi::duckdb_vector_get_data(v).cast(),
                validity: ffi::duckdb_vector_get_validity(v),
                len: usize::try_from(ffi::duckdb_data_chunk_get_size(chunk)).unwrap_or(0),
            }
        }
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The bytes of row `row` (`row < len`), `None` for NULL.
    pub fn get(&self, row: usize) -> Option<&[u8]> {
        debug_assert!(row < self.len);
        // SAFETY: `row < len`; the validity mask (when present) has a bit
        // per row and the string array an entry per row; a string's bytes
        // are inline in its entry (up to 12) or at its pointer in the
        // vector's heap, both alive during the call. Read in place, as
        // the C API's `duckdb_string_t` layout defines them, rather than
        // through three calls per row.
        unsafe {
            if !self.validity.is_null() && *self.validity.add(row / 64) >> (row % 64) & 1 == 0 {
                return None;
            }
            let s = &*self.data.add(row);
            let n = s.value.inlined.length as usize;
            let p = if n <= INLINED { s.value.inlined.inlined.as_ptr() } else { s.value.pointer.ptr.cast_const() };
            Some(std::slice::from_raw_parts(p.cast::<u8>(), n))
        }
    }
}

/// The output vector of a scalar function call (VARCHAR).
#[derive(Debug)]
pub struct TextOutput(ffi::duckdb_vector);

impl TextOutput {
    /// # Safety
    /// `v` is the live VARCHAR output vector of a scalar function call, written only during the call.
    pub unsafe fn new(v: ffi::duckdb_vector) -> Self {
        TextOutput(v)
    }

    /// Writes `text` at `row`.
    pub fn set(&mut self, row: usize, text: &str) {
        // SAFETY: a live output vector; DuckDB copies the bytes into its
        // heap. The unvalidated assignment (C API v1.5.6) is sound because
        // `text` is a `str`: DuckDB's own UTF-8 check would repeat Rust's.
        unsafe {
            ffi::duckdb_unsafe_vector_assign_string_element_len(
                self.0,
                row as u64,
                text.as_ptr().cast::<c_char>(),
                text.len() as u64,
            )
        };
    }

    /// Writes NULL at `row`.
    pub fn set_null(&mut self, row: usize) {
        // SAFETY: a live output vector; the mask is made writable first and has a bit per row.
        unsafe {
            ffi::duckdb_vector_ensure_validity_writable(self.0);
            ffi::duckdb_validity_set_row_invalid(ffi::duckdb_vector_get_validity(self.0), row as u64);
        }
    }
}
