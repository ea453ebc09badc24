//! The engine's clock. Natively `std::time::Instant` itself (the same type, so nothing
//! changes there); on wasm32, where `std::time::Instant::now` panics, an instant read from
//! the host: the page's (or node's) `performance.now()`, which the wasm module imports as
//! `env.cohort_now_ms` (crates/wasm, web/static/wasm/cohort.js).

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use host::Instant;

#[cfg(target_arch = "wasm32")]
mod host {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    extern "C" {
        /// Milliseconds, monotonic (`performance.now()`), given by the host.
        fn cohort_now_ms() -> f64;
    }

    fn now() -> f64 {
        // SAFETY: an imported function taking nothing and returning a number.
        unsafe { cohort_now_ms() }
    }

    /// A moment, in the host's milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            Instant(now())
        }
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
