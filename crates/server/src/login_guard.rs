//! Log-in limits per account, whatever the address (docs/server.md, "Security"): guesses
//! at one account from many addresses are slowed once they pass a ceiling, and successful
//! log-ins of one account from one address are limited in number. Neither locks the owner
//! out: a log-in from an address that has logged into the account before, or from a
//! browser with a live session of it, is never slowed; the slow-down's delay is bounded.
//! Kept in memory (per instance, forgotten at a restart), like accounts.rs's `Limiter`.

use std::collections::HashMap;
use std::sync::Mutex;

/// Failed log-ins an account takes from all addresses together in [`FAILURE_WINDOW_MS`]
/// before each further guess (from an address it does not know) must wait.
pub const ACCOUNT_FAILURES: u32 = 10;
pub const FAILURE_WINDOW_MS: i64 = 15 * 60_000;
/// The wait between guesses past the ceiling: 1 s, doubling with each further failure, at
/// most this.
pub const MAX_DELAY_MS: i64 = 60_000;
/// Successful log-ins of one account from one address in [`LOGIN_WINDOW_MS`].
pub const LOGINS_PER_ADDRESS: u32 = 10;
pub const LOGIN_WINDOW_MS: i64 = 10 * 60_000;
/// Addresses remembered as an account's own (the most recent).
const KNOWN: usize = 16;
/// Accounts tracked at most; past it the idle ones are forgotten.
const ACCOUNTS: usize = 100_000;

#[derive(Default)]
struct Account {
    /// Failures in the window that began at `since`, and when the last guess past the
    /// ceiling was let through (the next one waits from there).
    failures: u32,
    since: i64,
    last: i64,
    /// Addresses that logged in successfully, oldest first.
    known: Vec<String>,
    /// Successful log-ins per address: (address, count, window start).
    logins: Vec<(String, u32, i64)>,
}

/// Why a log-in is refused before its password is checked: what is limited, and the wait.
#[derive(Debug, PartialEq)]
pub enum Wait {
    /// Failed guesses for the account from many addresses.
    Guesses(i64),
    /// Successful log-ins of the account from this address.
    Logins(i64),
}

#[derive(Default)]
pub struct LoginGuard {
    accounts: Mutex<HashMap<String, Account>>,
}

/// The wait a guess needs after `failures` failures (past the ceiling).
fn delay(failures: u32) -> i64 {
    let past = failures.saturating_sub(ACCOUNT_FAILURES).min(16);
    (1000i64 << past).min(MAX_DELAY_MS)
}

impl LoginGuard {
    /// May a log-in of account `id` from `address` be checked now? `own` says the browser
    /// holds a live session of the account. A guess let through past the ceiling starts
    /// the next one's wait (so guesses sent at once do not all pass).
    pub fn admit(&self, id: &str, address: &str, own: bool, now: i64) -> Result<(), Wait> {
        let mut accounts = self.accounts.lock().unwrap();
        let Some(a) = accounts.get_mut(id) else {
            return Ok(());
        };
        if let Some(&(_, n, start)) = a.logins.iter().find(|l| l.0 == address) {
            if n >= LOGINS_PER_ADDRESS && now - start < LOGIN_WINDOW_MS {
                return Err(Wait::Logins(LOGIN_WINDOW_MS - (now - start)));
            }
        }
        let trusted = own || a.known.iter().any(|k| k == address);
        if trusted || a.failures < ACCOUNT_FAILURES || now - a.since >= FAILURE_WINDOW_MS {
            return Ok(());
        }
        let wait = a.last + delay(a.failures) - now;
        if wait > 0 {
            return Err(Wait::Guesses(wait));
        }
        a.last = now;
        Ok(())
    }

    /// A wrong password for account `id` (an account that exists).
    pub fn failed(&self, id: &str, now: i64) {
        let mut accounts = self.accounts.lock().unwrap();
        Self::room(&mut accounts, now);
        let a = accounts.entry(id.to_string()).or_default();
        if now - a.since >= FAILURE_WINDOW_MS {
            (a.failures, a.since) = (0, now);
        }
        a.failures += 1;
        if a.failures == ACCOUNT_FAILURES {
            a.last = now;
        }
    }

    /// Account `id` logged in (or signed up) from `address`: the address is its own now,
    /// and the log-in counts against the address's limit ("unknown", a request made
    /// in-process, is not limited).
    pub fn succeeded(&self, id: &str, address: &str, now: i64) {
        let mut accounts = self.accounts.lock().unwrap();
        Self::room(&mut accounts, now);
        let a = accounts.entry(id.to_string()).or_default();
        if !a.known.iter().any(|k| k == address) {
            if a.known.len() == KNOWN {
                a.known.remove(0);
            }
            a.known.push(address.to_string());
        }
        if address == "unknown" {
            return;
        }
        a.logins.retain(|l| now - l.2 < LOGIN_WINDOW_MS);
        match a.logins.iter_mut().find(|l| l.0 == address) {
            Some(l) => l.1 += 1,
            None => a.logins.push((address.to_string(), 1, now)),
        }
    }

    /// Keep the map bounded: past `ACCOUNTS`, forget accounts with nothing current (their
    /// known addresses too: the owner is then slowed at most, never locked out).
    fn room(accounts: &mut HashMap<String, Account>, now: i64) {
        if accounts.len() >= ACCOUNTS {
            accounts.retain(|_, a| {
                now - a.since < FAILURE_WINDOW_MS
                    || a.logins.iter().any(|l| now - l.2 < LOGIN_WINDOW_MS)
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guesses_past_the_ceiling_wait_longer_and_longer_but_the_owner_never_does() {
        let g = LoginGuard::default();
        g.succeeded("alice", "10.0.0.1", 0);
        for i in 0..ACCOUNT_FAILURES {
            assert_eq!(g.admit("alice", &format!("10.1.0.{i}"), false, 0), Ok(()));
            g.failed("alice", 0);
        }
        assert_eq!(
            g.admit("alice", "10.2.0.1", false, 10),
            Err(Wait::Guesses(990))
        );
        assert_eq!(g.admit("alice", "10.2.0.1", false, 1000), Ok(()));
        // The next guess, at once, waits for the one let through.
        assert_eq!(
            g.admit("alice", "10.2.0.2", false, 1000),
            Err(Wait::Guesses(1000))
        );
        g.failed("alice", 1000);
        assert_eq!(
            g.admit("alice", "10.2.0.2", false, 2000),
            Err(Wait::Guesses(1000))
        );
        assert_eq!(delay(ACCOUNT_FAILURES + 30), MAX_DELAY_MS);
        // The owner's address, or a browser with a session, is never slowed.
        assert_eq!(g.admit("alice", "10.0.0.1", false, 1001), Ok(()));
        assert_eq!(g.admit("alice", "10.9.9.9", true, 1001), Ok(()));
        // After the window the count starts again.
        assert_eq!(
            g.admit("alice", "10.2.0.3", false, FAILURE_WINDOW_MS + 1),
            Ok(())
        );
    }

    #[test]
    fn successful_log_ins_are_limited_per_address() {
        let g = LoginGuard::default();
        for _ in 0..LOGINS_PER_ADDRESS {
            assert_eq!(g.admit("bob", "10.0.0.1", false, 5), Ok(()));
            g.succeeded("bob", "10.0.0.1", 5);
        }
        assert_eq!(
            g.admit("bob", "10.0.0.1", false, 5),
            Err(Wait::Logins(LOGIN_WINDOW_MS))
        );
        assert_eq!(g.admit("bob", "10.0.0.2", false, 5), Ok(()));
        assert_eq!(
            g.admit("bob", "10.0.0.1", false, LOGIN_WINDOW_MS + 5),
            Ok(())
        );
    }
}
