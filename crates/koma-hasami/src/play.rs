//! A person against an agent in the terminal: the board is drawn with ▲/▽, moves are typed as
//! `9i9e` or picked by number from the list; bad input asks again.

use std::io::{BufRead, Write};

use crate::agents::Agent;
use crate::game::{Game, Outcome};
use crate::position::Move;
use koma_core::Color;

/// Reads the person's move: a number from the list or a move text; `None` at end of input or `quit`.
fn ask(
    game: &Game,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> std::io::Result<Option<Move>> {
    let moves = game.position().legal_moves();
    for (i, m) in moves.as_slice().iter().enumerate() {
        write!(
            output,
            "{:>3}.{m}{}",
            i + 1,
            if (i + 1) % 10 == 0 { "\n" } else { " " }
        )?;
    }
    writeln!(output)?;
    loop {
        write!(output, "your move (9i9e or number, quit): ")?;
        output.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let text = line.trim();
        if text == "quit" {
            return Ok(None);
        }
        let chosen = match text.parse::<usize>() {
            Ok(n) if (1..=moves.len()).contains(&n) => Ok(moves.as_slice()[n - 1]),
            Ok(n) => Err(format!("no move number {n}; choose 1 to {}", moves.len())),
            Err(_) => match text.parse::<Move>() {
                Ok(m) if game.position().is_legal(m) => Ok(m),
                Ok(m) => Err(format!("{m} is not legal here")),
                Err(e) => Err(e.to_string()),
            },
        };
        match chosen {
            Ok(m) => return Ok(Some(m)),
            Err(e) => writeln!(output, "{e}")?,
        }
    }
}

/// Plays a game between a person (`human`'s colour, reading `input`) and `agent`, drawing on
/// `output`. Returns the outcome, or `None` if the person quit.
pub fn play(
    mut game: Game,
    human: Color,
    agent: &mut dyn Agent,
    mut input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<Option<Outcome>> {
    agent.new_game();
    loop {
        write!(output, "\n{}", game.position().diagram())?;
        let outcome = game.outcome();
        if outcome != Outcome::Ongoing {
            let text = match outcome {
                Outcome::Win(c) if c == human => "you win".to_string(),
                Outcome::Win(c) => format!("{c} wins"),
                _ => "draw".to_string(),
            };
            writeln!(output, "game over: {text}\n{}", game.record())?;
            return Ok(Some(outcome));
        }
        let mover = game.position().side_to_move();
        let mv = if mover == human {
            match ask(&game, &mut input, &mut output)? {
                Some(m) => m,
                None => return Ok(None),
            }
        } else {
            match agent.choose(&game, None) {
                Some(m) => {
                    writeln!(
                        output,
                        "{} plays {m}",
                        if mover == Color::Black { "▲" } else { "▽" }
                    )?;
                    m
                }
                None => return Ok(Some(Outcome::Win(human))),
            }
        };
        game.play(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::agents::AgentSpec;
    use std::sync::Arc;

    #[test]
    fn bad_input_asks_again_and_quit_stops() {
        let mut agent = "random:3"
            .parse::<AgentSpec>()
            .unwrap()
            .build(0, &Arc::new(crate::ntuple::NTuple::zero()));
        let input = "hello\n0\n999\n9i8h\n9i9e\n1\nquit\n";
        let mut out = Vec::new();
        let game = Game::new(Position::startpos(), 300);
        let r = play(
            game,
            Color::Black,
            agent.as_mut(),
            input.as_bytes(),
            &mut out,
        )
        .unwrap();
        assert_eq!(r, None);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("move must look like 9i9e"));
        assert!(text.contains("no move number 0"));
        assert!(text.contains("no move number 999"));
        assert!(text.contains("9i8h is not legal here"));
        assert_eq!(text.matches("▽ plays").count(), 2, "{text}");
        assert!(text.contains("▲ "));
    }
}
