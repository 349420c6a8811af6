use super::*;

/// `line` walks the numerals and then the ends a 64-byte line at a
/// time (short tails included) and then does nothing; `rest` empties.
#[test]
fn lines_walk_numerals_then_ends() {
    let (numerals, ends) = ([0u16; 70], [0usize; 10]);
    let mut a = Ahead { numerals: &numerals, ends: &ends };
    let mut seen = Vec::new();
    for _ in 0..7 {
        a.line();
        seen.push((a.numerals.len(), a.ends.len()));
    }
    assert_eq!(seen, [(38, 10), (6, 10), (0, 10), (0, 2), (0, 0), (0, 0), (0, 0)]);
    let mut b = Ahead { numerals: &numerals, ends: &ends };
    b.rest();
    assert!(b.numerals.is_empty() && b.ends.is_empty());
}

/// `part(k)` asks for a k-th of the lines left, rounded up: 5 lines
/// (3 of numerals, 2 of ends) in thirds take 2, 2 and the last one;
/// a part of 1 (or 0) takes everything.
#[test]
fn parts_split_the_lines_left() {
    let (numerals, ends) = ([0u16; 70], [0usize; 10]);
    let mut a = Ahead { numerals: &numerals, ends: &ends };
    let mut seen = Vec::new();
    for k in [3, 2, 1] {
        a.part(k);
        seen.push((a.numerals.len(), a.ends.len()));
    }
    assert_eq!(seen, [(6, 10), (0, 2), (0, 0)]);
    for k in [0, 1] {
        let mut b = Ahead { numerals: &numerals, ends: &ends };
        b.part(k);
        assert!(b.numerals.is_empty() && b.ends.is_empty(), "part({k})");
    }
}
