//! How a line ends: [`EndKind`] and [`GameEnd`], with the one table of end words that KIF
//! and KI2 share (the move-line word `投了`, the closing `まで76手で先手の勝ち`), CSA's special
//! moves and the end tokens USI records carry (`resign`, `rep_draw`, ...).

use koma_core::Color;

use crate::MoveTime;

/// The end of a line: the special move and what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// What happened.
    pub kind: EndKind,
    /// Time spent, if recorded.
    pub time: Option<MoveTime>,
    /// Comments after it.
    pub comments: Vec<String>,
}

impl GameEnd {
    /// An end with no time or comment.
    pub fn new(kind: EndKind) -> GameEnd {
        GameEnd {
            kind,
            time: None,
            comments: Vec::new(),
        }
    }
}

/// How a game or line ended: CSA's special moves (`%TORYO`, ...), KIF's end words (投了, ...)
/// and USI records' end tokens (`resign`, `rep_draw`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndKind {
    /// The side to move resigned (投了, `%TORYO`, `resign`).
    Resign,
    /// The game was stopped (中断, `%CHUDAN`, `break`).
    Interrupt,
    /// Four-fold repetition (千日手, `%SENNICHITE`, `rep_draw`).
    Repetition,
    /// The side to move ran out of time (切れ負け, `%TIME_UP`, `timeout`).
    TimeUp,
    /// The side to move lost by an illegal move (反則負け, `%ILLEGAL_MOVE`; `rep_lose`, a
    /// perpetual check by the side to move).
    IllegalMove,
    /// The side to move won by the opponent's illegal move (反則勝ち; `rep_win`, a perpetual
    /// check by the opponent).
    IllegalWin,
    /// This side committed an illegal action and lost (`%+ILLEGAL_ACTION`, `%-ILLEGAL_ACTION`).
    IllegalAction(Color),
    /// Impasse, a draw (持将棋, `%JISHOGI`).
    Impasse,
    /// The side to move declared an entering-king win (入玉勝ち, `%KACHI`, `win`).
    DeclareWin,
    /// A draw agreed or declared (引き分け, `%HIKIWAKE`, `draw`).
    Draw,
    /// The move limit was reached (最大手数, `%MAX_MOVES`).
    MaxMoves,
    /// The side to move is mated (詰み, `%TSUMI`).
    Mate,
    /// A problem with no mate (不詰, `%FUZUMI`).
    NoMate,
    /// An error (エラー, `%ERROR`).
    Error,
    /// The side to move sealed its move (封じ手): an adjourned game, continued another day.
    Sealed,
    /// The position repeats an earlier one with the side to move holding more in hand
    /// (`rep_sup`, a superior position, as engines write it).
    SuperiorPosition,
    /// The position repeats an earlier one with the side to move holding less in hand
    /// (`rep_inf`, an inferior position).
    InferiorPosition,
}

/// One row of the table of ends: the kind, its KIF word (on a move line and in the closing
/// `まで` line) and other words real files use for it.
struct Ending {
    kind: EndKind,
    kif: &'static str,
    aliases: &'static [&'static str],
    csa: Option<&'static str>,
    usi: Option<&'static str>,
}

/// The table of ends, shared by every reader and writer.
const ENDINGS: [Ending; 17] = [
    Ending {
        kind: EndKind::Resign,
        kif: "投了",
        aliases: &[],
        csa: Some("%TORYO"),
        usi: Some("resign"),
    },
    Ending {
        kind: EndKind::Interrupt,
        kif: "中断",
        aliases: &[],
        csa: Some("%CHUDAN"),
        usi: Some("break"),
    },
    Ending {
        kind: EndKind::Repetition,
        kif: "千日手",
        aliases: &[],
        csa: Some("%SENNICHITE"),
        usi: Some("rep_draw"),
    },
    Ending {
        kind: EndKind::TimeUp,
        kif: "切れ負け",
        aliases: &["時間切れ", "時間切れ負け"],
        csa: Some("%TIME_UP"),
        usi: Some("timeout"),
    },
    Ending {
        kind: EndKind::IllegalMove,
        kif: "反則負け",
        aliases: &[],
        csa: Some("%ILLEGAL_MOVE"),
        usi: Some("rep_lose"),
    },
    Ending {
        kind: EndKind::IllegalWin,
        kif: "反則勝ち",
        aliases: &[],
        csa: None,
        usi: Some("rep_win"),
    },
    Ending {
        kind: EndKind::IllegalAction(Color::Black),
        kif: "反則負け",
        aliases: &[],
        csa: Some("%+ILLEGAL_ACTION"),
        usi: None,
    },
    Ending {
        kind: EndKind::IllegalAction(Color::White),
        kif: "反則負け",
        aliases: &[],
        csa: Some("%-ILLEGAL_ACTION"),
        usi: None,
    },
    Ending {
        kind: EndKind::Impasse,
        kif: "持将棋",
        aliases: &[],
        csa: Some("%JISHOGI"),
        usi: None,
    },
    Ending {
        kind: EndKind::DeclareWin,
        kif: "入玉勝ち",
        aliases: &["入玉宣言", "宣言勝ち"],
        csa: Some("%KACHI"),
        usi: Some("win"),
    },
    Ending {
        kind: EndKind::Draw,
        kif: "引き分け",
        aliases: &["引分け", "引分"],
        csa: Some("%HIKIWAKE"),
        usi: Some("draw"),
    },
    Ending {
        kind: EndKind::MaxMoves,
        kif: "最大手数",
        aliases: &[],
        csa: Some("%MAX_MOVES"),
        usi: None,
    },
    Ending {
        kind: EndKind::Mate,
        kif: "詰み",
        aliases: &["詰"],
        csa: Some("%TSUMI"),
        usi: None,
    },
    Ending {
        kind: EndKind::NoMate,
        kif: "不詰",
        aliases: &["不詰み"],
        csa: Some("%FUZUMI"),
        usi: None,
    },
    Ending {
        kind: EndKind::Error,
        kif: "エラー",
        aliases: &[],
        csa: Some("%ERROR"),
        usi: None,
    },
    Ending {
        kind: EndKind::Sealed,
        kif: "封じ手",
        aliases: &[],
        csa: None,
        usi: None,
    },
    Ending {
        kind: EndKind::SuperiorPosition,
        kif: "中断",
        aliases: &[],
        csa: None,
        usi: Some("rep_sup"),
    },
];

/// The one end the table has no row of its own for: an inferior position, written as
/// 中断 in KIF and CSA.
const INFERIOR: Ending = Ending {
    kind: EndKind::InferiorPosition,
    kif: "中断",
    aliases: &[],
    csa: None,
    usi: Some("rep_inf"),
};

fn rows() -> impl Iterator<Item = &'static Ending> {
    ENDINGS.iter().chain(std::iter::once(&INFERIOR))
}

fn row(kind: EndKind) -> &'static Ending {
    rows()
        .find(|e| e.kind == kind)
        .unwrap_or_else(|| unreachable!("every kind has a row"))
}

impl EndKind {
    /// Every kind.
    pub const ALL: [EndKind; 18] = [
        EndKind::Resign,
        EndKind::Interrupt,
        EndKind::Repetition,
        EndKind::TimeUp,
        EndKind::IllegalMove,
        EndKind::IllegalWin,
        EndKind::IllegalAction(Color::Black),
        EndKind::IllegalAction(Color::White),
        EndKind::Impasse,
        EndKind::DeclareWin,
        EndKind::Draw,
        EndKind::MaxMoves,
        EndKind::Mate,
        EndKind::NoMate,
        EndKind::Error,
        EndKind::Sealed,
        EndKind::SuperiorPosition,
        EndKind::InferiorPosition,
    ];

    /// The CSA special move, given the side to move (which `反則勝ち` needs). A kind CSA has no
    /// special move for is written as the nearest, `%CHUDAN` (see [`EndKind::has_csa_form`]).
    pub fn csa(self, side_to_move: Color) -> &'static str {
        match self {
            EndKind::IllegalWin => EndKind::IllegalAction(side_to_move.flip()).csa(side_to_move),
            k => row(k).csa.unwrap_or("%CHUDAN"),
        }
    }

    /// Whether CSA has a special move for this kind (else [`EndKind::csa`] writes `%CHUDAN`).
    pub fn has_csa_form(self) -> bool {
        self == EndKind::IllegalWin || row(self).csa.is_some()
    }

    /// The KIF / KI2 end word, given the side to move (an illegal action becomes 反則勝ち or
    /// 反則負け). A superior or inferior position, which KIF has no word for, is 中断.
    pub fn kif(self, side_to_move: Color) -> &'static str {
        match self {
            EndKind::IllegalAction(c) if c != side_to_move => "反則勝ち",
            k => row(k).kif,
        }
    }

    /// Whether KIF has a word of its own for this kind.
    pub fn has_kif_form(self) -> bool {
        !matches!(self, EndKind::SuperiorPosition | EndKind::InferiorPosition)
    }

    /// The end token USI records write after the moves (`resign`, `rep_draw`, ...), if any.
    pub fn usi(self) -> Option<&'static str> {
        row(self).usi
    }

    /// Reads a CSA special move (`%TORYO`, ...).
    pub fn from_csa(text: &str) -> Option<EndKind> {
        rows().find(|e| e.csa == Some(text)).map(|e| e.kind)
    }

    /// Reads a KIF end word (投了, 封じ手, 時間切れ, ...).
    pub fn from_kif(text: &str) -> Option<EndKind> {
        rows()
            .filter(|e| e.kif != "中断" || e.kind == EndKind::Interrupt)
            .filter(|e| !matches!(e.kind, EndKind::IllegalAction(_)))
            .find(|e| e.kif == text || e.aliases.contains(&text))
            .map(|e| e.kind)
    }

    /// Reads a USI record's end token (`resign`, `rep_draw`, `win`, ...).
    pub fn from_usi(text: &str) -> Option<EndKind> {
        rows().find(|e| e.usi == Some(text)).map(|e| e.kind)
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "先手",
        Color::White => "後手",
    }
}

fn side_of_name(name: &str) -> Option<Color> {
    match name {
        "先手" | "下手" => Some(Color::Black),
        "後手" | "上手" => Some(Color::White),
        _ => None,
    }
}

/// The closing `まで…` line for a line's end, `n` moves into the game (KIF and KI2 close with it).
pub(crate) fn summary(end: EndKind, n: u32, side_to_move: Color) -> String {
    let winner = side_name(side_to_move.flip());
    let mover = side_name(side_to_move);
    let words = match end {
        EndKind::Resign => format!("{winner}の勝ち"),
        EndKind::TimeUp => format!("時間切れにより{winner}の勝ち"),
        EndKind::DeclareWin => format!("入玉宣言により{mover}の勝ち"),
        EndKind::IllegalMove => format!("{winner}の反則勝ち"),
        EndKind::IllegalWin => format!("{mover}の反則勝ち"),
        EndKind::IllegalAction(c) => format!("{}の反則勝ち", side_name(c.flip())),
        other => other.kif(side_to_move).to_owned(),
    };
    format!("まで{n}手で{words}\n")
}

/// Reads the rest of a closing `まで…` line (`76手で先手の勝ち`, `49手詰`, `2手で封じ手`,
/// `2手で先手の反則負け`, ...), given the side to move and whether it is mated at the end.
pub(crate) fn read_summary(rest: &str, side_to_move: Color, mated: bool) -> Option<EndKind> {
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let after = rest[digits..].strip_prefix('手')?;
    let words = after.strip_prefix('で').unwrap_or(after).trim();
    // A note in parentheses after the result (`持将棋（500手規定）`, `後手の勝ち（反則負け）`)
    // says more about it: the words before it decide, with the note's time loss or foul.
    let (words, note) = words
        .strip_suffix(['）', ')'])
        .and_then(|w| w.rfind(['（', '(']).map(|i| (w[..i].trim(), &w[i..])))
        .unwrap_or((words, ""));
    let named = |suffix: &str| {
        words
            .strip_suffix(suffix)
            .and_then(|w| side_of_name(w.rsplit('の').next().unwrap_or(w)))
    };
    if let Some(winner) = named("の反則勝ち") {
        return Some(if winner == side_to_move {
            EndKind::IllegalWin
        } else {
            EndKind::IllegalMove
        });
    }
    if let Some(loser) = named("の反則負け") {
        return Some(if loser == side_to_move {
            EndKind::IllegalMove
        } else {
            EndKind::IllegalWin
        });
    }
    if let Some(winner) = named("の勝ち").filter(|_| note.contains("反則")) {
        return Some(if winner == side_to_move {
            EndKind::IllegalWin
        } else {
            EndKind::IllegalMove
        });
    }
    if words.contains("時間切れ") || words.ends_with("切れ負け") || note.contains("切れ")
    {
        return Some(EndKind::TimeUp);
    }
    if words.contains("入玉") {
        return Some(EndKind::DeclareWin);
    }
    if words.ends_with("の勝ち") {
        return Some(if mated {
            EndKind::Mate
        } else {
            EndKind::Resign
        });
    }
    // `持将棋成立`: the end and the word for its taking effect.
    EndKind::from_kif(words).or_else(|| EndKind::from_kif(words.strip_suffix("成立")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_names_read_back() {
        for k in EndKind::ALL {
            assert_eq!(
                EndKind::from_csa(k.csa(Color::Black)).map(|e| e.csa(Color::Black)),
                Some(k.csa(Color::Black))
            );
            assert!(EndKind::from_kif(k.kif(Color::Black)).is_some());
            if let Some(token) = k.usi() {
                assert_eq!(EndKind::from_usi(token), Some(k));
            }
            if k.has_kif_form() && !matches!(k, EndKind::IllegalAction(_)) {
                assert_eq!(EndKind::from_kif(k.kif(Color::Black)), Some(k));
            }
        }
    }

    #[test]
    fn summaries_read_back() {
        for k in EndKind::ALL {
            for side in Color::ALL {
                let line = summary(k, 7, side);
                let rest = line.trim_end().strip_prefix("まで").unwrap();
                let back = read_summary(rest, side, k == EndKind::Mate).unwrap();
                let expected = match k {
                    EndKind::IllegalAction(c) if c == side => EndKind::IllegalMove,
                    EndKind::IllegalAction(_) => EndKind::IllegalWin,
                    EndKind::SuperiorPosition | EndKind::InferiorPosition => EndKind::Interrupt,
                    k => k,
                };
                assert_eq!(back, expected, "{line}");
            }
        }
    }

    #[test]
    fn summaries_real_files_write() {
        let b = Color::Black;
        for (text, kind) in [
            ("2手で先手の反則負け", EndKind::IllegalMove),
            ("2手で後手の反則負け", EndKind::IllegalWin),
            ("3手で詰", EndKind::Mate),
            ("49手詰", EndKind::Mate),
            ("2手で封じ手", EndKind::Sealed),
            ("76手で千日手", EndKind::Repetition),
            ("10手で後手の切れ負け", EndKind::TimeUp),
            ("97手で中断", EndKind::Interrupt),
            // Notes in parentheses, as programs add them.
            ("300手で持将棋（500手規定）", EndKind::Impasse),
            ("4手で持将棋成立", EndKind::Impasse),
            ("61手で後手の勝ち(切れ負け)", EndKind::TimeUp),
            ("88手で後手の勝ち（反則負け）", EndKind::IllegalMove),
            ("88手で先手の勝ち（反則負け）", EndKind::IllegalWin),
            ("77手で先手の勝ち（投了）", EndKind::Resign),
        ] {
            assert_eq!(read_summary(text, b, false), Some(kind), "{text}");
        }
        assert_eq!(read_summary("1手で何か", b, false), None);
        assert_eq!(read_summary("手で", b, false), None);
    }
}
