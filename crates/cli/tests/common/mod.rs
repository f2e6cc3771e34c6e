//! Helpers shared by the binary's end-to-end tests (`cli.rs`, `batch.rs`).

use std::process::{Command, Output};

/// Runs the `demon` binary built for these tests.
pub fn demon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_demon"))
        .args(args)
        .output()
        .expect("run demon")
}

/// The binary's output as text (it writes UTF-8).
pub fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

/// The progress lines that `--log-every` writes in `stderr` ("after
/// 0:00:02: …"), each as what follows its time, checked to come in order
/// of time, no two at the same second.
pub fn log_lines(stderr: &str) -> Vec<&str> {
    let mut last = None;
    let mut out = Vec::new();
    for l in stderr.lines() {
        let Some(l) = l.strip_prefix("after ") else {
            continue;
        };
        let (time, rest) = l.split_once(": ").expect("after H:MM:SS: …");
        let secs = time
            .split(':')
            .map(|f| f.parse::<u64>().expect("a time of h:mm:ss"))
            .fold(0, |acc, f| acc * 60 + f);
        assert!(time.len() >= 7 && last < Some(secs), "{stderr}");
        last = Some(secs);
        out.push(rest);
    }
    out
}
