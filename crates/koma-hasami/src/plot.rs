//! The training curve as an SVG plot (plotters, SVG backend only); behind the `plot` feature, so
//! that the library builds without a drawing crate.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use crate::curve::CurvePoint;

/// Why the curve could not be drawn or written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// plotters failed to draw.
    #[error("drawing the training curve: {0}")]
    Draw(#[source] DrawingAreaErrorKind<std::io::Error>),
    /// The SVG file could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The SVG file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

impl From<DrawingAreaErrorKind<std::io::Error>> for PlotError {
    fn from(e: DrawingAreaErrorKind<std::io::Error>) -> PlotError {
        PlotError::Draw(e)
    }
}

/// Writes [`curve_svg`] to `path`.
pub fn write_curve_svg(curve: &[CurvePoint], path: &Path) -> Result<(), PlotError> {
    let svg = curve_svg(curve)?;
    std::fs::write(path, svg).map_err(|source| PlotError::Write {
        path: path.to_owned(),
        source,
    })
}

/// The curve as an SVG document: win rates (top) and TD loss (bottom) against self-play games.
///
/// ```
/// use koma_hasami::curve::CurvePoint;
/// let point = |games, loss| CurvePoint { games, seconds: 0.0, loss, vs_random: 0.5, vs_study2: 0.1 };
/// let svg = koma_hasami::plot::curve_svg(&[point(0, None), point(10, Some(0.02))]).unwrap();
/// assert!(svg.starts_with("<svg"));
/// ```
pub fn curve_svg(curve: &[CurvePoint]) -> Result<String, PlotError> {
    let mut svg = String::new();
    draw(curve, &mut svg)?;
    Ok(svg)
}

fn draw(curve: &[CurvePoint], svg: &mut String) -> Result<(), PlotError> {
    let root = SVGBackend::with_string(svg, (800, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(360);
    let max_games = curve.iter().map(|p| p.games).max().unwrap_or(1).max(1) as f64;
    let mut chart = ChartBuilder::on(&top)
        .caption("hasami: greedy learned model win rate", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d(0f64..max_games, 0f64..1.0)?;
    chart
        .configure_mesh()
        .x_desc("self-play games")
        .y_desc("win rate")
        .draw()?;
    for (label, color, get) in [
        (
            "vs random",
            BLUE,
            (|p: &CurvePoint| p.vs_random) as fn(&CurvePoint) -> f64,
        ),
        ("vs study:2", RED, |p: &CurvePoint| p.vs_study2),
    ] {
        chart
            .draw_series(LineSeries::new(
                curve.iter().map(|p| (p.games as f64, get(p))),
                color.stroke_width(2),
            ))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .border_style(BLACK)
        .draw()?;
    let losses: Vec<(f64, f64)> = curve
        .iter()
        .filter_map(|p| Some((p.games as f64, p.loss?)))
        .collect();
    let max_loss = losses.iter().map(|p| p.1).fold(0.0, f64::max).max(1e-6) * 1.1;
    let mut chart = ChartBuilder::on(&bottom)
        .caption("mean squared TD error", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(45)
        .build_cartesian_2d(0f64..max_games, 0f64..max_loss)?;
    chart.configure_mesh().x_desc("self-play games").draw()?;
    chart.draw_series(LineSeries::new(losses, BLACK.stroke_width(2)))?;
    root.present()?;
    Ok(())
}
