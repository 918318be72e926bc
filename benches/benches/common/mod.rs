//! What the criterion benchmarks measure: the benchmark thread's CPU time.
//!
//! The machine these numbers come from is shared (two cores, several builds at once). Wall
//! time counts the slices the scheduler gives to other processes, so a build starting halfway
//! through a run skews one benchmark against the next; the thread's own CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`) does not. Everything measured runs on the benchmark thread —
//! the round trips use a current-thread Tokio runtime — so nothing is left out.

use std::time::Duration;

use cpu_time::ThreadTime;
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput};

/// The benchmark thread's CPU time, in nanoseconds.
pub struct ThreadCpuTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = ThreadTime;
    type Value = Duration;

    fn start(&self) -> ThreadTime {
        ThreadTime::now()
    }

    fn end(&self, start: ThreadTime) -> Duration {
        start.elapsed()
    }

    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_secs_f64() * 1e9
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &Nanoseconds
    }
}

/// Formats CPU time like criterion formats wall time.
struct Nanoseconds;

impl ValueFormatter for Nanoseconds {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if typical < 1e3 {
            (1.0, "ns")
        } else if typical < 1e6 {
            (1e-3, "µs")
        } else if typical < 1e9 {
            (1e-6, "ms")
        } else {
            (1e-9, "s")
        };
        for value in values {
            *value *= factor;
        }
        unit
    }

    fn scale_throughputs(
        &self,
        _typical: f64,
        _: &Throughput,
        _values: &mut [f64],
    ) -> &'static str {
        "ns"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// The configuration every group uses: CPU time, one second of warm-up, three of measurement
/// (command-line flags such as `--measurement-time` still override these).
pub fn config() -> Criterion<ThreadCpuTime> {
    Criterion::default()
        .with_measurement(ThreadCpuTime)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}
