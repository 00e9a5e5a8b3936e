//! The end of a game as Python sees it.

use crate::errors::value_error;
use crate::moves::color_to_py;
use pyo3::prelude::*;
use xiangqi_core::{GameEndReason, GameOutcome, RepetitionVerdict, RuleSet, Violation};

/// `"asian"` or `"chinese"` (case-insensitive) as a rule set.
pub fn rules_arg(name: &str) -> PyResult<RuleSet> {
    match name.to_ascii_lowercase().as_str() {
        "asian" | "wxf" | "axf" => Ok(RuleSet::Asian),
        "chinese" | "cxa" => Ok(RuleSet::Chinese),
        _ => Err(value_error(format!(
            "unknown rules {name:?}: expected \"asian\" or \"chinese\""
        ))),
    }
}

/// How and by whom a game was won, or that it was drawn.
#[pyclass(module = "xiangqi_rs", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct Outcome {
    /// `RED` (`True`), `BLACK` (`False`), or `None` for a draw.
    #[pyo3(get)]
    winner: Option<bool>,
    /// `"checkmate"`, `"stalemate"`, `"repetition"`, `"move_limit"` or
    /// `"no_attacking_material"`.
    #[pyo3(get)]
    termination: &'static str,
    /// For a lost repetition: `"perpetual_check"`, `"perpetual_chase"`,
    /// `"perpetual_mate_threat"` or `"mixed"`; otherwise `None`.
    #[pyo3(get)]
    violation: Option<&'static str>,
    /// The rules' own words, e.g. "black wins: red loses by perpetual check".
    description: String,
}

impl From<GameOutcome> for Outcome {
    fn from(o: GameOutcome) -> Outcome {
        let (termination, violation) = match &o.reason {
            GameEndReason::Checkmate => ("checkmate", None),
            GameEndReason::Stalemate => ("stalemate", None),
            GameEndReason::Repetition(RepetitionVerdict::Loss { violation, .. }) => {
                ("repetition", Some(violation_name(*violation)))
            }
            GameEndReason::Repetition(RepetitionVerdict::Draw { .. }) => ("repetition", None),
            GameEndReason::MoveLimit => ("move_limit", None),
            GameEndReason::NoAttackingMaterial => ("no_attacking_material", None),
        };
        Outcome {
            winner: o.winner.map(color_to_py),
            termination,
            violation,
            description: o.to_string(),
        }
    }
}

fn violation_name(v: Violation) -> &'static str {
    match v {
        Violation::PerpetualCheck => "perpetual_check",
        Violation::PerpetualChase => "perpetual_chase",
        Violation::PerpetualMateThreat => "perpetual_mate_threat",
        Violation::Mixed => "mixed",
    }
}

#[pymethods]
impl Outcome {
    /// The PGN result: `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    fn result(&self) -> &'static str {
        match self.winner {
            Some(true) => "1-0",
            Some(false) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __str__(&self) -> String {
        self.description.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcome(winner={}, termination={:?})",
            match self.winner {
                Some(true) => "RED",
                Some(false) => "BLACK",
                None => "None",
            },
            self.termination
        )
    }
}
