//! `koma serve`: the workbench in the browser (koma-server), until Ctrl-C.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

use crate::CliError;

/// Arguments of `koma serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on. The default is loopback only; any other address makes the
    /// workbench reachable from other machines, which it has no login for.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Directory for the job database (default: the user's data directory, e.g.
    /// ~/.local/share/koma).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Also accept requests that name this host (e.g. the machine's name when serving on
    /// another address); localhost, 127.0.0.1, ::1 and the listening address always work.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
}

/// Runs `koma serve`.
pub fn serve(args: ServeArgs) -> Result<(), CliError> {
    let mut config = koma_server::Config::new(
        args.addr,
        args.data.unwrap_or_else(koma_server::default_data_dir),
    );
    config.extra_hosts = args.allow_host;
    if !args.addr.ip().is_loopback() {
        eprintln!(
            "koma: warning: serving on {} makes the workbench reachable from other machines",
            args.addr
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(koma_server::serve(config, stop_signal()))?;
    Ok(())
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        let term = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term => {}
        }
    }
    #[cfg(not(unix))]
    ctrl_c.await;
}
