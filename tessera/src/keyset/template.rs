//! Built-in transformation templates for the usual shapes of data.

use super::model::DateRange;
use super::model::{FpeParams, SivParams, TransformParams};

/// A ready-made set of parameters, so that the common cases need no flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Template {
    /// Card numbers: FF1 over digits, spaces and `-` kept in place, the
    /// first 6 and last 4 digits in clear (16 digits leave 6 encrypted).
    Card,
    /// US social security numbers: FF1 over the 9 digits, `-` kept.
    Ssn,
    /// Any run of at least 6 decimal digits, all encrypted.
    Digits,
    /// `0-9A-Za-z`, at least 4 characters, all encrypted.
    Alphanumeric,
    /// The local part of an e-mail address (`0-9A-Za-z`, with `.`, `_`,
    /// `+`, `-` kept in place); the `@domain` stays in clear.
    EmailLocal,
    /// Dates as `YYYY-MM-DD`: tokens are valid dates in the same range
    /// (by default years 1 to 9999; see [`super::DateRange`]).
    Date,
    /// AES-SIV with Tink-prefixed 64-byte keys.
    Siv,
}

const ALNUM: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

impl Template {
    /// Every template, in the order of [`Template::name`].
    pub const ALL: [Template; 7] = [
        Template::Card,
        Template::Ssn,
        Template::Digits,
        Template::Alphanumeric,
        Template::EmailLocal,
        Template::Date,
        Template::Siv,
    ];

    /// The template's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Template::Card => "card",
            Template::Ssn => "ssn",
            Template::Digits => "digits",
            Template::Alphanumeric => "alphanumeric",
            Template::EmailLocal => "email-local",
            Template::Date => "date",
            Template::Siv => "siv",
        }
    }

    /// The template named `name`.
    ///
    /// ```
    /// use tessera::keyset::Template;
    /// assert_eq!(Template::from_name("card"), Some(Template::Card));
    /// assert_eq!(Template::from_name("nope"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Template> {
        Template::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The parameters (external key versions; switch
    /// [`FpeParams::key_version`] to embed them).
    pub fn params(self) -> TransformParams {
        let fpe = |alphabet: &str, passthrough: &str| {
            let mut p = FpeParams::new(alphabet);
            p.passthrough = passthrough.into();
            p
        };
        TransformParams::Fpe(match self {
            Template::Card => FpeParams { keep_prefix: 6, keep_suffix: 4, ..fpe("0123456789", " -") },
            Template::Ssn => fpe("0123456789", "-"),
            Template::Digits => fpe("0123456789", ""),
            Template::Alphanumeric => fpe(ALNUM, ""),
            Template::EmailLocal => FpeParams { keep_from_last: Some('@'), ..fpe(ALNUM, "._+-") },
            Template::Date => FpeParams { date: Some(DateRange::default()), ..fpe("0123456789", "") },
            Template::Siv => return TransformParams::Siv(SivParams::default()),
        })
    }
}
