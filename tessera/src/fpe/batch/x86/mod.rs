//! The x86-64 kernels of the batch engine and the single-value AES-NI
//! chains; each `#[target_feature]` entry takes its `crate::cpu` token.

pub(crate) mod decimal;
pub(crate) mod digit_quads;
pub(crate) mod digits128;
pub(crate) mod digits512;
pub(crate) mod fused256;
pub(crate) mod fused512;
pub(crate) mod fused_avx2;
pub(crate) mod fused_ni;
pub(crate) mod fused_sse;
pub(crate) mod lanes;
pub(crate) mod piped256;
pub(crate) mod round;
pub(crate) mod run;
pub(crate) mod single_ni;
pub(crate) mod vec_op;
