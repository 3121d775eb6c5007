//! Tasks and time wherever the client runs: tokio's runtime and timers on a laptop, the
//! browser's event loop and `setTimeout` in a page. The client core and its faces spawn, sleep
//! and time out through this module alone, and read [`Instant`] (the browser's
//! `performance.now()` in a page, where `std`'s panics) and [`since_epoch`].

use std::future::Future;
use std::time::Duration;
pub use web_time::Instant;

/// The wall clock: time since the Unix epoch (`Date.now()` in a page, where `std`'s
/// `SystemTime` panics); zero on a clock set before 1970. For dates shown and variety only,
/// never to time a reaction.
pub fn since_epoch() -> Duration {
    web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).unwrap_or_default()
}

/// `Send` where tasks may move between threads (a laptop's runtime); nothing in a page, whose
/// one thread runs every task and whose JavaScript handles are not `Send`.
#[cfg(not(target_arch = "wasm32"))]
pub trait MaybeSend: Send {}
#[cfg(not(target_arch = "wasm32"))]
impl<T: Send> MaybeSend for T {}
#[cfg(target_arch = "wasm32")]
pub trait MaybeSend {}
#[cfg(target_arch = "wasm32")]
impl<T> MaybeSend for T {}

/// A boxed future: `Send` on a laptop, not in a page ([`MaybeSend`]).
#[cfg(not(target_arch = "wasm32"))]
pub type BoxFuture<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + Send + 'a>>;
#[cfg(target_arch = "wasm32")]
pub type BoxFuture<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + 'a>>;

/// Where the window's links run: a tokio runtime's handle on a laptop, the page's event loop
/// in a browser.
#[derive(Clone, Debug)]
pub struct Runtime {
    #[cfg(not(target_arch = "wasm32"))]
    handle: tokio::runtime::Handle,
}

impl Runtime {
    /// The runtime `handle` names.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new(handle: tokio::runtime::Handle) -> Runtime {
        Runtime { handle }
    }

    /// The tokio runtime this runs in.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn handle(&self) -> &tokio::runtime::Handle {
        &self.handle
    }

    /// The page's event loop.
    #[cfg(target_arch = "wasm32")]
    pub fn page() -> Runtime {
        Runtime {}
    }

    /// Runs `task` on this runtime, detached; the returned [`Task`] aborts it.
    pub fn spawn(&self, task: impl Future<Output = ()> + MaybeSend + 'static) -> Task {
        let (task, abort) = futures_util::future::abortable(task);
        #[cfg(not(target_arch = "wasm32"))]
        self.handle.spawn(async move {
            let _ = task.await;
        });
        #[cfg(target_arch = "wasm32")]
        wasm_bindgen_futures::spawn_local(async move {
            let _ = task.await;
        });
        Task(abort)
    }
}

/// A task spawned by a task, on the runtime it runs on.
pub fn spawn(task: impl Future<Output = ()> + MaybeSend + 'static) -> Task {
    #[cfg(not(target_arch = "wasm32"))]
    let runtime = Runtime::new(tokio::runtime::Handle::current());
    #[cfg(target_arch = "wasm32")]
    let runtime = Runtime::page();
    runtime.spawn(task)
}

/// A spawned task: [`Task::abort`] stops it at its next await. Dropping it lets it run on.
#[derive(Debug, Clone)]
pub struct Task(futures_util::future::AbortHandle);

impl Task {
    pub fn abort(&self) {
        self.0.abort();
    }
}

/// Sleeps for `duration`.
pub async fn sleep(duration: Duration) {
    #[cfg(not(target_arch = "wasm32"))]
    tokio::time::sleep(duration).await;
    #[cfg(target_arch = "wasm32")]
    web::sleep(duration).await;
}

/// Sleeps until `at` (at once when it has passed).
pub async fn sleep_until(at: Instant) {
    #[cfg(not(target_arch = "wasm32"))]
    tokio::time::sleep_until(at.into()).await;
    #[cfg(target_arch = "wasm32")]
    web::sleep(at.saturating_duration_since(Instant::now())).await;
}

/// A deadline passed before the future finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Elapsed;

impl std::fmt::Display for Elapsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("deadline has elapsed")
    }
}

/// `future`, unless `duration` passes first.
pub async fn timeout<F: Future>(duration: Duration, future: F) -> Result<F::Output, Elapsed> {
    #[cfg(not(target_arch = "wasm32"))]
    return tokio::time::timeout(duration, future).await.map_err(|_| Elapsed);
    #[cfg(target_arch = "wasm32")]
    {
        use futures_util::future::{Either, select};
        let sleeping = std::pin::pin!(sleep(duration));
        let future = std::pin::pin!(future);
        match select(future, sleeping).await {
            Either::Left((out, _)) => Ok(out),
            Either::Right(_) => Err(Elapsed),
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod web {
    use std::time::Duration;
    use wasm_bindgen::JsCast;

    /// The browser's `setTimeout`, awaited: whole milliseconds, rounded up (a beat due in
    /// 300 µs waits 1 ms, never 0 in a loop).
    pub(super) async fn sleep(duration: Duration) {
        let ms = i32::try_from(duration.as_micros().div_ceil(1000)).unwrap_or(i32::MAX);
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            let global = js_sys::global();
            let set = js_sys::Reflect::get(&global, &"setTimeout".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
            if let Some(set) = set {
                let _ = set.call2(&global, &resolve, &ms.into());
            }
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
}
