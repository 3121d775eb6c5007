//! Fair grabs (B-4, `shared/design/fairness.md`), sans-I/O: the clock model of each client
//! ([`clock`]) and the arbiter that orders competing requests by reaction ([`arbiter`]), and what a client's
//! own heartbeats prove about its next action ([`vouch`]) and show of its path ([`slack`]); and
//! how verdicts are scored against the truth ([`score`]), for the lab and a field run alike.
//! Time is always passed in as a value, in microseconds of the host's monotonic clock.

pub mod arbiter;
pub mod calls;
pub mod clock;
pub mod score;
pub mod slack;
pub mod vouch;

pub use arbiter::{Allowance, Bounded, LogLine, MomentArbiter, Request, Verdict, bound_claim};
pub use bolide_table::Asked;
pub use calls::{Call, CallOrder};
pub use clock::{ClockModel, MAX_OWD_US, OutstandingProbes, Sample};
pub use slack::Slack;
pub use vouch::Vouched;
