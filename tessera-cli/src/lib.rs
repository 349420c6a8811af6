//! What the `tessera` and `tessera-sop` binaries share: [`io`], the files
//! and streams at their edge (keys and passwords from files or environment
//! variables, inputs with progress, outputs that appear only on success).
//! The cryptography and its glue live in the `tessera` library; the
//! binaries hold argument parsing and printing.

pub mod io;
pub mod records;
pub mod signing;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// A clap value parser for a library type that has names (`FromStr`, such
/// as `tessera::fpe::Algorithm`): `values` are listed in `--help` and in
/// the error for any other value, and the one given is parsed by the
/// library, which owns the names.
pub fn named<T>(values: impl IntoIterator<Item = PossibleValue>) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    PossibleValuesParser::new(values).try_map(|name| name.parse::<T>())
}

/// Refuses to make new tokens with a withdrawn method unless `allowed`,
/// and says once on stderr that it is withdrawn when it is allowed.
pub fn check_withdrawn(algorithm: tessera::fpe::Algorithm, allowed: bool) -> anyhow::Result<()> {
    let Some(note) = algorithm.withdrawn() else { return Ok(()) };
    if !allowed {
        anyhow::bail!("{note}; give --allow-withdrawn to make tokens with it anyway");
    }
    eprintln!("tessera: warning: {note}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use tessera::fpe::Algorithm;

    #[derive(Parser, Debug)]
    struct Args {
        #[arg(long, default_value = "ff1",
              value_parser = super::named::<Algorithm>(Algorithm::NAMES.map(clap::builder::PossibleValue::new)))]
        algorithm: Algorithm,
    }

    #[test]
    fn named_values_parse_through_the_library() {
        assert_eq!(Args::try_parse_from(["t"]).unwrap().algorithm, Algorithm::Ff1);
        assert_eq!(Args::try_parse_from(["t", "--algorithm", "ff3-1"]).unwrap().algorithm, Algorithm::Ff3_1);
        let e = Args::try_parse_from(["t", "--algorithm", "ff2"]).unwrap_err().to_string();
        assert!(e.contains("invalid value 'ff2'") && e.contains("[possible values: ff1, ff3-1, ff3]"), "{e}");
    }
}
