//! The window's host, embedded: a [`HostAsk`] from the window becomes the host's typed
//! `ServeArgs` and runs `bolide-host serve`'s own code on the window's runtime.

use bolide_client::embed::{Door, DoorLocked, Embed, HostAsk, Hosted};
use bolide_host::serve::{self, ServeArgs};
use bolide_table::Words;
use std::sync::Arc;
use tokio::sync::oneshot;

/// Hosts the window's tables on this laptop.
pub struct EmbeddedHost;

impl EmbeddedHost {
    /// The host's settings for `ask`: every other setting as `bolide-host serve` defaults it,
    /// and each checked by the same code as on its command line.
    fn serve_args(ask: HostAsk) -> Result<ServeArgs, String> {
        let mut args = ServeArgs::parse_words(Vec::new()).map_err(|e| e.to_string())?;
        args.game = (!ask.resume).then(|| ask.game.clone());
        args.resume = ask.resume;
        args.table_name = ask.table_name;
        args.bots = ask.bots;
        args.bot_level = ask.level;
        args.data_dir = ask.data_dir;
        // Guests join from any browser: the page built into the host, or one built since
        // (`scripts/build-web.sh`) named by BOLIDE_WEB_PAGE.
        args.web_page = std::env::var_os("BOLIDE_WEB_PAGE").map(std::path::PathBuf::from);
        if let Some(races) = ask.races {
            args.races = races;
        }
        if let (mille_bornes::MilleBornes::NAME, Some(hands)) = (ask.game.as_str(), ask.hands) {
            args.options.push(format!(r#"mode={{"Hands":{{"hands":{hands}}}}}"#));
        }
        if ask.practice {
            args.bind = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
            args.no_mdns = true;
        }
        Ok(args)
    }
}

impl Embed for EmbeddedHost {
    fn host(
        &self,
        ask: HostAsk,
        runtime: &bolide_client::platform::rt::Runtime,
        stop: oneshot::Receiver<()>,
    ) -> oneshot::Receiver<Result<Hosted, String>> {
        let (tx, rx) = oneshot::channel();
        let args = EmbeddedHost::serve_args(ask);
        runtime.handle().spawn(async move {
            let started = match args {
                Ok(args) => serve::start(args).await.map_err(|e| format!("{e:#}")),
                Err(why) => Err(why),
            };
            let hosting = match started {
                Ok(hosting) => hosting,
                Err(why) => {
                    let _ = tx.send(Err(why));
                    return;
                }
            };
            let guard = hosting.server.join_guard();
            let door = Door(Arc::new(move || guard.lock().map(|l| DoorLocked { since: l.since, wrong: l.wrong })));
            let _ = tx.send(Ok(Hosted {
                code: hosting.code.clone(),
                addresses: hosting.addresses.clone(),
                port: hosting.server.local_addr().port(),
                web: hosting.web_addresses(),
                game: hosting.game.to_string(),
                door,
            }));
            if let Some(why) = hosting
                .watch(async {
                    let _ = stop.await;
                })
                .await
            {
                tracing::error!("the hosted room stopped: {why}");
            }
            hosting.stop().await;
        });
        rx
    }
}
