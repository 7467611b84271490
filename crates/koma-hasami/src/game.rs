//! A game: a position plus its history, which adds the draws of the rules (docs/hasami-rules.md:
//! threefold repetition and the ply limit) to the win conditions of [`Position::status`].

use crate::notation::ParseError;
use crate::position::{Move, Position, Status, Undo};
use koma_core::Color;

/// Default ply limit: a game that reaches 300 plies is drawn.
pub const DEFAULT_PLY_LIMIT: u32 = 300;

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Not over.
    Ongoing,
    /// This side won.
    Win(Color),
    /// Drawn by repetition or by the ply limit.
    Draw,
}

/// A game in progress: start position, moves, and the keys of every position reached.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    keys: Vec<u64>,
    ply_limit: u32,
}

impl Game {
    /// A game from `start` with the given ply limit (number of moves after which it is drawn).
    pub fn new(start: Position, ply_limit: u32) -> Game {
        let keys = vec![start.key()];
        Game {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            undos: Vec::new(),
            keys,
            ply_limit,
        }
    }

    /// Reads `startpos [moves m1 m2 ...]` or `sfen <board> <side> <ply> [moves ...]` (the text after
    /// `position` in the engine protocol), with or without the leading `position`, checking every
    /// move: what [`Game::record`] writes reads back.
    ///
    /// ```
    /// use koma_hasami::{Game, Outcome};
    /// let game = Game::parse("startpos moves 9i9e 1a1e", 300).unwrap();
    /// assert_eq!(game.moves().len(), 2);
    /// assert_eq!(game.outcome(), Outcome::Ongoing);
    /// assert_eq!(game.record(), "position startpos moves 9i9e 1a1e");
    /// assert_eq!(Game::parse(&game.record(), 300).unwrap().position(), game.position());
    /// ```
    pub fn parse(text: &str, ply_limit: u32) -> Result<Game, ParseError> {
        let mut words: Vec<&str> = text.split_whitespace().collect();
        if words.first() == Some(&"position") {
            words.remove(0);
        }
        let (start, rest) = match words.first() {
            Some(&"startpos") => (Position::startpos(), &words[1..]),
            Some(&"sfen") if words.len() >= 4 => {
                (Position::parse(&words[1..4].join(" "))?, &words[4..])
            }
            _ => return Err(crate::notation::NotationError::Fields(text.to_string()).into()),
        };
        let mut game = Game::new(start, ply_limit);
        let moves = match rest.split_first() {
            None => &[][..],
            Some((&"moves", ms)) => ms,
            Some(_) => return Err(crate::notation::NotationError::Fields(text.to_string()).into()),
        };
        for m in moves {
            let mv: Move = m.parse()?;
            game.try_play(mv)?;
        }
        Ok(game)
    }

    /// Plays `mv` after checking that the game is not over and the move is legal.
    pub fn try_play(&mut self, mv: Move) -> Result<(), ParseError> {
        let ply = self.pos.ply();
        if self.outcome() != Outcome::Ongoing {
            return Err(ParseError::AfterEnd { mv, ply });
        }
        if !self.pos.is_legal(mv) {
            return Err(ParseError::IllegalMove { mv, ply });
        }
        self.play(mv);
        Ok(())
    }

    /// Plays a move known to be legal in an ongoing game.
    pub fn play(&mut self, mv: Move) {
        let undo = self.pos.do_move(mv);
        self.undos.push(undo);
        self.moves.push(mv);
        self.keys.push(self.pos.key());
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.undos.pop()?;
        self.pos.undo_move(undo);
        self.moves.pop();
        self.keys.pop();
        Some(undo.mv)
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of all positions reached, start included (for repetition checks in search).
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The ply limit.
    pub fn ply_limit(&self) -> u32 {
        self.ply_limit
    }

    /// Win by the board first; otherwise a draw on the third occurrence of the position (same side
    /// to move) or once `ply_limit` moves have been played.
    pub fn outcome(&self) -> Outcome {
        if let Status::Won(c) = self.pos.status() {
            return Outcome::Win(c);
        }
        let key = self.pos.key();
        if self.keys.iter().filter(|&&k| k == key).count() >= 3 {
            return Outcome::Draw;
        }
        if self.moves.len() as u32 >= self.ply_limit {
            return Outcome::Draw;
        }
        Outcome::Ongoing
    }

    /// The game as text: `position startpos moves ...` or `position sfen ... moves ...`.
    pub fn record(&self) -> String {
        let mut s = if self.start == Position::startpos() {
            String::from("position startpos")
        } else {
            format!("position sfen {}", self.start)
        };
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push_str(&format!(" {m}"));
            }
        }
        s
    }
}
