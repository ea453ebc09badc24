//! The JSON API of docs/server.md, by area: the variants (variants.rs), creating a game
//! (create.rs), reading and watching games (games.rs), a seat's actions (actions.rs, with the
//! takebacks and aborts of offers.rs, and rematches in rematch.rs) and the
//! one path every change of a game takes (play.rs), with the background tasks that act on
//! their own: the clock's timer (timer.rs) and the AI (ai.rs). Every action works on a copy
//! of the game, stores the change, and only then replaces the game in memory and answers: an
//! error at any point (bad request, illegal step, storage failure) leaves the game exactly
//! as it was. Errors: error.rs.

mod actions;
pub(crate) mod ai;
pub(crate) mod create;
mod games;
pub(crate) mod offers;
pub(crate) mod play;
mod rematch;
pub(crate) mod timer;
mod variants;

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

use crate::error::{wrong_method, MAX_BODY};
use crate::{custom, records, App};

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/variants", get(variants::list))
        .route("/api/ai/levels", get(variants::levels))
        .route("/api/variants/{id}", get(variants::rules))
        // Custom variants and piece diagrams (custom.rs); a variant file may be 64 KiB.
        .route(
            "/api/variants/check",
            post(custom::check).layer(DefaultBodyLimit::max(custom::MAX_BODY)),
        )
        .route(
            "/api/variants/diagram",
            post(custom::text_diagram).layer(DefaultBodyLimit::max(custom::MAX_BODY)),
        )
        .route("/api/variants/{id}/diagram", get(custom::variant_diagram))
        .route("/api/games/{id}/diagram", get(custom::game_diagram))
        .route(
            "/api/games",
            get(games::list)
                .post(create::create_game)
                .layer(DefaultBodyLimit::max(
                    records::MAX_RECORD.max(custom::MAX_BODY),
                )),
        )
        .route(
            "/api/records/replay",
            post(records::replay).layer(DefaultBodyLimit::max(records::MAX_RECORD)),
        )
        .route("/api/games/{id}", get(games::get))
        .route("/api/games/{id}/step", post(actions::step))
        .route("/api/games/{id}/undo", post(actions::undo))
        .route("/api/games/{id}/resign", post(actions::resign))
        .route("/api/games/{id}/draw", post(actions::draw))
        .route("/api/games/{id}/stop", post(actions::stop))
        .route("/api/games/{id}/takeback", post(actions::takeback))
        .route("/api/games/{id}/abort", post(actions::abort))
        .route("/api/games/{id}/rematch", post(rematch::rematch))
        .route("/api/games/{id}/rematch/seat", post(rematch::seat))
        .route("/api/games/{id}/record", get(games::record))
        .route("/api/games/{id}/ws", get(games::ws))
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}
