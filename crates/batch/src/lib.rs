//! demon-batch: win statistics over many deals.
//!
//! [`seeds`] says which deals a run solves (a range, optionally a shard of
//! it), [`run`] solves them in parallel, [`report`] writes the CSV report
//! so that an interrupted run loses nothing it finished and can be resumed,
//! and [`stats`] turns rows into win rates with confidence intervals and
//! compares rule variants deal by deal.

pub mod report;
pub mod row;
pub mod run;
pub mod seeds;
pub mod stats;

pub use report::{apply_retry, merge, ReportError, Retried, Sink};
pub use row::{Columns, Job, Numbering, Row, Verdict, HEADER, PYSOLFC_DEALS};
pub use seeds::{SeedRange, SeedsError, Shard};
pub use stats::{mcnemar, wilson, Paired, Summary};
