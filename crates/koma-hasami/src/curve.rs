//! The training curve: one point per evaluation during self-play training, and its CSV form.

/// One point of the training curve.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CurvePoint {
    /// Self-play games so far.
    pub games: u64,
    /// Training seconds so far (evaluation excluded).
    pub seconds: f64,
    /// Mean squared TD error since the previous point (none before training).
    pub loss: Option<f64>,
    /// Win rate of the greedy model against `random`.
    pub vs_random: f64,
    /// Win rate of the greedy model against `study:2`.
    pub vs_study2: f64,
}

/// The curve as CSV: a header line, then one line per point (`td_loss` empty before training).
///
/// ```
/// use koma_hasami::curve::{CurvePoint, to_csv};
/// let point = CurvePoint { games: 0, seconds: 0.0, loss: None, vs_random: 0.5, vs_study2: 0.0 };
/// assert_eq!(
///     to_csv(&[point]),
///     "games,seconds,td_loss,greedy_vs_random,greedy_vs_study2\n0,0.0,,0.500,0.000\n"
/// );
/// ```
pub fn to_csv(curve: &[CurvePoint]) -> String {
    let mut csv = String::from("games,seconds,td_loss,greedy_vs_random,greedy_vs_study2\n");
    for p in curve {
        let loss = p.loss.map(|l| format!("{l:.5}")).unwrap_or_default();
        csv.push_str(&format!(
            "{},{:.1},{loss},{:.3},{:.3}\n",
            p.games, p.seconds, p.vs_random, p.vs_study2
        ));
    }
    csv
}
