//! What the CLI end-to-end tests share: running the `koma` binary on some standard input.

use std::io::Write;
use std::process::{Command, Stdio};

/// What a run of `koma` gave back.
pub struct Run {
    /// The exit code (-1 if a signal ended the process).
    pub code: i32,
    /// Standard output, as text.
    pub out: String,
    /// Standard error, as text.
    pub err: String,
}

/// Runs the `koma` binary with `args` and `stdin` as its standard input, to its end.
pub fn koma(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}
