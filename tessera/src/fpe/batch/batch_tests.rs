use super::*;

/// A run done one value at a time checks all its numerals first: a
/// numeral at the radix (or 0xffff) anywhere does nothing and says
/// `Some(0)`; a good run calls `each` once per value, in order.
#[test]
fn each_value_checks_the_whole_run_first() {
    let good: Vec<u16> = (0..15).map(|i| (i % 7) as u16).collect();
    let mut seen = Vec::new();
    let mut run = good.clone();
    let r = each_value(&mut run, 5, 7, |j, x| {
        seen.push((j, x.to_vec()));
        Ok(())
    });
    assert_eq!(r, Ok(None));
    assert_eq!(seen, good.chunks(5).enumerate().map(|(j, x)| (j, x.to_vec())).collect::<Vec<_>>());
    for at in 0..good.len() {
        for bad in [7, 0xffff] {
            let mut run = good.clone();
            run[at] = bad;
            assert_eq!(each_value(&mut run, 5, 7, |_, _| panic!("a value was done")), Ok(Some(0)));
        }
    }
}
