//! Precision and recall of our references against javac's: the one tally every oracle keeps.

/// Counts of one comparison (a category, a member): `tp` found by both, `fp` ours only, `fn_`
/// javac's only.
#[derive(Default, Debug, Clone, Copy)]
pub struct Score {
    pub tp: usize,
    /// True positives we marked `likely` rather than `exact` (goal: under 5% of `tp`).
    pub tp_likely: usize,
    pub fp: usize,
    /// False positives we marked `exact`: an `exact` answer that is wrong.
    pub fp_exact: usize,
    pub fn_: usize,
}

impl Score {
    /// 1 when we found nothing (nothing wrong was found).
    pub fn precision(&self) -> f64 {
        if self.tp + self.fp == 0 { 1.0 } else { self.tp as f64 / (self.tp + self.fp) as f64 }
    }

    /// 1 when javac found nothing.
    pub fn recall(&self) -> f64 {
        if self.tp + self.fn_ == 0 { 1.0 } else { self.tp as f64 / (self.tp + self.fn_) as f64 }
    }

    /// The share of correct references marked `likely`.
    pub fn likely(&self) -> f64 {
        self.tp_likely as f64 / self.tp.max(1) as f64
    }
}

/// The sum of every score in `by` (a map by category or member).
pub fn total<K>(by: &std::collections::BTreeMap<K, Score>) -> Score {
    by.values().fold(Score::default(), |a, s| Score {
        tp: a.tp + s.tp,
        tp_likely: a.tp_likely + s.tp_likely,
        fp: a.fp + s.fp,
        fp_exact: a.fp_exact + s.fp_exact,
        fn_: a.fn_ + s.fn_,
    })
}
