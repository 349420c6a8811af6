//! *ring*'s AES-GCM key, wiped on drop. *ring* does not zeroize its key
//! schedule, so the key lives in its own heap cell: dropped in place first,
//! then every byte of the cell is overwritten before the cell is freed.
#![allow(unsafe_code)]

use core::mem::ManuallyDrop;

use ring::aead::LessSafeKey;

pub(crate) struct RingKey(Box<ManuallyDrop<LessSafeKey>>);

impl RingKey {
    pub(crate) fn new(key: LessSafeKey) -> Self {
        RingKey(Box::new(ManuallyDrop::new(key)))
    }
}

impl core::ops::Deref for RingKey {
    type Target = LessSafeKey;
    fn deref(&self) -> &LessSafeKey {
        &self.0
    }
}

impl Clone for RingKey {
    fn clone(&self) -> Self {
        RingKey::new(LessSafeKey::clone(self))
    }
}

impl Drop for RingKey {
    fn drop(&mut self) {
        let cell: &mut ManuallyDrop<LessSafeKey> = &mut self.0;
        // SAFETY: the key is dropped exactly once, here, and never used
        // again: the Box that holds it only frees its memory afterwards,
        // so its bytes may then be overwritten.
        unsafe {
            ManuallyDrop::drop(cell);
            crate::wipe::wipe((cell as *mut ManuallyDrop<LessSafeKey>).cast::<core::mem::MaybeUninit<LessSafeKey>>());
        }
    }
}
