//! The `tessera` command: format-preserving encryption, AES-SIV and demos.
//! Every failure is one line on stderr and a non-zero exit; `--output` files
//! appear only when everything succeeded.

mod demo;
mod demo_keys;
mod fpe_cmd;
mod fpe_migrate;
mod inspect_cmd;
mod inspect_json;
mod install_cmd;
mod key_cmd;
mod key_manage;
mod keygen;
mod keyset_cmd;
mod keyset_use;
mod keyset_values;
mod pgp_cmd;
mod sig_cmd;
mod siv_cmd;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use tessera::Direction;
use tessera_cli::io;

#[derive(Parser, Debug)]
#[command(name = "tessera", version, about = "AES-based data protection: FF1 tokenization, AES-SIV, OpenPGP")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of its largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Write a fresh random key as hex.
    Keygen(keygen::KeygenArgs),
    /// Format-preserving encryption (FF1; FF3-1 and FF3 to read and migrate old tokens), one value per line.
    Fpe {
        #[command(subcommand)]
        op: FpeOp,
    },
    /// Deterministic authenticated encryption (AES-SIV, RFC 5297).
    Siv {
        #[command(subcommand)]
        op: SivOp,
    },
    /// Encrypt with a password into an OpenPGP message (RFC 9580; --profile rfc4880 for GnuPG 2.2).
    Encrypt(pgp_cmd::EncryptArgs),
    /// Decrypt a password-encrypted OpenPGP message (binary or armored, SEIPD v1 or v2).
    Decrypt(pgp_cmd::DecryptArgs),
    /// Sign with an OpenPGP key: a signed message, a detached or a cleartext signature.
    Sign(sig_cmd::SignArgs),
    /// Verify OpenPGP signatures by the given certificates (exit 0 only if one is good).
    Verify(sig_cmd::VerifyArgs),
    /// Show the packets of OpenPGP data and what it is (never a secret, never message content).
    Inspect(inspect_cmd::InspectArgs),
    /// OpenPGP keys: generate, extract the certificate, show, revoke, merge, update, certify, validate.
    Key {
        #[command(subcommand)]
        op: key_cmd::KeyOp,
    },
    /// Keysets: named transformations with versioned keys, rotation, Tink import/export.
    Keyset {
        #[command(subcommand)]
        op: keyset_cmd::KeysetOp,
    },
    /// Run the features on bundled sample data and print throughput.
    Demo(demo::DemoArgs),
    /// Write the shell completion script for bash, zsh, fish, powershell or elvish to stdout.
    Completions(install_cmd::CompletionsArgs),
    /// Write man pages (tessera.1 and one per subcommand) into a directory.
    Man(install_cmd::ManArgs),
}

#[derive(Subcommand, Debug)]
enum FpeOp {
    /// Tokenize values.
    Encrypt(fpe_cmd::FpeArgs),
    /// Restore tokenized values.
    Decrypt(fpe_cmd::FpeArgs),
    /// Re-encrypt tokens under the keyset's primary key (needs --keyset).
    Rewrap(fpe_cmd::FpeArgs),
}

#[derive(Subcommand, Debug)]
enum SivOp {
    /// Encrypt; output is V || C.
    Encrypt(siv_cmd::SivArgs),
    /// Verify and decrypt V || C.
    Decrypt(siv_cmd::SivArgs),
    /// Re-encrypt under the keyset's primary key (needs --keyset).
    Rewrap(siv_cmd::SivArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Keygen(a) => keygen::run(a),
        Command::Fpe { op: FpeOp::Encrypt(a) } => fpe_cmd::run(a, Direction::Encrypt),
        Command::Fpe { op: FpeOp::Decrypt(a) } => fpe_cmd::run(a, Direction::Decrypt),
        Command::Siv { op: SivOp::Encrypt(a) } => siv_cmd::run(a, Direction::Encrypt),
        Command::Siv { op: SivOp::Decrypt(a) } => siv_cmd::run(a, Direction::Decrypt),
        Command::Encrypt(a) => pgp_cmd::encrypt(a),
        Command::Decrypt(a) => pgp_cmd::decrypt(a),
        Command::Key { op } => key_cmd::run(op),
        Command::Inspect(a) => inspect_cmd::run(a),
        Command::Sign(a) => sig_cmd::sign(a),
        Command::Verify(a) => sig_cmd::verify(a),
        Command::Demo(a) => demo::run(a),
        Command::Completions(a) => install_cmd::completions(a, Cli::command(), "tessera"),
        Command::Man(a) => install_cmd::man(a, Cli::command()),
        Command::Keyset { op } => keyset_cmd::run(op),
        Command::Fpe { op: FpeOp::Rewrap(a) } => keyset_use::fpe(a, keyset_use::Op::Rewrap),
        Command::Siv { op: SivOp::Rewrap(a) } => keyset_use::siv(a, keyset_use::Op::Rewrap),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tessera: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
