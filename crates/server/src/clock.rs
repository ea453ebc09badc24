//! Game clocks (docs/server.md, "Clocks"). The server keeps them and is the one truth: a
//! clock is stored with its game as each side's remaining time at the moment the side to
//! move's time began running (`since_ms`, wall-clock milliseconds), so the time left is
//! always `remaining - (now - since)`, across restarts too. A turn is many steps: the clock
//! switches only when a turn ends.
//!
//! - Live (`minutes + increment`): both sides start with `base_ms`; at the end of its turn
//!   a side gets `inc_ms` added to what it has left.
//! - Correspondence (`days per turn`): each turn has `base_ms` to be played in; time not
//!   used is not carried over.
//!
//! A side whose time reaches zero while it is to move loses ("time forfeit").
//!
//! Two things keep the clock fair in multi-step games (docs/server.md, "Clocks"):
//! - A live game's clock does not run before White's first step ([`Clock::waiting`]); a
//!   game whose first step does not come within the start window is aborted.
//! - Watching the opponent's turn replayed costs nothing: when a turn ends, the other side's
//!   time starts running only once the game page has replayed that turn at its default
//!   speed ([`ReplayCredit`]): `since_ms` is then a moment a little in the future.

use cohort_rules::Side;

/// How long the players have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock.
    #[default]
    None,
    /// `base_ms` for the game, `inc_ms` added at the end of each turn.
    Live { base_ms: i64, inc_ms: i64 },
    /// `per_turn_ms` for every turn.
    Correspondence { per_turn_ms: i64 },
}

impl TimeControl {
    /// The stored kind: "" (none), "live" or "corr".
    pub fn kind(&self) -> &'static str {
        match self {
            TimeControl::None => "",
            TimeControl::Live { .. } => "live",
            TimeControl::Correspondence { .. } => "corr",
        }
    }

    /// Rebuild from the stored columns; an unknown kind is no clock.
    pub fn from_stored(kind: &str, base_ms: i64, inc_ms: i64) -> TimeControl {
        match kind {
            "live" => TimeControl::Live { base_ms, inc_ms },
            "corr" => TimeControl::Correspondence {
                per_turn_ms: base_ms,
            },
            _ => TimeControl::None,
        }
    }

    /// (base, increment) as stored.
    pub fn stored(&self) -> (i64, i64) {
        match *self {
            TimeControl::None => (0, 0),
            TimeControl::Live { base_ms, inc_ms } => (base_ms, inc_ms),
            TimeControl::Correspondence { per_turn_ms } => (per_turn_ms, 0),
        }
    }

    /// "1+1", "5+3", "3 days per turn", "none".
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::None => "none".into(),
            TimeControl::Live { base_ms, inc_ms } => {
                let min = base_ms as f64 / 60_000.0;
                let min = if base_ms % 60_000 == 0 {
                    format!("{}", base_ms / 60_000)
                } else {
                    format!("{min:.2}")
                };
                format!("{min}+{}", inc_ms / 1000)
            }
            TimeControl::Correspondence { per_turn_ms } => {
                let days = per_turn_ms / 86_400_000;
                if days == 1 {
                    "1 day per turn".into()
                } else {
                    format!("{days} days per turn")
                }
            }
        }
    }

    /// Parse a request's clock: `{"minutes": 1, "increment": 1}` or `{"days": 3}`, with the
    /// field path `at` named in errors.
    pub fn from_request(
        minutes: Option<f64>,
        increment: Option<i64>,
        days: Option<i64>,
        at: &str,
    ) -> Result<TimeControl, String> {
        match (minutes, increment, days) {
            (None, None, None) => Ok(TimeControl::None),
            (Some(_), _, Some(_)) | (None, Some(_), Some(_)) => Err(format!(
                "{at}: give either minutes and increment (a live game) or days (correspondence), not both"
            )),
            (None, None, Some(d)) => {
                if !(1..=14).contains(&d) {
                    return Err(format!("{at}.days: must be from 1 to 14 (days per turn)"));
                }
                Ok(TimeControl::Correspondence {
                    per_turn_ms: d * 86_400_000,
                })
            }
            (m, inc, None) => {
                let m = m.ok_or_else(|| format!("{at}: minutes missing (e.g. 1 for 1+1)"))?;
                if !m.is_finite() || !(0.25..=180.0).contains(&m) {
                    return Err(format!("{at}.minutes: must be from 0.25 to 180"));
                }
                let inc = inc.unwrap_or(0);
                if !(0..=180).contains(&inc) {
                    return Err(format!(
                        "{at}.increment: must be from 0 to 180 (seconds per turn)"
                    ));
                }
                Ok(TimeControl::Live {
                    base_ms: (m * 60_000.0).round() as i64,
                    inc_ms: inc * 1000,
                })
            }
        }
    }
}

/// Milliseconds the game page shows each replayed step of the opponent's turn at its
/// default speed ("Normal" in web/static/game-state.js).
pub const REPLAY_STEP_MS: i64 = 550;

/// The most replay time credited after one turn: a turn of many steps replayed slowly
/// must not hand the other side unlimited free thinking time.
pub const REPLAY_CREDIT_MAX_MS: i64 = 10_000;

/// When the game page, replaying the steps of the turn in progress one at a time at the
/// default speed, will have shown them all: each step is shown `REPLAY_STEP_MS` from when
/// it arrives or when the step before has been shown, whichever is later. Kept by the
/// server as the steps come (in memory only: a game read again from storage mid-turn
/// counts its steps at the full rate instead).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayCredit {
    /// Steps of the turn in progress counted.
    pub steps: usize,
    /// When the page will have replayed them (ms since the epoch).
    pub until_ms: i64,
}

impl ReplayCredit {
    /// A step of the turn arrived at `now`.
    pub fn step(&mut self, now: i64) {
        self.until_ms = self.until_ms.max(now) + REPLAY_STEP_MS;
        self.steps += 1;
    }

    /// A step of the turn was taken back: the page shows one step less, but the time it
    /// spent replaying stays spent.
    pub fn unstep(&mut self) {
        self.steps = self.steps.saturating_sub(1);
    }

    /// The time credited to the other side when a turn of `turn_steps` steps ends at `now`:
    /// what is left of its replay then, capped at `REPLAY_CREDIT_MAX_MS`. Steps not counted
    /// here (the game was read again from storage mid-turn) count at the full rate.
    pub fn at_turn_end(&self, turn_steps: usize, now: i64) -> i64 {
        let left = if self.steps == turn_steps {
            self.until_ms - now
        } else {
            turn_steps as i64 * REPLAY_STEP_MS
        };
        left.clamp(0, REPLAY_CREDIT_MAX_MS)
    }
}

/// A game's clock: remaining time per side, and since when the side to move's time runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub control: TimeControl,
    /// White's and Black's time left when `since_ms` was set.
    pub remaining_ms: [i64; 2],
    /// When the side to move's time began running (ms since the epoch); later than now
    /// while the page replays the turn before (the replay credit); 0: stopped, or a live
    /// game waiting for its first step ([`Clock::waiting`]).
    pub since_ms: i64,
}

impl Clock {
    /// A clock that starts running for the side to move at `now`.
    pub fn start(control: TimeControl, now: i64) -> Clock {
        let full = control.stored().0;
        Clock {
            control,
            remaining_ms: [full, full],
            since_ms: if control == TimeControl::None { 0 } else { now },
        }
    }

    /// A new game's clock: a live clock waits, stopped, for White's first step
    /// ([`Clock::first_step`]); a correspondence clock runs from `now`.
    pub fn waiting(control: TimeControl, now: i64) -> Clock {
        let mut clock = Clock::start(control, now);
        if matches!(control, TimeControl::Live { .. }) {
            clock.since_ms = 0;
        }
        clock
    }

    /// A new game's clock: waiting for the first step ([`Clock::waiting`]), unless the AI
    /// plays it (it searches at once, on its clock).
    pub fn for_new_game(control: TimeControl, ai_moves_first: bool, now: i64) -> Clock {
        if ai_moves_first {
            Clock::start(control, now)
        } else {
            Clock::waiting(control, now)
        }
    }

    /// A game in progress whose live clock is still waiting for the first step?
    pub fn waits_for_first_step(&self, game_over: bool) -> bool {
        !game_over && matches!(self.control, TimeControl::Live { .. }) && self.since_ms == 0
    }

    /// A step was played at `now` in a game in progress: a clock waiting for the first step
    /// starts running for the side to move.
    pub fn first_step(&mut self, now: i64) {
        if self.waits_for_first_step(false) {
            self.since_ms = now;
        }
    }

    pub fn active(&self) -> bool {
        self.control != TimeControl::None
    }

    pub fn running(&self) -> bool {
        self.active() && self.since_ms != 0
    }

    /// `side`'s time left at `now` (negative once its flag has fallen) when `to_move` is to
    /// move. Before `since_ms` (the replay credit) no time runs.
    pub fn left(&self, side: Side, to_move: Side, now: i64) -> i64 {
        let stored = self.remaining_ms[side.index()];
        if self.running() && side == to_move {
            stored - (now - self.since_ms).max(0)
        } else {
            stored
        }
    }

    /// Has the side to move run out of time at `now`?
    pub fn flagged(&self, to_move: Side, now: i64) -> bool {
        self.running() && self.left(to_move, to_move, now) <= 0
    }

    /// When the side to move's flag falls (ms since the epoch), if the clock runs.
    pub fn deadline(&self, to_move: Side) -> Option<i64> {
        self.running()
            .then(|| self.since_ms + self.remaining_ms[to_move.index()])
    }

    /// `mover` ended its turn at `now`: its time is charged (plus the increment), and the
    /// other side's time runs from `credit_ms` later (the replay of the turn, see
    /// [`ReplayCredit`]).
    pub fn switch(&mut self, mover: Side, now: i64, credit_ms: i64) {
        if !self.active() {
            return;
        }
        let used_left = self.left(mover, mover, now);
        match self.control {
            TimeControl::Live { inc_ms, .. } => {
                self.remaining_ms[mover.index()] = used_left + inc_ms;
            }
            TimeControl::Correspondence { per_turn_ms } => {
                self.remaining_ms[mover.index()] = used_left;
                self.remaining_ms[mover.other().index()] = per_turn_ms;
            }
            TimeControl::None => {}
        }
        self.since_ms = now + credit_ms.max(0);
    }

    /// A takeback accepted at `now` (api/offers.rs): no time is given back. `was_to_move`
    /// is charged the time its turn ran (without an increment: it ended no turn), and
    /// `to_move`, to move again, runs from now: live, with what it had left; correspondence,
    /// with a whole turn's time, as after any switch.
    pub fn take_back(&mut self, was_to_move: Side, to_move: Side, now: i64) {
        if !self.running() {
            return;
        }
        self.remaining_ms[was_to_move.index()] = self.left(was_to_move, was_to_move, now).max(0);
        if let TimeControl::Correspondence { per_turn_ms } = self.control {
            self.remaining_ms[to_move.index()] = per_turn_ms;
        }
        self.since_ms = now;
    }

    /// How long after `now` the side to move's time starts running (the replay credit
    /// left); 0 once it runs.
    pub fn starts_in(&self, now: i64) -> i64 {
        if self.running() {
            (self.since_ms - now).max(0)
        } else {
            0
        }
    }

    /// The game ended at `now` with `to_move` to move: the clock stops showing what was left.
    pub fn stop(&mut self, to_move: Side, now: i64) {
        if self.running() {
            self.remaining_ms[to_move.index()] = self.left(to_move, to_move, now).max(0);
            self.since_ms = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Side = Side::White;
    const B: Side = Side::Black;

    #[test]
    fn live_increment_is_added_at_the_end_of_a_turn() {
        let tc = TimeControl::Live {
            base_ms: 60_000,
            inc_ms: 1_000,
        };
        let mut c = Clock::start(tc, 1_000_000);
        assert_eq!(c.left(W, W, 1_000_000), 60_000);
        // White thinks 10 s (a turn of several steps: no switch in between).
        assert_eq!(c.left(W, W, 1_010_000), 50_000);
        assert_eq!(c.left(B, W, 1_010_000), 60_000, "Black's time does not run");
        c.switch(W, 1_010_000, 0);
        assert_eq!(
            c.left(W, B, 1_010_000),
            51_000,
            "50 s left plus the 1 s increment"
        );
        assert_eq!(c.left(B, B, 1_013_500), 56_500);
        c.switch(B, 1_013_500, 0);
        assert_eq!(c.remaining_ms, [51_000, 57_500]);
        assert_eq!(c.since_ms, 1_013_500);
    }

    #[test]
    fn flag_falls_at_the_deadline_and_not_before() {
        let tc = TimeControl::Live {
            base_ms: 60_000,
            inc_ms: 1_000,
        };
        let mut c = Clock::start(tc, 5);
        c.switch(W, 2_005, 0); // White used 2 s: 59 s left
        assert_eq!(c.deadline(B), Some(2_005 + 60_000));
        assert!(!c.flagged(B, 62_004));
        assert!(c.flagged(B, 62_005));
        assert_eq!(
            c.left(W, B, 62_005),
            59_000,
            "White's time stands while Black moves"
        );
        c.stop(B, 70_000);
        assert_eq!(
            c.remaining_ms,
            [59_000, 0],
            "a stopped clock shows no negative time"
        );
        assert!(!c.running() && !c.flagged(B, 1 << 40));
        assert_eq!(c.deadline(B), None);
    }

    #[test]
    fn a_restart_keeps_time_running_from_the_stored_timestamp() {
        let tc = TimeControl::Correspondence {
            per_turn_ms: 3 * 86_400_000,
        };
        let mut c = Clock::start(tc, 1_000);
        c.switch(W, 3_600_000, 0); // White took an hour
                                   // What storage holds, read back by a new process a day later.
        let (kind, (base, inc)) = (c.control.kind(), c.control.stored());
        let back = Clock {
            control: TimeControl::from_stored(kind, base, inc),
            remaining_ms: c.remaining_ms,
            since_ms: c.since_ms,
        };
        assert_eq!(back, c);
        let day_later = 3_600_000 + 86_400_000;
        assert_eq!(back.left(B, B, day_later), 2 * 86_400_000);
        assert!(!back.flagged(B, day_later));
        assert!(back.flagged(B, 3_600_000 + 3 * 86_400_000));
        // Correspondence: each turn starts afresh; unused time is not carried over.
        let mut c2 = back;
        c2.switch(B, day_later, 0);
        assert_eq!(c2.left(W, W, day_later), 3 * 86_400_000);
    }

    #[test]
    fn no_clock_never_flags() {
        let c = Clock::start(TimeControl::None, 5);
        assert!(!c.running() && !c.flagged(W, i64::MAX / 2));
        let mut c = c;
        c.switch(W, 10, 0);
        assert_eq!(c.since_ms, 0);
    }

    #[test]
    fn requests_parse_and_refuse_with_the_field_named() {
        assert_eq!(
            TimeControl::from_request(Some(1.0), Some(1), None, "clock"),
            Ok(TimeControl::Live {
                base_ms: 60_000,
                inc_ms: 1_000
            })
        );
        assert_eq!(
            TimeControl::from_request(None, None, Some(2), "clock").unwrap(),
            TimeControl::Correspondence {
                per_turn_ms: 2 * 86_400_000
            }
        );
        let e = TimeControl::from_request(Some(0.0), None, None, "clock").unwrap_err();
        assert!(e.contains("clock.minutes"), "{e}");
        let e = TimeControl::from_request(Some(1.0), None, Some(1), "clock").unwrap_err();
        assert!(e.contains("not both"), "{e}");
        let e = TimeControl::from_request(None, None, Some(30), "clock").unwrap_err();
        assert!(e.contains("clock.days"), "{e}");
        assert_eq!(
            TimeControl::Live {
                base_ms: 60_000,
                inc_ms: 1_000
            }
            .describe(),
            "1+1"
        );
    }

    #[test]
    fn the_replay_of_a_turn_is_credited_to_the_other_side() {
        let tc = TimeControl::Live {
            base_ms: 60_000,
            inc_ms: 0,
        };
        // Nine steps posted 100 ms apart, then `end`: the page shows each for 550 ms, one
        // after the other, so it is still replaying 5.5 s after the first step came.
        let mut credit = ReplayCredit::default();
        for i in 0..10 {
            credit.step(1_000_000 + i * 100);
        }
        let end = 1_000_900;
        assert_eq!(credit.until_ms, 1_000_000 + 10 * REPLAY_STEP_MS);
        let ms = credit.at_turn_end(10, end);
        assert_eq!(ms, 10 * REPLAY_STEP_MS - 900);
        let mut c = Clock::start(tc, 999_000);
        c.switch(W, end, ms);
        assert_eq!(c.starts_in(end), ms);
        assert_eq!(
            c.left(B, B, end + ms),
            60_000,
            "Black's time stands during the replay"
        );
        assert_eq!(c.left(B, B, end + ms + 700), 59_300);
        assert_eq!(c.deadline(B), Some(end + ms + 60_000));
        // Black replies during the replay (a premove): nothing is charged.
        c.switch(B, end + 10, 0);
        assert_eq!(c.remaining_ms, [58_100, 60_000]);
        // Steps slower than the replay: only the last step's showing is credited.
        let mut slow = ReplayCredit::default();
        slow.step(0);
        slow.step(2_000);
        assert_eq!(slow.at_turn_end(2, 2_000), REPLAY_STEP_MS);
        // Steps not seen (read again from storage): the full rate, capped.
        assert_eq!(slow.at_turn_end(5, 2_000), 5 * REPLAY_STEP_MS);
        assert_eq!(slow.at_turn_end(40, 2_000), REPLAY_CREDIT_MAX_MS);
    }

    #[test]
    fn a_live_clock_waits_for_the_first_step() {
        let tc = TimeControl::Live {
            base_ms: 60_000,
            inc_ms: 0,
        };
        let mut c = Clock::waiting(tc, 1_000);
        assert!(c.waits_for_first_step(false) && !c.running());
        assert_eq!(c.left(W, W, 50_000), 60_000);
        assert_eq!(c.deadline(W), None, "no flag falls before the first step");
        c.first_step(50_000);
        assert!(c.running() && !c.waits_for_first_step(false));
        assert_eq!(c.left(W, W, 51_000), 59_000);
        c.first_step(52_000);
        assert_eq!(c.since_ms, 50_000, "only the first step starts it");
        // Correspondence runs from the start.
        let corr = Clock::waiting(
            TimeControl::Correspondence {
                per_turn_ms: 86_400_000,
            },
            1_000,
        );
        assert!(corr.running() && !corr.waits_for_first_step(false));
        assert!(!Clock::waiting(TimeControl::None, 1).waits_for_first_step(false));
    }
}
