//! Every error the API answers: `{"error": <sentence>, "code": <stable snake_case code>}`
//! (an illegal step adds `"reason"`, the rules' `Illegal::code`). The codes and their
//! statuses are listed in docs/server.md; [`Code`] is the one list. Also the extractors and
//! fallbacks that turn axum's own refusals (bad path, query or body, unknown route, wrong
//! method) into such errors.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequestParts, Path, Query};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use cohort_rules::PlayError;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};

/// Largest request body accepted by most routes (a step request is well under 100 bytes).
pub const MAX_BODY: usize = 16 * 1024;

/// What went wrong, for programs: each code has one meaning and (but for `not_websocket`
/// and `bad_request`, which keep axum's status) one status.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Code {
    /// 400: the body is not JSON (or cannot be read).
    BadJson,
    /// 400: JSON that is not the request (a missing, unknown or mistyped field), or a path
    /// or query parameter that does not parse.
    BadRequest,
    /// 400: a field's value is refused (its sentence names the field).
    InvalidField,
    /// 400: a variant named in a request is neither built in nor in the given file.
    UnknownVariant,
    /// 400: a custom variant file cannot be used (the body adds `errors`, with line and field).
    BadVariantFile,
    /// 400: a game record cannot be read or replayed.
    BadRecord,
    /// 400: the step text is not a step of this variant.
    BadStep,
    /// 400: the rules refuse the step now; `reason` says why.
    IllegalStep,
    /// 400/405/426: a request to a WebSocket route that is not a WebSocket upgrade.
    NotWebsocket,
    /// 401: the action needs an account: log in first.
    LoginRequired,
    /// 401: wrong username or password.
    BadCredentials,
    /// 403: the token (or session) gives no right to this action.
    Forbidden,
    /// 403: a state-changing request from another site.
    CrossSite,
    /// 421: the request's host (`Host`, or `X-Forwarded-Host` behind a trusted proxy) is
    /// not this site's (`--public-origin`).
    WrongHost,
    /// 404: no such game, variant, challenge, player or API route.
    NotFound,
    /// 405: the route does not take this method (the `Allow` header lists what it takes).
    MethodNotAllowed,
    /// 409: the game is over.
    GameOver,
    /// 409: it is the other side's turn.
    NotYourTurn,
    /// 409: a step posted by its index in a view of the game that is no longer current.
    StaleStep,
    /// 409: the turn in progress has no step to take back.
    NothingToUndo,
    /// 409: no draw offer stands to accept or decline.
    NoDrawOffer,
    /// 409: a draw offer already stands.
    DrawOfferStanding,
    /// 409: the AI does not take draw offers.
    AiDeclinesDraws,
    /// 409: no turn has been completed yet: there is nothing to take back.
    NothingToTakeBack,
    /// 409: no takeback request stands to accept or decline.
    NoTakebackOffer,
    /// 409: a takeback request already stands.
    TakebackOfferStanding,
    /// 409: the AI does not take back turns.
    AiDeclinesTakebacks,
    /// 409: two turns have been played: the game can no longer be aborted (resign instead).
    TooLateToAbort,
    /// 409: the game is not over yet (a rematch is offered after it).
    GameNotOver,
    /// 409: no rematch offer stands to accept or decline.
    NoRematchOffer,
    /// 409: a rematch offer already stands.
    RematchOfferStanding,
    /// 409: the rematch has been made already.
    RematchMade,
    /// 409: no rematch has been made yet.
    NoRematch,
    /// 409: the challenge is no longer open (accepted, withdrawn or expired).
    ChallengeClosed,
    /// 409: a player cannot accept their own challenge.
    OwnChallenge,
    /// 409: the acceptor's rating is outside the range the challenge asks for.
    RatingOutOfRange,
    /// 409: the username is taken.
    NameTaken,
    /// 409: the tournament is over, or has started (for an action only open before).
    TournamentClosed,
    /// 409: a tournament game cannot be aborted (resign instead).
    TournamentGame,
    /// 408: the request's body did not arrive within the body timeout.
    RequestTimeout,
    /// 413: the request body (or a variant file in it) is over the route's limit.
    TooLarge,
    /// 429: a limit of the server is reached (games at once, games an hour, open
    /// challenges); try again later.
    LimitReached,
    /// 429: too many failed log-ins or sign-ups; `Retry-After` says when to try again.
    RateLimited,
    /// 500: the server failed (storage, a task); nothing changed.
    Internal,
    /// 503: the server is busy (password hashes all taken for longer than it waits); try
    /// again in a moment (`Retry-After`).
    Busy,
}

impl Code {
    pub const ALL: [Code; 45] = [
        Code::BadJson,
        Code::BadRequest,
        Code::InvalidField,
        Code::UnknownVariant,
        Code::BadVariantFile,
        Code::BadRecord,
        Code::BadStep,
        Code::IllegalStep,
        Code::NotWebsocket,
        Code::LoginRequired,
        Code::BadCredentials,
        Code::Forbidden,
        Code::CrossSite,
        Code::WrongHost,
        Code::NotFound,
        Code::MethodNotAllowed,
        Code::GameOver,
        Code::NotYourTurn,
        Code::StaleStep,
        Code::NothingToUndo,
        Code::NoDrawOffer,
        Code::DrawOfferStanding,
        Code::AiDeclinesDraws,
        Code::NothingToTakeBack,
        Code::NoTakebackOffer,
        Code::TakebackOfferStanding,
        Code::AiDeclinesTakebacks,
        Code::TooLateToAbort,
        Code::GameNotOver,
        Code::NoRematchOffer,
        Code::RematchOfferStanding,
        Code::RematchMade,
        Code::NoRematch,
        Code::ChallengeClosed,
        Code::OwnChallenge,
        Code::RatingOutOfRange,
        Code::NameTaken,
        Code::TournamentClosed,
        Code::TournamentGame,
        Code::RequestTimeout,
        Code::TooLarge,
        Code::LimitReached,
        Code::RateLimited,
        Code::Internal,
        Code::Busy,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::BadJson => "bad_json",
            Code::BadRequest => "bad_request",
            Code::InvalidField => "invalid_field",
            Code::UnknownVariant => "unknown_variant",
            Code::BadVariantFile => "bad_variant_file",
            Code::BadRecord => "bad_record",
            Code::BadStep => "bad_step",
            Code::IllegalStep => "illegal_step",
            Code::NotWebsocket => "not_websocket",
            Code::LoginRequired => "login_required",
            Code::BadCredentials => "bad_credentials",
            Code::Forbidden => "forbidden",
            Code::CrossSite => "cross_site",
            Code::WrongHost => "wrong_host",
            Code::NotFound => "not_found",
            Code::MethodNotAllowed => "method_not_allowed",
            Code::GameOver => "game_over",
            Code::NotYourTurn => "not_your_turn",
            Code::StaleStep => "stale_step",
            Code::NothingToUndo => "nothing_to_undo",
            Code::NoDrawOffer => "no_draw_offer",
            Code::DrawOfferStanding => "draw_offer_standing",
            Code::AiDeclinesDraws => "ai_declines_draws",
            Code::NothingToTakeBack => "nothing_to_take_back",
            Code::NoTakebackOffer => "no_takeback_offer",
            Code::TakebackOfferStanding => "takeback_offer_standing",
            Code::AiDeclinesTakebacks => "ai_declines_takebacks",
            Code::TooLateToAbort => "too_late_to_abort",
            Code::GameNotOver => "game_not_over",
            Code::NoRematchOffer => "no_rematch_offer",
            Code::RematchOfferStanding => "rematch_offer_standing",
            Code::RematchMade => "rematch_made",
            Code::NoRematch => "no_rematch",
            Code::ChallengeClosed => "challenge_closed",
            Code::OwnChallenge => "own_challenge",
            Code::RatingOutOfRange => "rating_out_of_range",
            Code::NameTaken => "name_taken",
            Code::TournamentClosed => "tournament_closed",
            Code::TournamentGame => "tournament_game",
            Code::RequestTimeout => "request_timeout",
            Code::TooLarge => "too_large",
            Code::LimitReached => "limit_reached",
            Code::RateLimited => "rate_limited",
            Code::Internal => "internal",
            Code::Busy => "busy",
        }
    }

    /// The status answered with this code (the usual one for `not_websocket`).
    pub fn status(self) -> StatusCode {
        match self {
            Code::BadJson
            | Code::BadRequest
            | Code::InvalidField
            | Code::UnknownVariant
            | Code::BadVariantFile
            | Code::BadRecord
            | Code::BadStep
            | Code::IllegalStep
            | Code::NotWebsocket => StatusCode::BAD_REQUEST,
            Code::LoginRequired | Code::BadCredentials => StatusCode::UNAUTHORIZED,
            Code::Forbidden | Code::CrossSite => StatusCode::FORBIDDEN,
            Code::WrongHost => StatusCode::MISDIRECTED_REQUEST,
            Code::NotFound => StatusCode::NOT_FOUND,
            Code::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Code::GameOver
            | Code::NotYourTurn
            | Code::StaleStep
            | Code::NothingToUndo
            | Code::NoDrawOffer
            | Code::DrawOfferStanding
            | Code::AiDeclinesDraws
            | Code::NothingToTakeBack
            | Code::NoTakebackOffer
            | Code::TakebackOfferStanding
            | Code::AiDeclinesTakebacks
            | Code::TooLateToAbort
            | Code::GameNotOver
            | Code::NoRematchOffer
            | Code::RematchOfferStanding
            | Code::RematchMade
            | Code::NoRematch
            | Code::ChallengeClosed
            | Code::OwnChallenge
            | Code::RatingOutOfRange
            | Code::NameTaken
            | Code::TournamentClosed
            | Code::TournamentGame => StatusCode::CONFLICT,
            Code::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Code::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Code::LimitReached | Code::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Code::Busy => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

/// An API error: status, code, sentence, and any further fields of the body.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    pub message: String,
    /// More fields of the body (`reason` of an illegal step, `errors` of a variant file).
    pub extra: Map<String, Value>,
}

impl ApiError {
    /// An error with its code's status.
    pub fn new(code: Code, message: impl Into<String>) -> ApiError {
        ApiError {
            status: code.status(),
            code,
            message: message.into(),
            extra: Map::new(),
        }
    }
    /// The same with another status (axum's rejections keep their own).
    pub fn with_status(mut self, status: StatusCode) -> ApiError {
        self.status = status;
        self
    }
    /// The same with one more field in the body.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> ApiError {
        self.extra.insert(key.into(), value.into());
        self
    }
    /// A field's value is refused (400 `invalid_field`).
    /// A request to a WebSocket endpoint that is not a WebSocket upgrade.
    pub fn not_websocket(e: axum::extract::ws::rejection::WebSocketUpgradeRejection) -> ApiError {
        ApiError::new(
            Code::NotWebsocket,
            format!("not a WebSocket request: {}", e.body_text()),
        )
        .with_status(e.status())
    }

    pub fn invalid(message: impl Into<String>) -> ApiError {
        ApiError::new(Code::InvalidField, message)
    }
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(Code::NotFound, message)
    }
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(Code::Internal, message)
    }
    /// A step the game refused: `bad_step`, `illegal_step` with its `reason`, or `game_over`;
    /// `step` is the text the request sent.
    pub fn step(step: &str, e: &PlayError) -> ApiError {
        match e {
            PlayError::GameOver => ApiError::new(Code::GameOver, "the game is over"),
            PlayError::Illegal { reason, .. } => {
                ApiError::new(Code::IllegalStep, format!("step '{step}': {e}"))
                    .with("reason", reason.code())
            }
            PlayError::Parse(_) => ApiError::new(Code::BadStep, format!("step '{step}': {e}")),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = Map::new();
        body.insert("error".into(), self.message.into());
        body.insert("code".into(), self.code.as_str().into());
        body.extend(self.extra);
        (self.status, Json(Value::Object(body))).into_response()
    }
}

pub(crate) type Answer = Result<Json<Value>, ApiError>;

/// axum's `Path`, refused with a JSON [`ApiError`] instead of axum's plain-text rejection.
pub struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(v)) => Ok(ApiPath(v)),
            Err(e) => Err(
                ApiError::new(Code::BadRequest, format!("path: {}", e.body_text()))
                    .with_status(e.status()),
            ),
        }
    }
}

/// axum's `Query`, refused with a JSON [`ApiError`] naming the parameter that is wrong.
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(ApiQuery(v)),
            Err(e) => {
                // axum says "Failed to deserialize query string: <field>: <problem>".
                let text = e.body_text();
                let detail = text
                    .strip_prefix("Failed to deserialize query string: ")
                    .unwrap_or(&text);
                Err(
                    ApiError::new(Code::BadRequest, format!("query string: {detail}"))
                        .with_status(e.status()),
                )
            }
        }
    }
}

/// Any path under /api that is no route: a JSON 404 (other paths keep a plain 404).
pub async fn no_route(method: Method, uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        ApiError::not_found(format!(
            "no API route {method} {path} (docs/server.md lists them)"
        ))
        .into_response()
    } else {
        crate::pages::not_found_page(path, "The address may be mistyped, or the page gone.")
    }
}

/// A route that exists, asked with a method it does not take: a JSON 405 (axum adds `Allow`).
pub(crate) async fn wrong_method(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        Code::MethodNotAllowed,
        format!(
            "{} does not take {method} (the Allow header lists what it takes)",
            uri.path()
        ),
    )
}

/// Parse a JSON body, turning every way it can be wrong into one clear sentence.
pub(crate) fn body<T: for<'de> Deserialize<'de>>(
    raw: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    body_with(raw, MAX_BODY)
}

/// [`body`] for a route whose body limit is `limit` bytes.
pub(crate) fn body_with<T: for<'de> Deserialize<'de>>(
    raw: Result<Bytes, BytesRejection>,
    limit: usize,
) -> Result<T, ApiError> {
    let bytes = raw.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(Code::TooLarge, format!("request body over {limit} bytes"))
        } else {
            ApiError::new(Code::BadJson, format!("unreadable request body: {e}"))
                .with_status(status)
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        use serde_json::error::Category;
        match e.classify() {
            // Well-formed JSON that is not the request: a missing field, a wrong type.
            Category::Data => ApiError::new(Code::BadRequest, format!("request body: {e}")),
            _ => ApiError::new(Code::BadJson, format!("malformed JSON body: {e}")),
        }
    })
}
