#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = tessera_fuzz::harness::decrypt_key(data);
});
