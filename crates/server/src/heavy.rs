//! Work too heavy for the request threads (replaying a record of hundreds of KiB, loading a
//! stored game for a list): run on the blocking pool, at most `Config::max_heavy` at once,
//! so that however many arrive together the async workers stay free for every other
//! request. A request that waits longer than [`HEAVY_WAIT`] for its turn is answered 503.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::error::{ApiError, Code};

/// How long a request waits for its turn at the heavy work before it is answered 503.
pub const HEAVY_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

pub struct Heavy {
    permits: tokio::sync::Semaphore,
    running: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
}

impl Heavy {
    pub fn new(at_once: usize) -> Heavy {
        Heavy {
            permits: tokio::sync::Semaphore::new(at_once.max(1)),
            running: Default::default(),
            peak: Default::default(),
        }
    }

    /// The most that ran at once since the server started.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    /// Run `f` on the blocking pool when its turn comes.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = match tokio::time::timeout(HEAVY_WAIT, self.permits.acquire()).await {
            Ok(Ok(p)) => p,
            _ => {
                return Err(ApiError::new(
                    Code::Busy,
                    "the server is busy with other large requests; try again in a moment",
                ))
            }
        };
        let (running, peak) = (self.running.clone(), self.peak.clone());
        tokio::task::spawn_blocking(move || {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            let out = f();
            running.fetch_sub(1, Ordering::SeqCst);
            out
        })
        .await
        .map_err(|e| ApiError::internal(format!("the work failed: {e}")))
    }
}
