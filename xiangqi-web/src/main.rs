//! `xiangqi-web`: the web board and the JSON/HTTP engine service (`--help` for the flags).

use clap::Parser;
use tracing_subscriber::EnvFilter;
use xiangqi_web::Config;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .init();
    let config = Config::parse();
    let listener = match tokio::net::TcpListener::bind(config.listen).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("xiangqi-web: cannot listen on {}: {e}", config.listen);
            return std::process::ExitCode::FAILURE;
        }
    };
    let addr = listener.local_addr().map_or(config.listen, |a| a);
    let url = format!("http://{addr}/");
    println!(
        "xiangqi-web: open {url}  (API under {url}api/v1/, {} engines)",
        config.pool_size()
    );
    match config.egtb_folder() {
        Some(dir) => println!("xiangqi-web: endgame tables in {}", dir.display()),
        None => println!("xiangqi-web: no endgame tables (--no-egtb)"),
    }
    if config.open {
        open_browser(&url);
    }
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    tokio::select! {
        r = xiangqi_web::serve(listener, config) => {
            if let Err(e) = r {
                eprintln!("xiangqi-web: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        () = shutdown => {}
    }
    std::process::ExitCode::SUCCESS
}

/// Opens `url` in the default browser (xdg-open, open, or start).
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", url])
    } else {
        ("xdg-open", vec![url])
    };
    if let Err(e) = std::process::Command::new(program).args(&args).spawn() {
        eprintln!("xiangqi-web: cannot open a browser ({program}: {e}); open {url} yourself");
    }
}
