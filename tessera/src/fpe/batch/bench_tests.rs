/// Ends that do not cover the data say false (instead of slicing past
/// the data).
#[test]
fn check_parse_format_refuses_ends_past_the_data() {
    let mut data = [1u16; 10];
    assert!(!super::check_parse_format(&mut data, &[16, 32], 16, true));
    assert_eq!(data, [1u16; 10]);
}
