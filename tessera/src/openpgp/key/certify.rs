//! Third-party certifications (RFC 9580 §5.2.1.3): one key vouching that a
//! User ID belongs to another certificate, as SOP's `certify-userid` makes
//! them.

use super::super::Result;
use super::super::sig::{SigType, SignatureBuilder};
use super::cert::UserId;
use super::valid::flags;
use super::{Cert, KeyError};

/// What [`Cert::certify`] certifies.
///
/// ```
/// use tessera::openpgp::key::CertifyOptions;
/// let opts = CertifyOptions { user_ids: vec!["Bob <bob@example.org>".into()], ..Default::default() };
/// assert!(opts.require_self_sig); // by default only User IDs the certificate binds itself
/// ```
#[derive(Debug, Clone)]
pub struct CertifyOptions {
    /// The User IDs to certify.
    pub user_ids: Vec<String>,
    /// Certify only User IDs the certificate carries with a valid
    /// self-signature ([`KeyError::UserIdNotBound`] otherwise); when false, a
    /// User ID not on the certificate is added with the certification alone
    /// (a "pet name").
    pub require_self_sig: bool,
    /// When the certification is made (seconds since the epoch); the
    /// certifying key must be valid and able to certify then.
    pub at: u32,
    /// The certification type: 0x10 generic (the default), 0x11 persona,
    /// 0x12 casual, 0x13 positive.
    pub sig_type: u8,
}

impl Default for CertifyOptions {
    fn default() -> Self {
        CertifyOptions { user_ids: Vec::new(), require_self_sig: true, at: 0, sig_type: 0x10 }
    }
}

impl Cert {
    /// Certifies `opts.user_ids` of `target` with this secret key: returns
    /// `target` with a certification by this key's primary key on each.
    /// The key must be valid at `opts.at` and its primary key able to
    /// certify ([`KeyError::CannotCertify`]); a locked key is
    /// [`KeyError::Locked`].
    ///
    /// ```
    /// use tessera::openpgp::key::{CertifyOptions, GenerateOptions, UserIdQuery, generate};
    /// let make = |uid: &str| generate(&GenerateOptions { user_ids: vec![uid.into()], created: Some(1_700_000_000), ..Default::default() });
    /// let (alice, bob) = (make("Alice <alice@example.org>")?, make("Bob <bob@example.org>")?);
    /// let opts = CertifyOptions { user_ids: vec!["Bob <bob@example.org>".into()], at: 1_700_000_100, ..Default::default() };
    /// let certified = alice.certify(&bob.to_public(), &opts)?;
    /// let query = UserIdQuery::Exact("Bob <bob@example.org>");
    /// certified.validate_user_id(&query, &[alice.to_public()], 1_700_000_200)?;
    /// // Bob's own copy is not certified by Alice.
    /// assert!(bob.to_public().validate_user_id(&query, &[alice.to_public()], 1_700_000_200).is_err());
    /// // A User ID Bob does not carry needs `require_self_sig: false`.
    /// let pet = CertifyOptions { user_ids: vec!["Bobby".into()], ..opts };
    /// assert!(alice.certify(&bob.to_public(), &pet).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn certify(&self, target: &Cert, opts: &CertifyOptions) -> Result<Cert> {
        let fingerprint = self.fingerprint();
        let (signer, secret) = self.primary_signer()?;
        let cannot = |why: String| KeyError::CannotCertify { fingerprint, why };
        let valid = self.validate(u64::from(opts.at)).map_err(|e| cannot(e.to_string()))?;
        if valid.primary.flags & flags::CERTIFY == 0 {
            return Err(cannot("its primary key may not certify (no certify key flag)".into()).into());
        }
        if !(0x10..=0x13).contains(&opts.sig_type) {
            return Err(super::super::Error::InvalidOption("a certification type is 0x10 to 0x13"));
        }
        let mut out = target.clone();
        for uid in &opts.user_ids {
            let value = uid.as_bytes();
            let why_unbound = match target.user_ids.iter().find(|u| u.value == value) {
                None => Some("the certificate does not carry it".to_string()),
                Some(u) => target.self_bound(u, u64::from(opts.at)).err().map(str::to_string),
            };
            if opts.require_self_sig
                && let Some(why) = why_unbound
            {
                return Err(
                    KeyError::UserIdNotBound { fingerprint: target.fingerprint(), user_id: uid.clone(), why }.into()
                );
            }
            let sig = SignatureBuilder::new(SigType::Certification(opts.sig_type), opts.at)
                .sign_third_party_certification(signer, secret, target.primary.public(), value)?;
            match out.user_ids.iter_mut().find(|u| u.value == value) {
                Some(u) => u.sigs.push(sig),
                None => out.user_ids.push(UserId { value: value.to_vec(), sigs: vec![sig] }),
            }
        }
        Ok(out)
    }
}
