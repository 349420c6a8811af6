//! A keyset for the unit tests: FF1 digits, AES-SIV, FF3-1 with a fixed
//! tweak, and FF1 with a per-call tweak.

use tessera::keyset::{FpeAlgorithm, FpeParams, Keyset, SivParams, Template, TransformParams, TweakPolicy};

/// `numbers`, `emails`, `legacy` and `per_call`.
pub fn keyset() -> Keyset {
    let mut ks = Keyset::new();
    ks.add_transform("numbers", Template::Digits.params()).unwrap();
    ks.add_transform("emails", TransformParams::Siv(SivParams::default())).unwrap();
    let mut old = FpeParams::new("0123456789");
    old.algorithm = FpeAlgorithm::Ff3_1;
    old.tweak = TweakPolicy::Fixed { hex: "d8e7920afa330a".into() };
    ks.add_transform("legacy", TransformParams::Fpe(old)).unwrap();
    let mut per_call = FpeParams::new("0123456789");
    per_call.tweak = TweakPolicy::Call;
    ks.add_transform("per_call", TransformParams::Fpe(per_call)).unwrap();
    ks
}
