//! The checks every step uses: each compares one field of one operation's typed output with what
//! AWS answers, and a failure prints "FAIL <Operation>.<field>: ..." so a reader knows at once which
//! call and which field differed. Checks do not stop the run (one run reports every difference);
//! a call that fails outright does, since later steps build on it.

use std::fmt::Debug;
use std::time::{Duration, SystemTime};

use aws_sdk_s3tables::config::http::HttpResponse;
use aws_sdk_s3tables::error::{DisplayErrorContext, ProvideErrorMetadata, SdkError};
use aws_sdk_s3tables::primitives::DateTime;
use regex_lite::Regex;

/// How far a timestamp may be from the client's clock: client and server share a machine.
const CLOCK_SLACK: Duration = Duration::from_secs(300);

#[derive(Default)]
pub struct Checker {
    pub failures: usize,
    pub checks: usize,
}

impl Checker {
    pub fn fail(&mut self, op: &str, field: &str, message: String) {
        self.failures += 1;
        println!("FAIL {op}.{field}: {message}");
    }

    fn pass(&mut self) {
        self.checks += 1;
    }

    /// Stops the run when a call that should succeed fails.
    pub fn must<T, E: std::error::Error + 'static>(&mut self, op: &str, result: Result<T, E>) -> T {
        match result {
            Ok(v) => v,
            Err(e) => {
                println!("FAIL {op}: the call failed: {}", DisplayErrorContext(&e));
                println!(
                    "{} checks passed, {} failed before {op}",
                    self.checks,
                    self.failures + 1
                );
                std::process::exit(1);
            }
        }
    }

    /// Any field (string, enum, list, map, structure) against its expected value.
    pub fn eq<T: PartialEq + Debug + ?Sized>(&mut self, op: &str, field: &str, got: &T, want: &T) {
        if got == want {
            self.pass();
        } else {
            self.fail(op, field, format!("got {got:?}, want {want:?}"));
        }
    }

    /// A string AWS returns whose value is known only by its form; returns it.
    pub fn form(&mut self, op: &str, field: &str, got: Option<&str>, pattern: &str) -> String {
        let re = Regex::new(pattern).expect("a valid pattern");
        match got {
            None => self.fail(op, field, format!("missing, want a value matching {pattern}")),
            Some(v) if !re.is_match(v) => self.fail(op, field, format!("got {v:?}, want a value matching {pattern}")),
            Some(_) => self.pass(),
        }
        got.unwrap_or_default().to_string()
    }

    /// A member AWS leaves out in this situation.
    pub fn absent<T: Debug>(&mut self, op: &str, field: &str, got: Option<T>) {
        match got {
            None => self.pass(),
            Some(v) => self.fail(op, field, format!("present ({v:?}), want it left out")),
        }
    }

    /// A timestamp recording something done during this run; returns it.
    pub fn recent(&mut self, op: &str, field: &str, got: Option<&DateTime>, since: SystemTime) -> SystemTime {
        let Some(at) = got.and_then(|t| SystemTime::try_from(*t).ok()) else {
            self.fail(op, field, "missing, want a time during this run".to_string());
            return SystemTime::UNIX_EPOCH;
        };
        if at < since - CLOCK_SLACK || at > SystemTime::now() + CLOCK_SLACK {
            self.fail(op, field, format!("got {at:?}, want a time between {since:?} and now"));
        } else {
            self.pass();
        }
        at
    }

    /// A call that AWS refuses with this modeled error and HTTP status.
    pub fn error_code<T: Debug, E>(
        &mut self,
        op: &str,
        result: Result<T, SdkError<E, HttpResponse>>,
        code: &str,
        status: u16,
    ) where
        E: ProvideErrorMetadata + std::error::Error + 'static,
    {
        match result {
            Ok(v) => self.fail(op, "error", format!("the call succeeded ({v:?}), want {code}")),
            Err(e) => {
                let got_status = e.raw_response().map(|r| r.status().as_u16());
                if e.code() != Some(code) {
                    self.fail(op, "error", format!("got {}, want {code}", DisplayErrorContext(&e)));
                } else if got_status != Some(status) {
                    self.fail(
                        op,
                        "error",
                        format!("{code} came with HTTP {got_status:?}, want {status}"),
                    );
                } else {
                    self.pass();
                }
            }
        }
    }
}
