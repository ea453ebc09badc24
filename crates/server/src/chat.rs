//! Chat lines in storage (the `chat_lines` table) and each account's chat switch (the
//! `user_settings` table): every instance on the database sees the same lines, and they
//! outlive a restart. A line belongs to one room: the lobby's (`lobby`), a game's players'
//! (`game:<id>:players`) or a game's spectators' (`game:<id>:spectators`). What a line may
//! hold, and how often one poster may post, is decided here; who may post where is
//! chat_api.rs's. PostgreSQL announces each new line, and each change of a switch, on
//! `CHAT_CHANNEL` (payload: `Announce` as JSON), so the other instances' sockets hear it.

use std::sync::atomic::{AtomicI64, Ordering};

use serde::{Deserialize, Serialize};
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::store::{now_ms, Store, StoreError, CHAT_CHANNEL};

/// The longest line, in characters (Unicode scalar values).
pub const MAX_CHARS: usize = 500;
/// A history answer holds at most this many lines: the room's newest.
pub const HISTORY: usize = 50;
/// One poster's lines: at most `BURST_LINES` in `BURST_MS`, and `SUSTAINED_LINES` in
/// `SUSTAINED_MS` (counted over all rooms, from storage, so every instance counts the same).
pub const BURST_LINES: i64 = 5;
pub const BURST_MS: i64 = 10_000;
pub const SUSTAINED_LINES: i64 = 60;
pub const SUSTAINED_MS: i64 = 600_000;
/// One address's lines, whoever posts them (every new game gives an anonymous caller two
/// new posters): twice a poster's share, in the same windows.
pub const ADDRESS_BURST_LINES: i64 = 2 * BURST_LINES;
pub const ADDRESS_SUSTAINED_LINES: i64 = 2 * SUSTAINED_LINES;
/// Lines are kept this long, then purged (hourly, with expired sessions).
pub const RETENTION_MS: i64 = 30 * 86_400_000;

/// One line as stored and as sent to clients.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    pub id: String,
    pub room: String,
    /// Who posted it, for the rate limit: `user:<id>` or `seat:<game>:<side>`. Not sent.
    #[serde(skip)]
    pub poster: String,
    /// The poster's account name (None: an anonymous player, known by `seat`).
    pub by: Option<String>,
    /// A player's line: the poster's side ("white" or "black").
    pub seat: Option<String>,
    /// Exactly as posted.
    pub text: String,
    pub at_ms: i64,
    /// The address it came from, for the per-address limit. Not sent.
    #[serde(skip)]
    pub address: String,
}

/// What one instance tells the others on `CHAT_CHANNEL`: a new line, or an account's switch.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Announce {
    /// The announcing instance (`Store::instance`): it has delivered the news itself already.
    pub from: String,
    #[serde(default)]
    pub line: Option<ChatLine>,
    /// An account's chat switch: (user id, on).
    #[serde(default)]
    pub switch: Option<(String, bool)>,
}

/// Why a line's text is refused (the message names the field).
pub fn check_text(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err("text: an empty line".into());
    }
    let n = text.chars().count();
    if n > MAX_CHARS {
        return Err(format!(
            "text: {n} characters; a line holds at most {MAX_CHARS}"
        ));
    }
    // Control characters (new lines and tabs too: a line is one line), the bidirectional
    // marks and overrides, which would turn the text shown after them around, and the
    // characters that show nothing (a line of them reads as empty, or hides a name).
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_control() {
            return Err(format!(
                "text: control character U+{:04X} refused",
                c as u32
            ));
        }
        if bidi(c) {
            return Err(format!(
                "text: bidirectional mark U+{:04X} refused",
                c as u32
            ));
        }
        // A joiner between two pictographs makes one emoji (a family, a flag): kept.
        let joins = c == '\u{200D}'
            && i > 0
            && i + 1 < chars.len()
            && pictograph(chars[i - 1])
            && pictograph(chars[i + 1]);
        if invisible(c) && !joins {
            return Err(format!(
                "text: invisible character U+{:04X} refused",
                c as u32
            ));
        }
    }
    Ok(())
}

/// The bidirectional marks, embeddings, overrides and isolates.
fn bidi(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Characters that draw nothing and take no visible space (format characters, separators of
/// lines and paragraphs, fillers that fonts draw blank, tags).
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180E}' | '\u{200B}'..='\u{200D}' | '\u{2028}'..='\u{202F}'
        | '\u{205F}'..='\u{2064}' | '\u{206A}'..='\u{206F}' | '\u{3164}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF9}'..='\u{FFFB}' | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E007F}')
}

/// Emoji and other pictographs (and a variation selector after one), which a joiner may
/// join.
fn pictograph(c: char) -> bool {
    matches!(c, '\u{2600}'..='\u{27BF}' | '\u{FE0F}' | '\u{1F000}'..='\u{1FAFF}')
}

/// Now in ms, later than any time this process gave before: the lines one instance stores
/// keep their order even within one millisecond.
pub fn line_ms() -> i64 {
    static LAST: AtomicI64 = AtomicI64::new(0);
    let mut last = LAST.load(Ordering::Relaxed);
    loop {
        let t = now_ms().max(last + 1);
        match LAST.compare_exchange_weak(last, t, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return t,
            Err(seen) => last = seen,
        }
    }
}

/// Why a line was not stored.
pub enum Refused {
    /// The poster's share is used up; the text says which limit.
    Limit(String),
}

fn line_of(r: &AnyRow) -> Result<ChatLine, StoreError> {
    Ok(ChatLine {
        id: r.try_get("id")?,
        room: r.try_get("room")?,
        poster: r.try_get("poster")?,
        by: r.try_get("by_name")?,
        seat: r.try_get("seat")?,
        text: r.try_get("body")?,
        at_ms: r.try_get("posted_ms")?,
        address: r.try_get("address")?,
    })
}

impl Store {
    async fn announce_chat(&self, a: &Announce) -> Result<(), StoreError> {
        if self.kind == "postgres" {
            let payload =
                serde_json::to_string(a).map_err(|e| StoreError::Protocol(e.to_string()))?;
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHAT_CHANNEL)
                .bind(payload)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// Store `line` unless its poster is over a limit (counted and written in one
    /// transaction; on PostgreSQL under a lock, so that instances posting at once cannot
    /// pass the limits together), and announce it to the other instances.
    pub async fn add_chat_line(&self, line: &ChatLine) -> Result<Result<(), Refused>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.kind == "postgres" {
            sqlx::query("SELECT pg_advisory_xact_lock(7362018)")
                .execute(&mut *tx)
                .await?;
        }
        let limits = [
            ("poster", &line.poster, BURST_LINES, BURST_MS, ""),
            ("poster", &line.poster, SUSTAINED_LINES, SUSTAINED_MS, ""),
            (
                "address",
                &line.address,
                ADDRESS_BURST_LINES,
                BURST_MS,
                " from this address",
            ),
            (
                "address",
                &line.address,
                ADDRESS_SUSTAINED_LINES,
                SUSTAINED_MS,
                " from this address",
            ),
        ];
        for (column, key, lines, ms, whose) in limits {
            let n: i64 = sqlx::query(&format!(
                "SELECT COUNT(*) FROM chat_lines WHERE {column} = $1 AND posted_ms > $2"
            ))
            .bind(key)
            .bind(line.at_ms - ms)
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
            if n >= lines {
                return Ok(Err(Refused::Limit(format!(
                    "at most {lines} chat lines{whose} in {} s; wait a moment",
                    ms / 1000
                ))));
            }
        }
        sqlx::query(
            "INSERT INTO chat_lines (id, room, poster, by_name, seat, body, posted_ms, address)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&line.id)
        .bind(&line.room)
        .bind(&line.poster)
        .bind(line.by.clone())
        .bind(line.seat.clone())
        .bind(&line.text)
        .bind(line.at_ms)
        .bind(&line.address)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.announce_chat(&Announce {
            from: self.instance.clone(),
            line: Some(line.clone()),
            switch: None,
        })
        .await?;
        Ok(Ok(()))
    }

    /// Delete the lines older than `RETENTION_MS` before `now`; how many.
    pub async fn purge_chat(&self, now: i64) -> Result<u64, StoreError> {
        let r = sqlx::query("DELETE FROM chat_lines WHERE posted_ms < $1")
            .bind(now - RETENTION_MS)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected())
    }

    /// The newest `limit` lines of `room`, oldest first.
    pub async fn chat_lines(&self, room: &str, limit: usize) -> Result<Vec<ChatLine>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM chat_lines WHERE room = $1 ORDER BY posted_ms DESC, id DESC LIMIT $2",
        )
        .bind(room)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        let mut lines = rows.iter().map(line_of).collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// Whether account `user` has chat on (the default).
    pub async fn chat_on(&self, user: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT chat_off FROM user_settings WHERE user_id = $1")
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<i64, _>(0)? == 0,
            None => true,
        })
    }

    /// Switch chat on or off for account `user`, and tell the other instances.
    pub async fn set_chat_on(&self, user: &str, on: bool) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO user_settings (user_id, chat_off) VALUES ($1, $2)
             ON CONFLICT (user_id) DO UPDATE SET chat_off = excluded.chat_off",
        )
        .bind(user)
        .bind(i64::from(!on))
        .execute(&self.pool)
        .await?;
        self.announce_chat(&Announce {
            from: self.instance.clone(),
            line: None,
            switch: Some((user.to_string(), on)),
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert!(check_text("hello <b>").is_ok());
        assert!(check_text(&"é".repeat(MAX_CHARS)).is_ok());
        assert!(check_text(&"é".repeat(MAX_CHARS + 1)).is_err());
        assert!(check_text("  ").is_err());
        assert!(check_text("a\nb").is_err());
        assert!(check_text("a\u{7f}").is_err());
        assert!(check_text("a\u{202E}b").is_err());
        // What the probe passed: a right-to-left mark, a line separator, lines of only
        // zero-width spaces or Hangul fillers, tag characters.
        for t in [
            "a\u{200F}b",
            "a\u{2028}b",
            "\u{200B}\u{200B}",
            "\u{3164}",
            "hi\u{E0041}\u{E007F}",
        ] {
            assert!(check_text(t).is_err(), "{t:?}");
        }
        // Emoji joined into one (a family) and with a variation selector stay.
        assert!(check_text("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}").is_ok());
        assert!(check_text("\u{2764}\u{FE0F} gg").is_ok());
        assert!(check_text("a\u{200D}b").is_err());
    }

    #[test]
    fn line_times_rise() {
        let a = line_ms();
        let b = line_ms();
        assert!(b > a);
    }
}
