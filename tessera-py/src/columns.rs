//! Reading values from Arrow arrays (or Python lists) and building outputs.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BinaryArray, LargeBinaryArray, LargeStringArray, StringArray};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::DataType;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyList, PyTuple};
use pyo3_arrow::{PyArray, PyArrayReader};

/// Whether values are text or bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    Text,
    Bytes,
}

/// One column of input values, as chunks of Arrow arrays or a Python list.
#[derive(Debug)]
pub enum Column {
    Arrow { chunks: Vec<ArrayRef>, data_type: DataType },
    Strs(Vec<Option<PyBackedStr>>),
    Bytes(Vec<Option<PyBackedBytes>>),
}

// SAFETY-free note: PyBackedStr/PyBackedBytes are Send + Sync (they hold a
// reference to an immutable Python object and a pointer into it).

impl Column {
    pub fn flavor(&self) -> PyResult<Flavor> {
        match self {
            Column::Strs(_) => Ok(Flavor::Text),
            Column::Bytes(_) => Ok(Flavor::Bytes),
            Column::Arrow { data_type, .. } => match data_type {
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Ok(Flavor::Text),
                DataType::Binary | DataType::LargeBinary | DataType::BinaryView => Ok(Flavor::Bytes),
                t => Err(PyTypeError::new_err(format!(
                    "expected an Arrow string or binary array (string, large_string, string_view, binary, \
                     large_binary, binary_view), got {t}"
                ))),
            },
        }
    }

    /// Whether outputs should use 64-bit offsets (the input did).
    pub fn large(&self) -> bool {
        matches!(self, Column::Arrow { data_type: DataType::LargeUtf8 | DataType::LargeBinary, .. })
    }

    pub fn len(&self) -> usize {
        match self {
            Column::Arrow { chunks, .. } => chunks.iter().map(|c| c.len()).sum(),
            Column::Strs(v) => v.len(),
            Column::Bytes(v) => v.len(),
        }
    }

    /// Calls `f(row, value)` for every row; `None` is a null.
    pub fn for_each<E>(&self, mut f: impl FnMut(usize, Option<&[u8]>) -> Result<(), E>) -> Result<(), E> {
        let mut row = 0;
        match self {
            Column::Strs(v) => {
                for s in v {
                    f(row, s.as_deref().map(str::as_bytes))?;
                    row += 1;
                }
            }
            Column::Bytes(v) => {
                for s in v {
                    f(row, s.as_deref())?;
                    row += 1;
                }
            }
            Column::Arrow { chunks, .. } => {
                for c in chunks {
                    macro_rules! each {
                        ($a:expr) => {{
                            let a = $a;
                            for i in 0..a.len() {
                                let v = if a.is_null(i) { None } else { Some(a.value(i).as_ref()) };
                                f(row, v)?;
                                row += 1;
                            }
                        }};
                    }
                    match c.data_type() {
                        DataType::Utf8 => each!(c.as_string::<i32>()),
                        DataType::LargeUtf8 => each!(c.as_string::<i64>()),
                        DataType::Utf8View => each!(c.as_string_view()),
                        DataType::Binary => each!(c.as_binary::<i32>()),
                        DataType::LargeBinary => each!(c.as_binary::<i64>()),
                        DataType::BinaryView => each!(c.as_binary_view()),
                        _ => unreachable!("flavor() checked the type"),
                    }
                }
            }
        }
        Ok(())
    }
}

/// Turns a Python object into a [`Column`]: anything with
/// `__arrow_c_array__` or `__arrow_c_stream__` (pyarrow arrays and chunked
/// arrays, Polars Series, nanoarrow, arro3...), pandas Series and extension
/// arrays backed by Arrow (`__arrow_array__`), or a list/tuple of `str`,
/// `bytes` and `None`.
pub fn column(obj: &Bound<'_, PyAny>) -> PyResult<Column> {
    if obj.hasattr("__arrow_c_array__")? {
        let (array, field) = obj.extract::<PyArray>()?.into_inner();
        return Ok(Column::Arrow { chunks: vec![array], data_type: field.data_type().clone() });
    }
    if obj.hasattr("__arrow_c_stream__")? {
        let reader = obj.extract::<PyArrayReader>()?.into_reader()?;
        let data_type = reader.field().data_type().clone();
        let chunks = reader.collect::<Result<Vec<_>, _>>().map_err(|e| PyTypeError::new_err(e.to_string()))?;
        return Ok(Column::Arrow { chunks, data_type });
    }
    if obj.hasattr("__arrow_array__")? {
        return column(&obj.call_method0("__arrow_array__")?);
    }
    if let Ok(inner) = obj.getattr("array")
        && inner.hasattr("__arrow_array__")?
    {
        return column(&inner.call_method0("__arrow_array__")?);
    }
    let items: Vec<Bound<'_, PyAny>> = if let Ok(l) = obj.cast::<PyList>() {
        l.iter().collect()
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        t.iter().collect()
    } else {
        return Err(PyTypeError::new_err(
            "expected an Arrow array or stream (__arrow_c_array__ / __arrow_c_stream__), a pandas Series \
             backed by Arrow, or a list of str/bytes/None",
        ));
    };
    let first = items.iter().find(|x| !x.is_none());
    if first.is_none_or(|x| x.is_instance_of::<pyo3::types::PyString>()) {
        Ok(Column::Strs(rows(&items, "str")?))
    } else {
        Ok(Column::Bytes(rows(&items, "bytes")?))
    }
}

/// Extracts every item of a Python list column as `T` (`None` stays `None`).
fn rows<'py, T: for<'a> FromPyObject<'a, 'py>>(items: &[Bound<'py, PyAny>], what: &str) -> PyResult<Vec<Option<T>>> {
    items
        .iter()
        .enumerate()
        .map(|(i, x)| {
            if x.is_none() {
                Ok(None)
            } else {
                x.extract::<T>()
                    .map(Some)
                    .map_err(|_| PyTypeError::new_err(format!("row {i}: expected {what} or None")))
            }
        })
        .collect()
}

/// Output values back to back with their offsets and validity.
#[derive(Debug)]
pub struct Output {
    pub data: Vec<u8>,
    offsets: Vec<usize>,
    nulls: NullBufferBuilder,
}

impl Output {
    pub fn with_capacity(rows: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        Output { data: Vec::with_capacity(bytes), offsets, nulls: NullBufferBuilder::new(rows) }
    }

    /// Ends the current value (whatever was appended to `data`).
    pub fn end_value(&mut self) {
        self.offsets.push(self.data.len());
        self.nulls.append_non_null();
    }

    pub fn push_null(&mut self) {
        self.offsets.push(self.data.len());
        self.nulls.append_null();
    }

    /// The Arrow array: string or binary, 64-bit offsets if asked or needed.
    pub fn finish(mut self, flavor: Flavor, large: bool) -> Result<ArrayRef, String> {
        let nulls = self.nulls.finish();
        let large = large || self.data.len() > i32::MAX as usize;
        let values = arrow_buffer::Buffer::from_vec(self.data);
        let err = |e: arrow_schema::ArrowError| e.to_string();
        Ok(if large {
            let o = OffsetBuffer::new(ScalarBuffer::from(self.offsets.iter().map(|&x| x as i64).collect::<Vec<_>>()));
            match flavor {
                Flavor::Text => Arc::new(LargeStringArray::try_new(o, values, nulls).map_err(err)?),
                Flavor::Bytes => Arc::new(LargeBinaryArray::try_new(o, values, nulls).map_err(err)?),
            }
        } else {
            let o = OffsetBuffer::new(ScalarBuffer::from(self.offsets.iter().map(|&x| x as i32).collect::<Vec<_>>()));
            self.offsets.clear();
            match flavor {
                Flavor::Text => Arc::new(StringArray::try_new(o, values, nulls).map_err(err)?),
                Flavor::Bytes => Arc::new(BinaryArray::try_new(o, values, nulls).map_err(err)?),
            }
        })
    }
}

/// Exports an Arrow array as a `pyarrow.Array`.
pub fn to_pyarrow(py: Python<'_>, array: ArrayRef) -> PyResult<Py<PyAny>> {
    Ok(PyArray::from_array_ref(array).to_pyarrow(py)?.unbind())
}
