//! What a minimized scenario must keep showing: [`Property`], read from its written form.

use crate::engine::Verdict;
use crate::engine::decision::trace::BackupRule;
use crate::model::map::Map;
use crate::model::orders::{Order, parse_order};
use crate::tools::diff::verdict_word;

use super::error::{MinimizeError, SYNTAX};

/// What a minimized scenario must keep showing.
#[derive(Clone, Debug, PartialEq)]
pub enum Property {
    /// A backup rule is applied by the movement resolver: any one (`None`) or this one.
    /// Needs a movement phase.
    Backup(Option<BackupRule>),
    /// An order, found by its parse (not its spelling), has exactly this verdict (`fails` means
    /// a legal order that fails, not an illegal or void one).
    Outcome {
        /// The order as the user wrote it.
        text: String,
        /// Its parse.
        order: Order,
        /// The verdict it must have.
        verdict: Verdict,
    },
    /// The result misses one of the scenario's expectations in the same way as the whole
    /// scenario does: an order's expected result with the same verdict and the same kind of
    /// cause, or (movement phases) a unit's expected dislodgement or end position with the same
    /// actual fate.
    Mismatch,
    /// The result (verdicts, dislodged units, positions, follow-up retreats; not the wording of
    /// reasons) differs between the rules in use and [`Goal::other`](super::Goal::other).
    Differs,
    /// The DATC 5.B equations of the phase have exactly this many solutions (the equation
    /// oracle, [`crate::tools::oracle`]): `solutions:0` keeps a paradox with no resolution, such as
    /// Pandin's, apart from the simpler one with two inside it. Needs a movement phase.
    Solutions(u128),
}

impl Property {
    /// Parses a property: `backup`, `backup:szykman` (also `circular`, `all-hold`,
    /// `all-fail`), `outcome:F Wales - English Channel=fails` (the order in any notation the
    /// scenario files take, with an optional `England:` prefix; the verdict `succeeds`, `fails`,
    /// `illegal` or `void`), `mismatch`, `differs`.
    pub fn parse(map: &Map, spec: &str) -> Result<Property, MinimizeError> {
        let bad = |why: String| MinimizeError::Syntax {
            spec: spec.to_string(),
            why,
        };
        let spec_t = spec.trim();
        let (head, rest) = match spec_t.split_once(':') {
            Some((h, r)) => (h.trim(), Some(r.trim())),
            None => (spec_t, None),
        };
        match (head.to_ascii_lowercase().as_str(), rest) {
            ("backup", None) => Ok(Property::Backup(None)),
            ("backup", Some(r)) => {
                let key: String = r
                    .chars()
                    .filter(|c| !matches!(c, '-' | '_' | ' '))
                    .collect::<String>()
                    .to_ascii_lowercase();
                let rule = match key.as_str() {
                    "circular" | "circularmovement" => BackupRule::CircularMovement,
                    "szykman" => BackupRule::Szykman,
                    "allhold" => BackupRule::AllHold,
                    "allfail" => BackupRule::AllFail,
                    _ => {
                        return Err(bad(format!(
                            "unknown backup rule {}; expected circular, szykman, all-hold or all-fail",
                            crate::model::error::quoted(r)
                        )));
                    }
                };
                Ok(Property::Backup(Some(rule)))
            }
            ("outcome", Some(r)) => {
                let Some((text, word)) = r.rsplit_once('=') else {
                    return Err(bad(
                        "expected outcome:ORDER=VERDICT, e.g. outcome:F Wales - English Channel=fails"
                            .into(),
                    ));
                };
                let verdict = match word.trim().to_ascii_lowercase().as_str() {
                    "succeeds" | "succeed" => Verdict::Succeeds,
                    "fails" | "fail" => Verdict::Fails,
                    "illegal" => Verdict::Illegal,
                    "void" => Verdict::Void,
                    w => {
                        return Err(bad(format!(
                            "unknown verdict {}; expected succeeds, fails, illegal or void",
                            crate::model::error::quoted(w)
                        )));
                    }
                };
                let text = text.trim();
                let order = parse_order(map, text).map_err(|e| {
                    bad(format!(
                        "order {}: column {}: {}",
                        crate::model::error::quoted(text),
                        e.col,
                        e.message
                    ))
                })?;
                Ok(Property::Outcome {
                    text: text.to_string(),
                    order,
                    verdict,
                })
            }
            ("outcome", None) => Err(bad(
                "expected outcome:ORDER=VERDICT, e.g. outcome:F Wales - English Channel=fails"
                    .into(),
            )),
            ("solutions", Some(n)) => n.parse::<u128>().map(Property::Solutions).map_err(|_| {
                bad(format!(
                    "expected a number of solutions, e.g. solutions:0 or solutions:2; found {}",
                    crate::model::error::quoted(n)
                ))
            }),
            ("solutions", None) => Err(bad(
                "expected solutions:N, the number of solutions of the equations, e.g. solutions:0"
                    .into(),
            )),
            ("mismatch", None) => Ok(Property::Mismatch),
            ("differs", None) => Ok(Property::Differs),
            ("mismatch" | "differs", Some(_)) => Err(bad(format!(
                "{head} takes no argument (differs compares the rule sets given with --rules)"
            ))),
            _ => Err(bad(format!("unknown property; expected one of {SYNTAX}"))),
        }
    }

    /// The property as `parse` reads it.
    pub fn spec(&self) -> String {
        match self {
            Property::Backup(None) => "backup".into(),
            Property::Backup(Some(r)) => format!("backup:{}", backup_word(*r)),
            Property::Outcome { text, verdict, .. } => {
                format!("outcome:{text}={}", verdict_word(*verdict))
            }
            Property::Mismatch => "mismatch".into(),
            Property::Differs => "differs".into(),
            Property::Solutions(n) => format!("solutions:{n}"),
        }
    }
}

pub(super) fn backup_word(r: BackupRule) -> &'static str {
    match r {
        BackupRule::CircularMovement => "circular",
        BackupRule::Szykman => "szykman",
        BackupRule::AllHold => "all-hold",
        BackupRule::AllFail => "all-fail",
    }
}
