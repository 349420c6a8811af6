//! Library errors as Python exceptions (classes defined in `tessera/_errors.py`).
//!
//! Messages come from `tessera::Error`, which never holds key material.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// Which Python class an error becomes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Key,
    Parameter,
    Value,
    Authentication,
    Signature,
    KeyLocked,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Kind::Key => "InvalidKeyError",
            Kind::Parameter => "InvalidParameterError",
            Kind::Value => "InvalidValueError",
            Kind::Authentication => "AuthenticationError",
            Kind::Signature => "SignatureError",
            Kind::KeyLocked => "KeyLockedError",
        }
    }
}

/// An error computed without the GIL, turned into a Python exception later.
#[derive(Debug)]
pub struct Failure {
    pub kind: Kind,
    pub message: String,
    /// The row of a batch, if the error is about one value.
    pub index: Option<usize>,
}

impl Failure {
    pub fn new(kind: Kind, message: impl Into<String>, index: Option<usize>) -> Self {
        Failure { kind, message: message.into(), index }
    }

    /// A library error; `Error::Batch` indices are mapped through `row`.
    pub fn from_lib(e: tessera::Error, row: impl Fn(usize) -> usize) -> Self {
        match e {
            tessera::Error::Batch { index, source } => {
                let mut f = Failure::plain(*source);
                f.index = Some(row(index));
                f
            }
            e => Failure::new(kind_of(&e), e.to_string(), None),
        }
    }

    /// A library error (a nested batch error keeps its own index).
    fn plain(e: tessera::Error) -> Self {
        match e {
            tessera::Error::Batch { index, source } => {
                let mut f = Failure::plain(*source);
                f.index = Some(index);
                f
            }
            e => Failure::new(kind_of(&e), e.to_string(), None),
        }
    }

    /// A library error about row `index`.
    pub fn at(e: tessera::Error, index: usize) -> Self {
        let mut f = Failure::from_lib(e, |i| i);
        f.index = Some(index);
        f
    }

    pub fn into_py(self, py: Python<'_>) -> PyErr {
        match make(py, &self) {
            Ok(e) | Err(e) => e,
        }
    }
}

pub fn kind_of(e: &tessera::Error) -> Kind {
    use tessera::Error as E;
    match e {
        E::KeyLength { .. } | E::EmptyKey => Kind::Key,
        E::Radix(_)
        | E::Alphabet(_)
        | E::PassthroughInAlphabet { .. }
        | E::UnknownName { .. }
        | E::TweakLength { .. }
        | E::TooManyAd { .. }
        | E::NonceLength { .. } => Kind::Parameter,
        E::Authentication => Kind::Authentication,
        E::Batch { source, .. } => kind_of(source),
        _ => Kind::Value,
    }
}

static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn make(py: Python<'_>, f: &Failure) -> PyResult<PyErr> {
    let module = ERRORS.get_or_try_init(py, || py.import("tessera._errors").map(Bound::unbind))?;
    let class = module.bind(py).getattr(f.kind.class_name())?;
    let class = class.cast_into::<PyType>()?;
    let message = match f.index {
        Some(i) => format!("row {i}: {}", f.message),
        None => f.message.clone(),
    };
    let value = class.call1((message, f.index))?;
    Ok(PyErr::from_value(value))
}

/// A library error as a Python exception.
pub fn lib_err(py: Python<'_>, e: tessera::Error) -> PyErr {
    Failure::from_lib(e, |i| i).into_py(py)
}

/// An error of the given kind.
pub fn py_err(py: Python<'_>, kind: Kind, message: impl Into<String>) -> PyErr {
    Failure::new(kind, message, None).into_py(py)
}
