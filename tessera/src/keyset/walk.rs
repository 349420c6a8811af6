//! FPE transformations whose values and tokens stay inside a subset of the
//! format's domain: card numbers whose tokens pass or fail the Luhn check,
//! and ISO dates in a range. Both encrypt by cycle walking (encrypting
//! again until the result is inside the subset), which is a permutation of
//! the subset because the cipher is a permutation of the whole domain.
//!
//! - **Luhn**: every value must pass the Luhn check (it is a card number).
//!   With [`LuhnRule::Pass`] the encrypted digits walk until the whole
//!   token passes too. With [`LuhnRule::Fail`] they walk the same way and
//!   then the last encrypted digit is raised by one (mod 10), which always
//!   breaks the check: a token can never be taken for a card number. The
//!   check digit carries no information, so the secret part of a 16-digit
//!   card under the card template (6 digits encrypted) has 100,000 values.
//! - **Dates**: `YYYY-MM-DD` in a [`DateRange`](super::DateRange); the day number is
//!   encrypted as decimal numerals and walks until it is inside the range.
//!   The range must hold at least 1,000,000 days, the smallest domain NIST
//!   SP 800-38G Rev. 1 (second draft) allows; the default is every date of
//!   years 1 to 9999, so that tokens are valid SQL `DATE` values.

use time::{Date, Month};
use zeroize::Zeroizing;

use crate::Direction;
use crate::fpe::{Alphabet, Fpe, TokenFormat, Tweaks};

use super::error::{Error, Result, at};
use super::model::{FpeParams, KeyVersionMode, LuhnRule};

/// The smallest domain a date range may have (NIST's minimum FPE domain).
const MIN_DAYS: u64 = 1_000_000;

/// How a transformation keeps its values inside their subset.
#[derive(Debug, Clone)]
pub(crate) enum Walk {
    /// Card numbers: ASCII digits, `pass` kept in place, the first
    /// `keep_prefix` and last `keep_suffix` digits kept in clear.
    Luhn { rule: LuhnRule, pass: Vec<u8>, keep_prefix: usize, keep_suffix: usize },
    /// Day numbers below `days`, counted from the Julian day `first`, as
    /// `width` decimal numerals.
    Date { first: i32, days: u32, width: usize },
}

/// Parses `YYYY-MM-DD` (four-digit year, two-digit month and day).
fn parse_date(s: &str) -> Option<Date> {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        b[r].iter().try_fold(0u32, |n, &c| c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0')))
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = i32::try_from(digits(0..4)?).ok()?;
    let month = Month::try_from(u8::try_from(digits(5..7)?).ok()?).ok()?;
    Date::from_calendar_date(year, month, u8::try_from(digits(8..10)?).ok()?).ok()
}

/// The Luhn sum contribution of digit `d` at an odd (`true`) or even
/// position counted from the right, the rightmost being position 0.
fn luhn_digit(odd: bool, d: u16) -> u16 {
    u16::from(LUHN[usize::from(odd) * 16 + usize::from(d % 10)])
}

/// [`luhn_digit`] as two rows of 16, even positions then odd (a digit
/// below 10 masked to four bits indexes it without a bounds check).
const LUHN: [u8; 32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, //
    0, 2, 4, 6, 8, 1, 3, 5, 7, 9, 0, 0, 0, 0, 0, 0,
];

/// A value's Luhn state apart from its encrypted digits: the sum of its
/// kept digits mod 10, and whether its first encrypted digit sits at an odd
/// position from the right.
#[derive(Clone, Copy)]
struct LuhnFixed {
    sum: u16,
    odd: bool,
}

impl LuhnFixed {
    /// Whether the encrypted digits `numerals` (all below 10) complete a
    /// number that passes: one table lookup per digit, no branch. The first
    /// digit is doubled when it sits at an odd position from the right.
    #[inline]
    fn passes(self, numerals: &[u16]) -> bool {
        let mut sum = u32::from(self.sum);
        let mut doubled = usize::from(self.odd);
        for &d in numerals {
            sum += u32::from(LUHN[doubled * 16 + usize::from(d & 15)]);
            doubled ^= 1;
        }
        sum.is_multiple_of(10)
    }
}

/// Appends the digits of the card number `bytes` (ASCII digits and
/// passthrough characters) after its first `keep_prefix` and before its last
/// `keep_suffix` to `data`; returns whether the whole number passes the
/// Luhn check, and its state apart from those digits.
fn card_digits(bytes: &[u8], keep_prefix: usize, keep_suffix: usize, data: &mut Vec<u16>) -> (bool, LuhnFixed) {
    let total = bytes.iter().filter(|b| b.is_ascii_digit()).count();
    let (lo, hi) = (keep_prefix, total.saturating_sub(keep_suffix).max(keep_prefix));
    let (mut all, mut kept) = (0u16, 0u16);
    for (k, d) in bytes.iter().filter(|b| b.is_ascii_digit()).map(|b| u16::from(b - b'0')).enumerate() {
        let c = luhn_digit((total - 1 - k) % 2 == 1, d);
        all += c;
        if (lo..hi).contains(&k) {
            data.push(d);
        } else {
            kept += c;
        }
    }
    (all.is_multiple_of(10), LuhnFixed { sum: kept % 10, odd: total.saturating_sub(1 + lo) % 2 == 1 })
}

/// Writes `date` as `YYYY-MM-DD`.
fn push_date(date: Date, out: &mut Vec<u8>) {
    let digits = |n: u32, width: u32, out: &mut Vec<u8>| {
        out.extend((0..width).rev().map(|i| b'0' + (n / 10u32.pow(i) % 10) as u8));
    };
    digits(date.year() as u32, 4, out);
    out.push(b'-');
    digits(u32::from(u8::from(date.month())), 2, out);
    out.push(b'-');
    digits(u32::from(date.day()), 2, out);
}

impl Walk {
    /// The walk `p` asks for, if any, checking that the rest of `p` allows it.
    pub(crate) fn of(name: &str, p: &FpeParams) -> Result<Option<Walk>> {
        let bad = |reason: &str| Err(Error::invalid(format!("transformation {name:?}: {reason}")));
        let walk = match (p.luhn, &p.date) {
            (None, None) => return Ok(None),
            (Some(_), Some(_)) => return bad("a transformation is either for card numbers (luhn) or for dates"),
            (Some(rule), None) => Walk::Luhn {
                rule,
                pass: p.passthrough.bytes().collect(),
                keep_prefix: p.keep_prefix,
                keep_suffix: p.keep_suffix,
            },
            (None, Some(range)) => {
                let (Some(first), Some(last)) = (parse_date(&range.first), parse_date(&range.last)) else {
                    return bad("the date range's ends must be YYYY-MM-DD dates");
                };
                let days = i64::from(last.to_julian_day()) - i64::from(first.to_julian_day()) + 1;
                if days < MIN_DAYS as i64 {
                    return bad(&format!(
                        "the date range {}..{} holds {} days; FPE needs a domain of at least {MIN_DAYS} (NIST SP 800-38G Rev. 1)",
                        range.first,
                        range.last,
                        days.max(0)
                    ));
                }
                let days = u32::try_from(days).expect("years 0-9999 hold fewer than 2^32 days");
                Walk::Date { first: first.to_julian_day(), days, width: (days - 1).to_string().len() }
            }
        };
        if p.alphabet != "0123456789" {
            return bad("card number and date transformations take the alphabet 0123456789");
        }
        if matches!(walk, Walk::Luhn { .. }) && !p.passthrough.is_ascii() {
            return bad("card number transformations keep ASCII characters in place");
        }
        if p.key_version == KeyVersionMode::Embedded || p.keep_from_last.is_some() {
            return bad("card number and date transformations take external key versions and no keep-from-last");
        }
        let plain = p.passthrough.is_empty() && p.keep_prefix == 0 && p.keep_suffix == 0;
        if matches!(walk, Walk::Date { .. }) && !plain {
            return bad("date transformations take no passthrough characters and keep nothing in clear");
        }
        Ok(Some(walk))
    }

    /// Encrypts or decrypts `values`, appending each result to `out` and
    /// its end to `ends`. An error names the value (a batch error).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        &self,
        cipher: &dyn Fpe,
        alphabet: &Alphabet,
        format: &TokenFormat,
        dir: Direction,
        tweaks: Tweaks<'_>,
        values: &[&str],
        out: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<()> {
        // Room for every numeral up front: a growing buffer would free copies unwiped.
        let mut data = Zeroizing::new(Vec::with_capacity(values.iter().map(|v| v.len()).sum()));
        let mut starts = Vec::with_capacity(values.len() + 1);
        starts.push(0);
        let mut fixed = Vec::new();
        for (i, v) in values.iter().enumerate() {
            self.load(alphabet, format, dir, v, &mut data, &mut fixed).map_err(at(i))?;
            starts.push(data.len());
        }
        let inside = |i: usize, x: &[u16]| match self {
            Walk::Luhn { .. } => fixed[i].passes(x),
            Walk::Date { days, .. } => x.iter().fold(0u64, |n, &d| n * 10 + u64::from(d)) < u64::from(*days),
        };
        cycle_walk(cipher, dir, tweaks, &mut data, &starts, inside)?;
        for (i, v) in values.iter().enumerate() {
            let x = &mut data[starts[i]..starts[i + 1]];
            match self {
                Walk::Luhn { rule, keep_prefix, .. } => {
                    if let (LuhnRule::Fail, Direction::Encrypt, Some(last)) = (rule, dir, x.last_mut()) {
                        *last = (*last + 1) % 10;
                    }
                    // The value's digits lo..hi are the walked numerals.
                    let (lo, hi, x) = (*keep_prefix, *keep_prefix + x.len(), &*x);
                    let mut k = 0;
                    out.extend(v.bytes().map(|b| {
                        if !b.is_ascii_digit() {
                            return b;
                        }
                        k += 1;
                        if (lo..hi).contains(&(k - 1)) { b'0' + x[k - 1 - lo] as u8 } else { b }
                    }));
                }
                Walk::Date { first, .. } => {
                    let day = x.iter().fold(0i32, |n, &d| n * 10 + i32::from(d));
                    let date = Date::from_julian_day(first + day).expect("inside the range");
                    push_date(date, out);
                }
            }
            ends.push(out.len());
        }
        Ok(())
    }

    /// Appends the numerals of `value` to `data` (for a Luhn walk, its
    /// fixed part to `fixed`), refusing a value outside the subset.
    fn load(
        &self,
        alphabet: &Alphabet,
        format: &TokenFormat,
        dir: Direction,
        value: &str,
        data: &mut Vec<u16>,
        fixed: &mut Vec<LuhnFixed>,
    ) -> Result<()> {
        let refuse = |reason: &'static str| Err(Error::ValueRefused(reason));
        match self {
            Walk::Luhn { rule, pass, keep_prefix, keep_suffix } => {
                let bytes = value.as_bytes();
                if !bytes.iter().all(|b| b.is_ascii_digit() || pass.contains(b)) {
                    // The format's reader names the character that is neither.
                    format.extract(alphabet, value, &mut vec![0; value.len()])?;
                    return refuse("the value holds a character that is neither a digit nor kept in place");
                }
                let at = data.len();
                let (passes, f) = card_digits(bytes, *keep_prefix, *keep_suffix, data);
                match (dir, rule, passes) {
                    (Direction::Encrypt, _, false) => {
                        return refuse("the value fails the Luhn check: not a card number");
                    }
                    (Direction::Decrypt, LuhnRule::Pass, false) => {
                        return refuse("the token fails the Luhn check; this transformation's tokens pass it");
                    }
                    (Direction::Decrypt, LuhnRule::Fail, true) => {
                        return refuse("the token passes the Luhn check; this transformation's tokens fail it");
                    }
                    _ => {}
                }
                if let (Direction::Decrypt, LuhnRule::Fail, Some(last)) = (dir, rule, data[at..].last_mut()) {
                    *last = (*last + 9) % 10;
                    if !f.passes(&data[at..]) {
                        return refuse("the token is not one this transformation makes (its Luhn digit is off)");
                    }
                }
                fixed.push(f);
            }
            Walk::Date { first, days, width } => {
                let day = parse_date(value).map(|d| i64::from(d.to_julian_day()) - i64::from(*first));
                let Some(day) = day.filter(|d| (0..i64::from(*days)).contains(d)) else {
                    return refuse("the value is not a YYYY-MM-DD date in the transformation's range");
                };
                let at = data.len();
                data.resize(at + width, 0);
                let mut rest = day;
                for d in data[at..].iter_mut().rev() {
                    *d = (rest % 10) as u16;
                    rest /= 10;
                }
            }
        }
        Ok(())
    }
}

/// Transforms every value (numerals `data[starts[i]..starts[i + 1]]`), then
/// again those not `inside`, until all are. The values still walking sit
/// back to back in one buffer, compacted after each call, and go back to
/// `data` once inside: each is copied out and back once.
fn cycle_walk(
    cipher: &dyn Fpe,
    dir: Direction,
    tweaks: Tweaks<'_>,
    data: &mut [u16],
    starts: &[usize],
    inside: impl Fn(usize, &[u16]) -> bool,
) -> Result<()> {
    let span = |i: usize| starts[i]..starts[i + 1];
    cipher.transform_batch(dir, tweaks, data, &starts[1..])?;
    let mut pending: Vec<usize> = (0..starts.len() - 1).filter(|&i| !inside(i, &data[span(i)])).collect();
    let mut walking = Zeroizing::new(Vec::with_capacity(pending.iter().map(|&i| starts[i + 1] - starts[i]).sum()));
    let (mut ends, mut own_tweaks) = (Vec::with_capacity(pending.len()), Vec::new());
    for &i in &pending {
        walking.extend_from_slice(&data[span(i)]);
        ends.push(walking.len());
        if let Tweaks::PerValue(ts) = tweaks {
            own_tweaks.push(ts[i]);
        }
    }
    let tweak_of = |i: usize| match tweaks {
        Tweaks::Same(t) => t,
        Tweaks::PerValue(ts) => ts[i],
    };
    while !pending.is_empty() {
        // The last few go one at a time: a batch call costs more than their rounds.
        if pending.len() < 16 {
            let mut start = 0;
            for (&i, &end) in pending.iter().zip(&ends) {
                let x = &mut walking[start..end];
                cipher.transform_numerals(dir, tweak_of(i), x)?;
                while !inside(i, x) {
                    cipher.transform_numerals(dir, tweak_of(i), x)?;
                }
                data[span(i)].copy_from_slice(x);
                start = end;
            }
            break;
        }
        let t = match tweaks {
            Tweaks::Same(t) => Tweaks::Same(t),
            Tweaks::PerValue(_) => Tweaks::PerValue(&own_tweaks),
        };
        cipher.transform_batch(dir, t, &mut walking, &ends)?;
        let (mut start, mut kept, mut w) = (0, 0, 0);
        for k in 0..pending.len() {
            let (i, end) = (pending[k], ends[k]);
            if inside(i, &walking[start..end]) {
                data[span(i)].copy_from_slice(&walking[start..end]);
            } else {
                walking.copy_within(start..end, w);
                w += end - start;
                (pending[kept], ends[kept]) = (i, w);
                if !own_tweaks.is_empty() {
                    own_tweaks[kept] = own_tweaks[k];
                }
                kept += 1;
            }
            start = end;
        }
        pending.truncate(kept);
        ends.truncate(kept);
        own_tweaks.truncate(kept);
        walking.truncate(w);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the digits of `s` (other characters skipped) pass the Luhn check.
    fn luhn_passes(s: &str) -> bool {
        let digits = s.bytes().rev().filter(u8::is_ascii_digit).map(|c| u16::from(c - b'0'));
        digits.enumerate().map(|(i, d)| luhn_digit(i % 2 == 1, d)).sum::<u16>().is_multiple_of(10)
    }

    #[test]
    fn luhn_check_matches_known_numbers() {
        assert!(luhn_passes("4111-1111-1111-1111"));
        assert!(luhn_passes("79927398713"));
        assert!(!luhn_passes("79927398710"));
        assert!(!luhn_passes("4111 1111 1111 1112"));
    }

    #[test]
    fn the_fixed_part_and_the_encrypted_digits_give_the_whole_check() {
        for card in ["4111111111111111", "5500-0000-0000-0004", "378282246310005", "6011000990139424"] {
            let digits: Vec<u16> = card.bytes().filter(u8::is_ascii_digit).map(|c| u16::from(c - b'0')).collect();
            for from in 0..6 {
                for n in 1..(digits.len() - from) {
                    let mut got = Vec::new();
                    let (passes, f) = card_digits(card.as_bytes(), from, digits.len() - from - n, &mut got);
                    assert_eq!((passes, &got[..]), (luhn_passes(card), &digits[from..from + n]), "{card} {from} {n}");
                    assert_eq!(f.passes(&digits[from..from + n]), luhn_passes(card), "{card} {from} {n}");
                    let mut changed = digits.clone();
                    changed[from + n - 1] = (changed[from + n - 1] + 1) % 10;
                    assert!(!f.passes(&changed[from..from + n]));
                    // Every value of every encrypted digit, against the whole number's check.
                    for (k, d) in (from..from + n).flat_map(|k| (0..10).map(move |d| (k, d))) {
                        let mut other = digits.clone();
                        other[k] = d;
                        let text: String = other.iter().map(|&d| char::from(b'0' + d as u8)).collect();
                        assert_eq!(f.passes(&other[from..from + n]), luhn_passes(&text), "{card} {from} {n} {k} {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn dates_parse_strictly() {
        assert!(parse_date("2024-02-29").is_some());
        for bad in ["2023-02-29", "2024-13-01", "2024-1-01", "24-01-01", "2024/01/01", "2024-01-01 ", "２０２４-01-01"]
        {
            assert!(parse_date(bad).is_none(), "{bad}");
        }
    }
}
