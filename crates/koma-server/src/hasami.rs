//! Hasami shogi games (koma-hasami): new game, a person's move, an agent's move, the state
//! with everything the page shows (legal moves, captures, counts, the lead of three, the end
//! and why). Games are kept in the database, so a restart loses none.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use koma_hasami::agents::{AgentSpec, LearnedMode};
use koma_hasami::ntuple::NTuple;
use koma_hasami::search::Limit;
use koma_hasami::{Color, DEFAULT_PLY_LIMIT, Game, Move, Outcome};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::db::GameRow;
use crate::error::{ApiError, ErrorBody};
use crate::request::{ApiJson, ApiPath, Session, random_id};

/// The agents the page offers (any agent name koma-hasami reads is accepted within the limits).
pub const AGENTS: [&str; 6] = [
    "random",
    "study:2",
    "study:3",
    "search",
    "learned",
    "learned:greedy",
];

/// Deepest `study:D` allowed: its plain alpha-beta has no time control.
const STUDY_MAX_DEPTH: u32 = 4;

/// A new game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The opponent: `random`, `study:D` (D ≤ 4), `search[:D|:MSms]`, `learned[:D|:MSms|:greedy]`.
    #[serde(default = "default_agent")]
    pub agent: String,
    /// The colour the person plays: `b` (default, moves first), `w`, or `both` (no agent).
    #[serde(default = "default_human")]
    pub human: String,
    /// Plies after which the game is drawn (1-1000, default 300).
    pub ply_limit: Option<u32>,
}

fn default_agent() -> String {
    "random".into()
}

fn default_human() -> String {
    "b".into()
}

/// A move by the person.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    /// The move, from square to square in USI squares: `9i9e`.
    #[serde(rename = "move")]
    pub mv: String,
}

/// An agent's move.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AiMove {
    /// The agent to ask (default: the game's).
    pub agent: Option<String>,
}

/// Pieces per side.
#[derive(Debug, Serialize, ToSchema)]
pub struct PerSide {
    /// Black (先手, rank i at the start).
    pub black: u32,
    /// White (後手, rank a at the start).
    pub white: u32,
}

/// A game as the page shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The opponent agent.
    pub agent: String,
    /// The colour the person plays: `b`, `w` or `both`.
    pub human: String,
    /// Plies after which the game is drawn.
    pub ply_limit: u32,
    /// The position: SFEN-like, `P` Black, `p` White, then side and ply.
    pub position: String,
    /// `b` or `w`.
    pub side_to_move: &'static str,
    /// Moves played.
    pub moves: Vec<String>,
    /// Pieces on the board.
    pub pieces: PerSide,
    /// Pieces each side has captured.
    pub captured: PerSide,
    /// Black's pieces minus White's: a lead of three that survives the reply wins.
    pub lead: i32,
    /// When a side leads by three or more with the other to move: the other must cut the lead
    /// with this move or lose.
    pub must_cut_lead: bool,
    /// The legal moves of the side to move (empty once the game is over).
    pub legal_moves: Vec<String>,
    /// The last move, if any.
    pub last_move: Option<String>,
    /// Squares of the pieces the last move captured.
    pub last_captured: Vec<String>,
    /// `ongoing`, `black`, `white` (the winner) or `draw`.
    pub outcome: &'static str,
    /// Why the game ended, in English (empty while it goes on).
    pub reason: &'static str,
    /// The game record: `position startpos moves ...`.
    pub record: String,
}

fn side(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

fn view(row: &GameRow, game: &Game) -> GameView {
    let pos = game.position();
    let (b, w) = (pos.count(Color::Black), pos.count(Color::White));
    let lead = b as i32 - w as i32;
    let outcome = game.outcome();
    let (last_move, last_captured) = match game.moves().last() {
        Some(&mv) => {
            let mut before = game.clone();
            before.undo();
            let captured = before.position().captures(mv);
            (
                Some(mv.to_string()),
                koma_hasami::square::squares(captured)
                    .map(|s| s.to_string())
                    .collect(),
            )
        }
        None => (None, Vec::new()),
    };
    let us = pos.side_to_move();
    let (ours, theirs) = (pos.count(us), pos.count(us.flip()));
    let reason = match outcome {
        Outcome::Ongoing => "",
        Outcome::Win(winner) => {
            let loser = pos.count(winner.flip());
            if loser <= 4 {
                "the loser is down to four pieces"
            } else if (pos.count(winner) as i32 - loser as i32) >= 3 {
                "a lead of three survived the reply"
            } else {
                "the loser has no legal move"
            }
        }
        Outcome::Draw if game.moves().len() as u32 >= game.ply_limit() => "the ply limit",
        Outcome::Draw => "the same position a third time",
    };
    GameView {
        id: row.id.clone(),
        agent: row.agent.clone(),
        human: row.human.clone(),
        ply_limit: game.ply_limit(),
        position: pos.to_string(),
        side_to_move: side(us),
        moves: game.moves().iter().map(|m| m.to_string()).collect(),
        pieces: PerSide { black: b, white: w },
        captured: PerSide {
            black: 9u32.saturating_sub(w),
            white: 9u32.saturating_sub(b),
        },
        lead,
        must_cut_lead: outcome == Outcome::Ongoing && theirs >= ours + 3,
        legal_moves: if outcome == Outcome::Ongoing {
            pos.legal_moves()
                .as_slice()
                .iter()
                .map(|m| m.to_string())
                .collect()
        } else {
            Vec::new()
        },
        last_move,
        last_captured,
        outcome: match outcome {
            Outcome::Ongoing => "ongoing",
            Outcome::Win(c) => match c {
                Color::Black => "black",
                Color::White => "white",
            },
            Outcome::Draw => "draw",
        },
        reason,
        record: game.record(),
    }
}

/// Reads an agent name and checks it against the server's limits; returns it with the search
/// limit to pass (a time cap for the searchers).
fn agent(name: &str, think: std::time::Duration) -> Result<(AgentSpec, Option<Limit>), ApiError> {
    let spec: AgentSpec = name
        .trim()
        .parse()
        .map_err(|e: koma_hasami::agents::AgentError| {
            ApiError::bad_input("bad_agent", e.to_string()).field("agent")
        })?;
    let capped = |l: Limit| Limit {
        depth: l.depth,
        movetime: Some(l.movetime.map_or(think, |t| t.min(think))),
    };
    let limit = match spec {
        AgentSpec::Study(d) if d > STUDY_MAX_DEPTH => {
            return Err(ApiError::bad_input(
                "agent_too_slow",
                format!(
                    "study:{d} searches without a time limit; the server allows study:1 to \
                     study:{STUDY_MAX_DEPTH}"
                ),
            )
            .field("agent"));
        }
        AgentSpec::Search(l) | AgentSpec::Learned(LearnedMode::Search(l)) => Some(capped(l)),
        _ => None,
    };
    Ok((spec, limit))
}

fn load(app: &AppState, id: &str) -> Result<(GameRow, Game), ApiError> {
    let Some(row) = app.db.game(id)? else {
        return Err(ApiError::not_found(format!(
            "there is no hasami game {id:?}"
        )));
    };
    let game = Game::parse(
        row.record.trim_start_matches("position").trim(),
        row.ply_limit,
    )
    .map_err(|e| ApiError::internal(format!("stored game {id} cannot be read: {e}")))?;
    Ok((row, game))
}

/// A stored game that is still going on (409 once it is over).
fn load_ongoing(app: &AppState, id: &str) -> Result<(GameRow, Game), ApiError> {
    let (row, game) = load(app, id)?;
    if game.outcome() != Outcome::Ongoing {
        return Err(ApiError::conflict(
            "game_over",
            "the game is over; start a new one",
        ));
    }
    Ok((row, game))
}

/// Saves the game's new moves unless another request changed it meanwhile (409).
fn save(app: &AppState, row: &GameRow, game: &Game) -> Result<(), ApiError> {
    let saved = app.db.update_game(&row.id, &row.record, &game.record())?;
    if !saved {
        return Err(ApiError::conflict(
            "game_changed",
            "the game changed while this move was made (another tab?); reload it",
        ));
    }
    Ok(())
}

/// Starts a game.
#[utoipa::path(post, path = "/api/hasami/games", request_body = NewGame, tag = "hasami",
    responses(
        (status = 201, description = "the new game", body = GameView),
        (status = 400, description = "unknown agent, colour or ply limit", body = ErrorBody)))]
pub async fn create(
    State(app): State<AppState>,
    session: Session,
    ApiJson(req): ApiJson<NewGame>,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let (spec, _) = agent(&req.agent, app.limits.hasami_think)?;
    if !["b", "w", "both"].contains(&req.human.as_str()) {
        return Err(ApiError::bad_input(
            "bad_colour",
            format!("human must be b, w or both, not {:?}", req.human),
        )
        .field("human"));
    }
    let ply_limit = req.ply_limit.unwrap_or(DEFAULT_PLY_LIMIT);
    if !(1..=1000).contains(&ply_limit) {
        return Err(ApiError::bad_input(
            "bad_ply_limit",
            format!("ply_limit must be between 1 and 1000, not {ply_limit}"),
        )
        .field("ply_limit"));
    }
    let game = Game::new(koma_hasami::Position::startpos(), ply_limit);
    let row = GameRow {
        id: random_id(),
        session: session.0,
        agent: spec.to_string(),
        human: req.human,
        ply_limit,
        record: game.record(),
    };
    app.db.insert_game(&row)?;
    Ok((StatusCode::CREATED, Json(view(&row, &game))))
}

/// A game's state.
#[utoipa::path(get, path = "/api/hasami/games/{id}", tag = "hasami",
    params(("id" = String, Path, description = "game id")),
    responses(
        (status = 200, description = "the game", body = GameView),
        (status = 404, description = "no such game", body = ErrorBody)))]
pub async fn get_game(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<GameView>, ApiError> {
    let (row, game) = load(&app, &id)?;
    Ok(Json(view(&row, &game)))
}

/// Plays the person's move.
#[utoipa::path(post, path = "/api/hasami/games/{id}/move", request_body = PlayMove, tag = "hasami",
    params(("id" = String, Path, description = "game id")),
    responses(
        (status = 200, description = "the game after the move", body = GameView),
        (status = 400, description = "not a legal move", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "the game is over, or it is the agent's turn", body = ErrorBody)))]
pub async fn play(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<PlayMove>,
) -> Result<Json<GameView>, ApiError> {
    let (row, mut game) = load_ongoing(&app, &id)?;
    let to_move = side(game.position().side_to_move());
    if row.human != "both" && row.human != to_move {
        return Err(ApiError::conflict(
            "not_your_turn",
            "it is the agent's turn: ask it to move (POST .../ai)",
        ));
    }
    let mv: Move = req
        .mv
        .trim()
        .parse()
        .map_err(|e: koma_hasami::NotationError| {
            ApiError::bad_input("bad_move", format!("move {:?}: {e}", req.mv)).field("move")
        })?;
    if !game.position().is_legal(mv) {
        return Err(ApiError::bad_input(
            "illegal_move",
            format!(
                "{mv} is not a legal move here: a piece of the side to move slides any number of \
                 empty squares along its file or rank"
            ),
        )
        .field("move"));
    }
    game.play(mv);
    save(&app, &row, &game)?;
    Ok(Json(view(&row, &game)))
}

/// Lets an agent (the game's, or another) play the side to move.
#[utoipa::path(post, path = "/api/hasami/games/{id}/ai", request_body = AiMove, tag = "hasami",
    params(("id" = String, Path, description = "game id")),
    responses(
        (status = 200, description = "the game after the agent's move", body = GameView),
        (status = 400, description = "unknown agent", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
        (status = 409, description = "the game is over", body = ErrorBody),
        (status = 429, description = "too many agents are thinking", body = ErrorBody)))]
pub async fn ai_move(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<String>,
    body: axum::body::Bytes,
) -> Result<Json<GameView>, ApiError> {
    // The body is optional: empty asks the game's own agent.
    let req: AiMove = if body.iter().all(u8::is_ascii_whitespace) {
        AiMove::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| {
            ApiError::bad_input("bad_json", format!("the body is not a valid request: {e}"))
        })?
    };
    let (row, game) = load_ongoing(&app, &id)?;
    let (spec, limit) = agent(
        req.agent.as_deref().unwrap_or(&row.agent),
        app.limits.hasami_think,
    )?;
    let Ok(_slot) = Arc::clone(&app.think_slots).try_acquire_owned() else {
        return Err(ApiError::too_many(
            "agents_busy",
            "every agent slot is thinking for another game; try again in a moment",
        ));
    };
    let model = Arc::clone(app.hasami_model.get_or_init(|| Arc::new(NTuple::shipped())));
    let seed = u64::from_str_radix(&random_id()[..16], 16).unwrap_or(1);
    let chosen = tokio::task::spawn_blocking(move || {
        let mut agent = spec.build(seed, &model);
        let mv = agent.choose(&game, limit);
        (game, mv)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the agent failed: {e}")))?;
    let (mut game, mv) = chosen;
    let Some(mv) = mv else {
        return Err(ApiError::conflict(
            "no_move",
            "the side to move has no legal move",
        ));
    };
    game.play(mv);
    save(&app, &row, &game)?;
    Ok(Json(view(&row, &game)))
}
