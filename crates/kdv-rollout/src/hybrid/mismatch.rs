//! Comparing HV with DV errors as each release's `gatherDeclarativeValidationMismatches` does,
//! and dropping covered HV errors (`FilterCoveredHandwrittenErrors`, 1.37).

use kdv_runtime::FieldError;

use crate::matcher::{ErrorMatcher, NormalizationRule};

use super::MismatchKind;

/// The recommendation of mismatches no user sees (HV authoritative).
pub const AUTHORITATIVE_MSG: &str = "This difference should not affect system operation since hand written validation is authoritative.";
/// The recommendation of mismatches of enforced beta rules (1.36 and later).
pub const DISABLE_BETA_MSG: &str = "Consider disabling the DeclarativeValidationBeta feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes.";
/// The recommendation of mismatches with `DeclarativeValidationTakeover` on (1.33–1.35).
pub const DISABLE_TAKEOVER_MSG: &str = "Consider disabling the DeclarativeValidationTakeover feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes.";

/// One mismatch before it gets the object's identity.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Which side.
    pub kind: MismatchKind,
    /// The matcher's rendering of the error.
    pub rendered: String,
    /// The error.
    pub error: FieldError,
    /// The recommendation sentence.
    pub recommendation: &'static str,
}

impl Found {
    /// The log line (as [`super::Mismatch::log_line`]).
    pub fn log_line(&self) -> String {
        super::mismatch_line(self.kind, &self.rendered, self.recommendation)
    }
}

/// How a release compares (its `gatherDeclarativeValidationMismatches`).
#[derive(Clone, Copy, Debug)]
struct Style {
    /// 1.33–1.35 drop duplicate HV errors equal in every property (`Exactly`); later
    /// releases those the fuzzy matcher equates.
    exact_dedupe: bool,
    /// 1.33–1.36 remove the DV errors a covered HV error matched before trying the next HV
    /// error ("1:many"); 1.37 lets every HV error match every DV error ("many:many").
    consume: bool,
    /// 1.35 and later normalize DV paths with the caller's rules.
    normalize: bool,
    /// 1.36 and later report alpha errors as HV-authoritative whatever the default.
    alpha_authoritative: bool,
    /// 1.37 honors `ShortCircuitMismatch`.
    short_circuit: bool,
    /// The recommendation when enforced.
    enforced_msg: &'static str,
}

impl Style {
    fn of(version: (u32, u32)) -> Style {
        let takeover = version < (1, 36);
        Style {
            exact_dedupe: takeover,
            consume: version < (1, 37),
            normalize: version >= (1, 35),
            alpha_authoritative: !takeover,
            short_circuit: version >= (1, 37),
            enforced_msg: if takeover {
                DISABLE_TAKEOVER_MSG
            } else {
                DISABLE_BETA_MSG
            },
        }
    }
}

/// Compares HV errors with DV mismatch candidates as 1.37 (main) does
/// ([`gather_mismatches_at`] at 1.37).
pub fn gather_mismatches(
    handwritten: &[FieldError],
    declarative: &[&FieldError],
    enforced: bool,
    rules: &[NormalizationRule],
    short_circuit_mismatch: bool,
) -> Vec<Found> {
    gather_mismatches_at(
        (1, 37),
        handwritten,
        declarative,
        enforced,
        rules,
        short_circuit_mismatch,
    )
}

/// Compares HV errors with DV mismatch candidates as Kubernetes `version` does: every covered
/// HV error without a DV twin (type, normalized field, origin) is
/// [`MismatchKind::Unmatched`], every DV error no covered HV error matched is
/// [`MismatchKind::Extra`]. `enforced` picks the default recommendation (Takeover on in
/// 1.33–1.35, enforced beta rules later); see `Style` for what differs between releases.
pub fn gather_mismatches_at(
    version: (u32, u32),
    handwritten: &[FieldError],
    declarative: &[&FieldError],
    enforced: bool,
    rules: &[NormalizationRule],
    short_circuit_mismatch: bool,
) -> Vec<Found> {
    let mut found = Vec::new();
    if handwritten.is_empty() && declarative.is_empty() {
        return found;
    }
    let style = Style::of(version);
    let default_rec = if enforced {
        style.enforced_msg
    } else {
        AUTHORITATIVE_MSG
    };
    let rec = |e: &FieldError| {
        if style.alpha_authoritative && e.is_alpha() {
            AUTHORITATIVE_MSG
        } else {
            default_rec
        }
    };
    let fuzzy = ErrorMatcher::fuzzy(if style.normalize {
        rules.to_vec()
    } else {
        Vec::new()
    });
    let fuzzy_sc = fuzzy.clone().match_ancestor_short_circuit();
    let exact = ErrorMatcher::default().exactly();
    let dedupe = if style.exact_dedupe { &exact } else { &fuzzy };
    let hv_fields: Vec<String> = handwritten.iter().map(|e| e.field.to_string()).collect();
    let dv_fields: Vec<String> = declarative.iter().map(|e| e.field.to_string()).collect();

    // Duplicate HV errors come from buggy repeated calls; without deduping, a correct DV
    // result would leave the repeats unmatched.
    let mut deduped: Vec<usize> = Vec::new();
    for (i, e) in handwritten.iter().enumerate() {
        let dup = deduped
            .iter()
            .any(|&j| dedupe.matches_fields(&handwritten[j], e, &hv_fields[j], &hv_fields[i]));
        if !dup {
            deduped.push(i);
        }
    }

    let mut matched = vec![false; declarative.len()];
    for &i in &deduped {
        let hv = &handwritten[i];
        if !hv.covered_by_declarative {
            continue;
        }
        let mut count = 0usize;
        for (d, dv) in declarative.iter().enumerate() {
            if style.consume && matched[d] {
                continue;
            }
            if fuzzy.matches_fields(hv, dv, &hv_fields[i], &dv_fields[d]) {
                count += 1;
                matched[d] = true;
            }
        }
        if style.short_circuit
            && short_circuit_mismatch
            && count == 0
            && declarative
                .iter()
                .enumerate()
                .any(|(d, dv)| fuzzy_sc.matches_fields(hv, dv, &hv_fields[i], &dv_fields[d]))
        {
            count = 1;
        }
        if count == 0 {
            found.push(Found {
                kind: MismatchKind::Unmatched,
                rendered: fuzzy.render(hv),
                error: hv.clone(),
                recommendation: rec(hv),
            });
        }
    }
    for (d, dv) in declarative.iter().enumerate() {
        if matched[d] {
            continue;
        }
        found.push(Found {
            kind: MismatchKind::Extra,
            rendered: fuzzy.render(dv),
            error: (*dv).clone(),
            recommendation: rec(dv),
        });
    }
    found
}

/// Drops the covered HV errors that an enforced beta DV error matches (upstream's
/// `FilterCoveredHandwrittenErrors`, 1.37).
pub fn filter_covered_handwritten(
    handwritten: Vec<FieldError>,
    enforced_declarative: &[FieldError],
    rules: &[NormalizationRule],
) -> Vec<FieldError> {
    if !enforced_declarative.iter().any(FieldError::is_beta)
        || !handwritten.iter().any(|e| e.covered_by_declarative)
    {
        return handwritten;
    }
    let matcher = ErrorMatcher::fuzzy(rules.to_vec());
    handwritten
        .into_iter()
        .filter(|hv| {
            !(hv.covered_by_declarative
                && enforced_declarative
                    .iter()
                    .any(|dv| dv.is_beta() && matcher.matches(hv, dv)))
        })
        .collect()
}
