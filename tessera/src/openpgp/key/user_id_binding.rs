//! Whether a User ID is bound to a certificate: by the certificate's own
//! self-signature, or by certifications of authorities (SOP's
//! `validate-userid`).

use super::super::Result;
use super::super::sig::cost::{Budget, VALIDATION_BUDGET, verify_cost};
use super::super::sig::{SigType, Signature};
use super::cert::UserId;
use super::valid::flags;
use super::{Cert, KeyError, PublicKey};

/// Which User IDs a query matches.
///
/// ```
/// use tessera::openpgp::key::UserIdQuery;
/// assert!(UserIdQuery::Exact("Alice <alice@example.org>").matches(b"Alice <alice@example.org>"));
/// assert!(!UserIdQuery::Exact("Alice").matches(b"Alice <alice@example.org>"));
/// assert!(UserIdQuery::Email("alice@example.org").matches(b"Alice <Alice@Example.org>"));
/// assert!(UserIdQuery::Email("alice@example.org").matches(b"alice@example.org"));
/// assert!(!UserIdQuery::Email("alice@example.org").matches(b"Mallory <malice@example.org>"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserIdQuery<'a> {
    /// The User ID exactly, octet for octet.
    Exact(&'a str),
    /// The e-mail address (addr-spec) of the User ID: the part between `<`
    /// and `>`, or the whole User ID if it is a bare address; compared
    /// without regard to ASCII case.
    Email(&'a str),
}

/// The addr-spec of a User ID, if it has one.
fn addr_spec(value: &[u8]) -> Option<&[u8]> {
    match value.iter().rposition(|&b| b == b'<') {
        Some(open) => {
            let rest = &value[open + 1..];
            let close = rest.iter().position(|&b| b == b'>')?;
            Some(&rest[..close])
        }
        None => (value.contains(&b'@') && !value.contains(&b' ')).then_some(value),
    }
}

impl UserIdQuery<'_> {
    /// Whether the User ID `value` matches.
    ///
    /// ```
    /// use tessera::openpgp::key::UserIdQuery;
    /// assert!(UserIdQuery::Email("bob@example.org").matches(b"Bob (work) <bob@example.org>"));
    /// ```
    pub fn matches(&self, value: &[u8]) -> bool {
        match self {
            UserIdQuery::Exact(s) => s.as_bytes() == value,
            UserIdQuery::Email(s) => addr_spec(value).is_some_and(|a| a.eq_ignore_ascii_case(s.as_bytes())),
        }
    }

    fn text(&self) -> &str {
        match self {
            UserIdQuery::Exact(s) | UserIdQuery::Email(s) => s,
        }
    }
}

/// The estimated work one User ID check may spend on signature checks:
/// what one certificate validation may ([`VALIDATION_BUDGET`]). Past it,
/// what is left unchecked does not bind (a certificate crafted with many
/// costly, bogus certifications cannot make a check run for hours).
fn certification_budget() -> Budget {
    Budget::new(VALIDATION_BUDGET.primary + VALIDATION_BUDGET.subkeys + VALIDATION_BUDGET.revocations)
}

/// Whether the newest certification of `sigs` by `signer` live at `at` and
/// passing `verify` is not revoked by a later revocation from the same
/// signer (also passing `verify`) made by `at`. Each check is paid from
/// `budget`; when it runs out, the answer is no.
fn certified(
    sigs: &[Signature],
    signer: &PublicKey,
    at: u64,
    budget: &Budget,
    verify: impl Fn(&Signature) -> bool,
) -> bool {
    let fp = signer.fingerprint();
    let cost = verify_cost(signer);
    let by_signer = |s: &&Signature| s.may_be_issued_by(&fp);
    let mut certifications: Vec<&Signature> = sigs
        .iter()
        .filter(by_signer)
        .filter(|s| matches!(s.sig_type(), SigType::Certification(_)) && s.is_live_at(at))
        .collect();
    certifications.sort_by_key(|s| std::cmp::Reverse(s.created()));
    let Some(c) = certifications.into_iter().find(|s| budget.spend(cost) && verify(s)) else { return false };
    let revocations = sigs.iter().filter(by_signer).filter(|r| {
        r.sig_type() == SigType::CertificationRevocation
            && r.created() >= c.created()
            && r.created().is_some_and(|t| u64::from(t) <= at)
    });
    for r in revocations {
        if !budget.spend(cost) || verify(r) {
            return false;
        }
    }
    true
}

impl Cert {
    /// Whether `uid` carries a live, verifying self-certification at `at`
    /// that no later self-revocation undoes.
    pub(crate) fn self_bound(&self, uid: &UserId, at: u64) -> std::result::Result<(), &'static str> {
        self.self_bound_within(uid, at, &certification_budget())
    }

    /// Whether the owner revoked `uid` by `at` (a verifying certification
    /// revocation by the primary key; also when the budget runs out).
    fn self_revoked(&self, uid: &UserId, at: u64, budget: &Budget) -> bool {
        let pk = self.primary.public();
        let fp = pk.fingerprint();
        let cost = verify_cost(pk);
        uid.sigs
            .iter()
            .filter(|r| r.sig_type() == SigType::CertificationRevocation && r.may_be_issued_by(&fp))
            .filter(|r| r.created().is_some_and(|t| u64::from(t) <= at))
            .any(|r| !budget.spend(cost) || r.verify_certification(pk, &uid.value).is_ok())
    }

    fn self_bound_within(&self, uid: &UserId, at: u64, budget: &Budget) -> std::result::Result<(), &'static str> {
        let pk = self.primary.public();
        let verify = |s: &Signature| s.verify_certification(pk, &uid.value).is_ok();
        if certified(&uid.sigs, pk, at, budget, verify) {
            Ok(())
        } else {
            Err("it has no live, valid, unrevoked self-signature at this time")
        }
    }

    /// Checks that a User ID matching `query` is bound to this certificate
    /// at `at` by one of `authorities`: by this certificate itself (its
    /// self-signature) when it is one of them, else by a live, verifying,
    /// unrevoked certification from an authority's primary key, the
    /// authority being valid and able to certify at `at`. This certificate
    /// must be valid at `at`. Otherwise [`KeyError::UserIdNotBound`] says
    /// why.
    ///
    /// ```
    /// use tessera::openpgp::key::{GenerateOptions, UserIdQuery, generate};
    /// let key = generate(&GenerateOptions { user_ids: vec!["Alice <alice@example.org>".into()], created: Some(1_700_000_000), ..Default::default() })?;
    /// let cert = key.to_public();
    /// // A certificate is an authority for its own self-signed User IDs.
    /// cert.validate_user_id(&UserIdQuery::Email("alice@example.org"), &[cert.clone()], 1_700_000_100)?;
    /// assert!(cert.validate_user_id(&UserIdQuery::Exact("Alice"), &[cert.clone()], 1_700_000_100).is_err());
    /// // Not before the key existed.
    /// assert!(cert.validate_user_id(&UserIdQuery::Email("alice@example.org"), &[cert.clone()], 1_600_000_000).is_err());
    /// # Ok::<(), tessera::openpgp::Error>(())
    /// ```
    pub fn validate_user_id(&self, query: &UserIdQuery<'_>, authorities: &[Cert], at: u64) -> Result<()> {
        let fingerprint = self.fingerprint();
        let not_bound = |why: String| KeyError::UserIdNotBound { fingerprint, user_id: query.text().to_string(), why };
        if let Err(e) = self.validate(at) {
            return Err(not_bound(format!("the certificate is not valid: {e}")).into());
        }
        let candidates: Vec<&UserId> = self.user_ids.iter().filter(|u| query.matches(&u.value)).collect();
        if candidates.is_empty() {
            return Err(not_bound("the certificate carries no such User ID".into()).into());
        }
        // A User ID its owner revoked (and did not bind again) is not bound,
        // whoever certified it; one the owner never self-signed can still
        // be certified by an authority (SOP's --no-require-self-sig).
        let budget = certification_budget();
        let candidates: Vec<&UserId> = candidates
            .into_iter()
            .filter(|u| self.self_bound_within(u, at, &budget).is_ok() || !self.self_revoked(u, at, &budget))
            .collect();
        if candidates.is_empty() {
            return Err(not_bound("its owner revoked every such User ID".into()).into());
        }
        let target = self.primary.public();
        for a in authorities {
            if a.fingerprint() == fingerprint {
                // The trusted copy counts too: a revocation it holds
                // applies even when the copy given to check lacks it.
                let trusted = self.merge(a)?;
                let bound = |u: &UserId| {
                    trusted
                        .user_ids
                        .iter()
                        .any(|t| t.value == u.value && trusted.self_bound_within(t, at, &budget).is_ok())
                };
                if trusted.validate(at).is_ok() && candidates.iter().any(|u| bound(u)) {
                    return Ok(());
                }
                continue;
            }
            let may_certify = a.validate(at).is_ok_and(|v| v.primary.flags & flags::CERTIFY != 0);
            let signer = a.primary.public();
            let verify =
                |u: &UserId, s: &Signature| s.verify_third_party_certification(signer, target, &u.value).is_ok();
            if may_certify && candidates.iter().any(|u| certified(&u.sigs, signer, at, &budget, |s| verify(u, s))) {
                return Ok(());
            }
        }
        Err(not_bound("no given authority certifies it at this time".into()).into())
    }
}
