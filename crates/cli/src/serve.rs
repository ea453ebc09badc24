//! `cohort serve` and `cohort check-games`: thin wrappers over the server library.

use std::net::{IpAddr, SocketAddr};

use cohort_server::live::LiveGame;
use cohort_server::store::Store;

use crate::Fail;

fn runtime() -> Result<tokio::runtime::Runtime, Fail> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Fail(format!("cannot start the server runtime: {e}")))
}

fn check_url(database: &str) -> Result<(), Fail> {
    if ["sqlite:", "postgres://", "postgresql://"]
        .iter()
        .any(|p| database.starts_with(p))
    {
        Ok(())
    } else {
        Err(Fail(format!(
            "--database '{database}': expected sqlite://<file> or postgres://user:password@host/db"
        )))
    }
}

pub fn serve(host: &str, port: u16, database: &str) -> Result<(), Fail> {
    check_url(database)?;
    let ip: IpAddr = host
        .parse()
        .map_err(|_| Fail(format!("--host '{host}': not an IP address")))?;
    runtime()?
        .block_on(cohort_server::serve(SocketAddr::new(ip, port), database))
        .map_err(|e| Fail(e.0))
}

/// Replay every stored game; print one line per game that fails and a summary line.
pub fn check_games(database: &str) -> Result<(), Fail> {
    check_url(database)?;
    runtime()?.block_on(async {
        let store = Store::open(database)
            .await
            .map_err(|e| Fail(format!("database {database}: {e}")))?;
        let ids = store
            .game_ids(false, i64::MAX)
            .await
            .map_err(|e| Fail(format!("reading games: {e}")))?;
        let (mut good, mut bad, mut steps) = (0, 0, 0);
        for id in &ids {
            let checked = match store.game(id).await {
                Ok(Some((row, list))) => {
                    steps += list.len();
                    LiveGame::replay(row, &list).map(|_| ())
                }
                Ok(None) => Err("vanished while checking".into()),
                Err(e) => Err(e.to_string()),
            };
            match checked {
                Ok(()) => good += 1,
                Err(e) => {
                    bad += 1;
                    println!("game {id}: {e}");
                }
            }
        }
        store.close().await;
        println!(
            "games: {} replayed legally: {good} failed: {bad} steps: {steps}",
            ids.len()
        );
        if bad > 0 {
            Err(Fail(format!("{bad} stored games do not replay legally")))
        } else {
            Ok(())
        }
    })
}
