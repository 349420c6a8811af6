//! ASCII armor as people send it (RFC 9580 §6): a real certificate and a
//! real signed message, each mangled the ways mail clients, editors and
//! copy and paste mangle armor (line endings, trailing whitespace, blank
//! lines, headers, the checksum, mail quoting, indentation), read by
//! tessera and by Sequoia (pysequoia) with the same verdict. Tolerance
//! stops at the base64 data: a character that is not base64, or a body
//! cut short, is refused by both.

use crate::common;

use tessera::openpgp::armor::{ArmorReader, ArmorWriter, MESSAGE};
use tessera::openpgp::key::Cert;
use tessera::openpgp::sig::InlineVerifier;

/// RFC 9580 A.3's certificate signs A.7's message, made at this time.
const NOW: u64 = 1_717_200_000;
const CERT: &str = include_str!("../vectors/openpgp/keys/rfc9580_a3_v6_cert.asc");
const ALICE: &str = include_str!("../vectors/openpgp/keys/alice_cert.asc");
const INLINE: &str = include_str!("../vectors/openpgp/rfc9580_a7_inline.asc");

/// A.7's message armored as GnuPG writes it: headers, 64-column lines and
/// the CRC24 line.
fn message_as_gnupg_writes_it() -> String {
    let mut binary = Vec::new();
    std::io::Read::read_to_end(&mut ArmorReader::new(INLINE.as_bytes()), &mut binary).expect("A.7 dearmors");
    let mut w = ArmorWriter::new(Vec::new(), MESSAGE, true).expect("armor");
    std::io::Write::write_all(&mut w, &binary).expect("armor");
    let text = String::from_utf8(w.finish().expect("armor")).expect("ASCII");
    text.replacen("-----\n", "-----\nVersion: GnuPG v2\nComment: the grocery list\n", 1)
}

type Mangle = fn(&str) -> String;

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// Each line through `f` (with its index), joined with LF.
fn per_line(text: &str, f: impl Fn(usize, &str) -> String) -> String {
    lines(text).iter().enumerate().map(|(i, l)| f(i, l) + "\n").collect()
}

/// The index of the blank line that ends the headers.
fn blank(text: &str) -> usize {
    lines(text).iter().position(|l| l.is_empty()).expect("a blank line after the headers")
}

/// The index of the first body line.
fn body_start(text: &str) -> usize {
    blank(text) + 1
}

/// Replaces line `at` with `with` (no line when `with` is `None`).
fn set_line(text: &str, at: usize, with: Option<String>) -> String {
    let mut l: Vec<String> = lines(text).iter().map(|s| s.to_string()).collect();
    match with {
        Some(w) => l[at] = w,
        None => drop(l.remove(at)),
    }
    l.iter().map(|s| s.clone() + "\n").collect()
}

/// The mangled variants tessera and Sequoia both read.
const READ: &[(&str, Mangle)] = &[
    ("as written", |t| t.to_string()),
    ("CR LF line endings", |t| t.replace('\n', "\r\n")),
    ("mixed line endings", |t| per_line(t, |i, l| if i % 2 == 0 { format!("{l}\r") } else { l.to_string() })),
    ("trailing spaces and tabs on every line", |t| per_line(t, |i, l| format!("{l}{}", [" ", "\t", "  \t "][i % 3]))),
    ("two blank lines after the headers", |t| t.replacen("\n\n", "\n\n\n", 1)),
    ("an unknown header", |t| t.replacen("-----\n", "-----\nX-Mailer-Thing: some value\n", 1)),
    ("a header of 10000 characters", |t| {
        t.replacen("-----\n", &format!("-----\nComment: {}\n", "x".repeat(10_000)), 1)
    }),
    ("no CRC24 line", |t| {
        per_line(t, |_, l| l.to_string()).lines().filter(|l| !l.starts_with('=')).map(|l| format!("{l}\n")).collect()
    }),
    ("a wrong CRC24", |t| {
        let crc = lines(t).iter().position(|l| l.starts_with('='));
        match crc {
            Some(i) => set_line(t, i, Some("=AAAA".into())),
            None => t.replacen("\n-----END", "\n=AAAA\n-----END", 1),
        }
    }),
    ("text before and after the block", |t| format!("Hi,\n\nhere it is:\n\n{t}\nCheers\n")),
    ("body lines rewrapped at 40 columns", |t| {
        let all = lines(t);
        let (head, rest) = all.split_at(body_start(t));
        let body: String = rest.iter().take_while(|l| !l.starts_with('=') && !l.starts_with('-')).copied().collect();
        let tail: Vec<_> = rest.iter().skip_while(|l| !l.starts_with('=') && !l.starts_with('-')).collect();
        let mut out: String = head.iter().map(|l| format!("{l}\n")).collect();
        body.as_bytes().chunks(40).for_each(|c| out += &format!("{}\n", std::str::from_utf8(c).expect("ASCII")));
        tail.iter().for_each(|l| out += &format!("{l}\n"));
        out
    }),
    ("no headers and no blank line after the BEGIN line", |t| {
        let all = lines(t);
        let kept: Vec<_> = [&all[..1], &all[body_start(t)..]].concat();
        kept.iter().map(|l| format!("{l}\n")).collect()
    }),
    ("quoted in a reply ('> ')", |t| per_line(t, |_, l| format!("> {l}"))),
    ("quoted twice ('> > ')", |t| per_line(t, |_, l| format!("> > {l}"))),
    ("quoted twice ('>> ')", |t| per_line(t, |_, l| format!(">> {l}"))),
    ("indented by four spaces", |t| per_line(t, |_, l| format!("    {l}"))),
    ("indented by a tab", |t| per_line(t, |_, l| format!("\t{l}"))),
];

/// The variants both refuse: the base64 data itself damaged.
const REFUSED: &[(&str, Mangle)] = &[
    ("a header with no space after the colon (not a header, and no base64)", |t| {
        t.replacen("-----\n", "-----\nComment:tight\n", 1)
    }),
    ("lower-case BEGIN and END lines (not armor)", |t| {
        t.replace("-----BEGIN PGP MESSAGE", "-----begin pgp message")
            .replace("-----END PGP MESSAGE", "-----end pgp message")
            .replace("-----BEGIN PGP PUBLIC KEY BLOCK", "-----begin pgp public key block")
            .replace("-----END PGP PUBLIC KEY BLOCK", "-----end pgp public key block")
    }),
    ("headers and no blank line after them", |t| {
        let t = t.replacen("-----\n", "-----\nComment: a header\n", 1);
        set_line(&t, blank(&t), None)
    }),
    ("a '*' in the body", |t| {
        let at = body_start(t) + 1;
        let line = lines(t)[at].to_string();
        set_line(t, at, Some(format!("{}*{}", &line[..10], &line[11..])))
    }),
    ("a body line missing", |t| set_line(t, body_start(t) + 1, None)),
    ("the END line missing", |t| {
        lines(t).iter().filter(|l| !l.starts_with("-----END")).map(|l| format!("{l}\n")).collect()
    }),
];

/// Damage only a signature check can see (the CRC24 may not be relied on,
/// §6.1): refused for messages.
const MESSAGE_REFUSED: &[(&str, Mangle)] = &[("a base64 digit changed", |t| {
    let at = body_start(t) + 2;
    let line = lines(t)[at].to_string();
    let c = if &line[20..21] == "A" { "B" } else { "A" };
    set_line(t, at, Some(format!("{}{c}{}", &line[..20], &line[21..])))
})];

/// How each implementation judges one variant: a certificate read with the
/// right fingerprint, or a message whose signature is good.
#[derive(Clone, Copy)]
enum Kind {
    Cert,
    Message,
}

struct Variant {
    name: String,
    kind: Kind,
    text: String,
    read: bool,
}

fn variants() -> Vec<Variant> {
    let bases = [
        ("Alice's certificate", Kind::Cert, ALICE.to_string()),
        ("A.3's certificate", Kind::Cert, CERT.to_string()),
        ("A.7's message", Kind::Message, INLINE.to_string()),
        ("A.7's message as GnuPG armors it", Kind::Message, message_as_gnupg_writes_it()),
    ];
    let mut out = Vec::new();
    for (base, kind, text) in &bases {
        let damaged = if matches!(kind, Kind::Message) { MESSAGE_REFUSED } else { &[] };
        for (list, read) in [(READ, true), (REFUSED, false), (damaged, false)] {
            for (name, mangle) in list {
                let text = mangle(text);
                out.push(Variant { name: format!("{base}, {name}"), kind: *kind, text, read });
            }
        }
    }
    out
}

fn tessera_reads(v: &Variant) -> bool {
    let a3 = Cert::from_bytes(CERT.as_bytes()).expect("A.3");
    match v.kind {
        Kind::Cert => Cert::read_all(v.text.as_bytes()).is_ok_and(|c| {
            let bytes = |c: &Cert| c.to_bytes().expect("serialize").to_vec();
            let alice = Cert::from_bytes(ALICE.as_bytes()).expect("Alice");
            c.len() == 1 && [alice, a3].iter().any(|r| bytes(r) == bytes(&c[0]))
        }),
        Kind::Message => InlineVerifier::new(v.text.as_bytes(), std::slice::from_ref(&a3), NOW)
            .and_then(|r| r.verify_to(&mut std::io::sink()))
            .is_ok_and(|r| r.iter().any(|r| r.is_good())),
    }
}

/// Sequoia's verdicts: a certificate read (its fingerprint the original's),
/// a message verified (by `common::sequoia_verifies_bytes`).
fn sequoia_reads(python: &std::path::Path, vs: &[Variant]) -> Vec<bool> {
    const CERTS: &str = r#"
import sys, json, warnings
warnings.simplefilter("ignore")
import pysequoia as ps
req = json.load(sys.stdin)
fprs = [ps.Cert.from_bytes(c.encode()).fingerprint for c in req["originals"]]
def reads(text):
    try:
        return ps.Cert.from_bytes(text.encode()).fingerprint in fprs
    except Exception:
        return False
print(json.dumps([reads(t) for t in req["texts"]]))
"#;
    let certs: Vec<_> = vs.iter().filter(|v| matches!(v.kind, Kind::Cert)).map(|v| v.text.as_str()).collect();
    let req = serde_json::json!({"originals": [ALICE, CERT], "texts": certs});
    let out = common::run_python(python, CERTS, &req);
    let mut cert_verdicts = out.as_array().expect("a list").iter().map(|v| v.as_bool().expect("a verdict"));
    let a3 = Cert::from_bytes(CERT.as_bytes()).expect("A.3").to_bytes().expect("serialize").to_vec();
    let messages: Vec<_> = vs
        .iter()
        .filter(|v| matches!(v.kind, Kind::Message))
        .map(|v| (a3.clone(), Vec::new(), v.text.as_bytes().to_vec()))
        .collect();
    let mut message_verdicts = common::sequoia_verifies_bytes(python, &messages).into_iter();
    vs.iter()
        .map(|v| match v.kind {
            Kind::Cert => cert_verdicts.next(),
            Kind::Message => message_verdicts.next(),
        })
        .map(|v| v.expect("a verdict per variant"))
        .collect()
}

#[test]
fn mangled_armor_is_read_and_damaged_base64_is_refused() {
    let wrong: Vec<_> = variants()
        .into_iter()
        .filter(|v| tessera_reads(v) != v.read)
        .map(|v| format!("{}: expected {}", v.name, if v.read { "read" } else { "refused" }))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn sequoia_gives_the_same_verdict() {
    let Some(python) = common::peer_python("pysequoia") else { return };
    let vs = variants();
    let sequoia = sequoia_reads(&python, &vs);
    let differ: Vec<_> = vs
        .iter()
        .zip(sequoia)
        .filter(|(v, s)| *s != v.read)
        .map(|(v, s)| format!("{}: Sequoia {}", v.name, if s { "reads it" } else { "refuses it" }))
        .collect();
    assert!(differ.is_empty(), "{differ:#?}");
}
