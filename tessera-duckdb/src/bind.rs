//! From a call's constant arguments and the keyset to a [`Job`]: the
//! transformation named, of the kind the call needs, with the checks that
//! can be made before any row is read.

use tessera::keyset::{FpeTransform, Keyset, TransformParams, TweakPolicy};

use crate::job::{Job, Op};
use crate::settings::ALLOW_WITHDRAWN;

/// The forms of the SQL functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `f('transform', value)`.
    Plain(Op),
    /// `f('transform', token, version)`: the key version of the tokens (decrypt, rewrap).
    Versioned(Op),
    /// `tessera_rewrap('from', 'to', token)`: tokens of another transformation moved to `to`.
    Migrate,
}

impl Form {
    /// The SQL function's name.
    pub fn sql_name(self) -> &'static str {
        match self {
            Form::Plain(op) | Form::Versioned(op) => op.sql_name(),
            Form::Migrate => Op::Rewrap.sql_name(),
        }
    }

    /// The index of the argument holding the values.
    pub fn value_column(self) -> u64 {
        match self {
            Form::Plain(_) | Form::Versioned(_) => 1,
            Form::Migrate => 2,
        }
    }
}

/// The constant arguments of a call.
#[derive(Debug)]
pub struct Args {
    /// The transformation (`Migrate`: the tokens' source).
    pub name: String,
    /// `Migrate`: the target transformation.
    pub target: Option<String>,
    /// `Versioned`: the key version.
    pub version: Option<u32>,
}

/// The FPE transformation `name`, usable from SQL (its tweak fixed in the keyset).
fn fpe(ks: &Keyset, name: &str) -> Result<FpeTransform, String> {
    let t = ks.transform(name).map_err(|e| e.to_string())?;
    let TransformParams::Fpe(p) = &t.params else {
        return Err(format!("transformation {name:?} is AES-SIV, not FPE"));
    };
    if !matches!(p.tweak, TweakPolicy::Fixed { .. }) {
        return Err(format!(
            "transformation {name:?} takes a tweak per call or per record; SQL calls use fixed tweaks"
        ));
    }
    ks.fpe(name).map_err(|e| e.to_string())
}

/// Refuses to make tokens with a withdrawn method unless allowed, and says
/// once per process on stderr that it is withdrawn when it is.
fn check_withdrawn(fpe: &FpeTransform, allowed: bool) -> Result<(), String> {
    static SAID: std::sync::Once = std::sync::Once::new();
    let Some(note) = fpe.params().algorithm.algorithm().withdrawn() else { return Ok(()) };
    if !allowed {
        return Err(format!("{note}; SET {ALLOW_WITHDRAWN} = true to make tokens with it anyway"));
    }
    SAID.call_once(|| eprintln!("tessera: warning: {note}"));
    Ok(())
}

/// The job of a call of `form` with `args` on the keyset `ks`.
pub fn job(ks: &Keyset, form: Form, args: &Args, allow_withdrawn: bool) -> Result<Job, String> {
    let name = args.name.as_str();
    let op = match form {
        Form::Plain(op) | Form::Versioned(op) => op,
        Form::Migrate => {
            let target = args.target.as_deref().unwrap_or_default();
            let (from, to) = (fpe(ks, name)?, fpe(ks, target)?);
            check_withdrawn(&to, allow_withdrawn)?;
            return Ok(Job::Migrate { from, to });
        }
    };
    match &ks.transform(name).map_err(|e| e.to_string())?.params {
        TransformParams::Siv(_) if args.version.is_some() => {
            Err(format!("transformation {name:?} is AES-SIV: its ciphertexts name their key; give no version"))
        }
        TransformParams::Siv(_) => Ok(Job::Siv { siv: ks.siv(name).map_err(|e| e.to_string())?, op }),
        TransformParams::Fpe(_) => {
            let fpe = fpe(ks, name)?;
            if op != Op::Decrypt {
                check_withdrawn(&fpe, allow_withdrawn)?;
            }
            if op == Op::Rewrap {
                fpe.check_rewrap(args.version)
                    .map_err(|e| format!("{e} (give the version: {}('{name}', token, N))", op.sql_name()))?;
            }
            Ok(Job::Fpe { fpe, op, version: args.version })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::keyset;

    fn args(name: &str, target: Option<&str>, version: Option<u32>) -> Args {
        Args { name: name.into(), target: target.map(Into::into), version }
    }

    #[test]
    fn calls_are_checked_before_any_row() {
        let ks = keyset();
        let err = |form, a: Args, allow| job(&ks, form, &a, allow).unwrap_err();
        assert!(err(Form::Plain(Op::Encrypt), args("nope", None, None), false).contains("nope"));
        assert!(err(Form::Plain(Op::Encrypt), args("legacy", None, None), false).contains(ALLOW_WITHDRAWN));
        assert!(job(&ks, Form::Plain(Op::Encrypt), &args("legacy", None, None), true).is_ok());
        assert!(job(&ks, Form::Plain(Op::Decrypt), &args("legacy", None, None), false).is_ok());
        assert!(err(Form::Plain(Op::Encrypt), args("per_call", None, None), false).contains("tweak"));
        assert!(err(Form::Versioned(Op::Decrypt), args("emails", None, Some(1)), false).contains("no version"));
        assert!(
            err(Form::Plain(Op::Rewrap), args("numbers", None, None), false)
                .contains("tessera_rewrap('numbers', token, N)")
        );
        assert!(err(Form::Migrate, args("emails", Some("numbers"), None), false).contains("not FPE"));
        assert!(err(Form::Migrate, args("numbers", Some("legacy"), None), false).contains(ALLOW_WITHDRAWN));
        assert!(job(&ks, Form::Migrate, &args("legacy", Some("numbers"), None), false).is_ok());
    }
}
