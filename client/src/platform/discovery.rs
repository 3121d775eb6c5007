//! Hosts on the local network, found by mDNS (`_bolide._udp.local.`): the Join screen lists
//! them — by name and address only: an advert's fingerprint is nobody's proof, so a laptop
//! takes the host's from the code on its screen. A browse runs on mdns-sd's own thread; the list is shared with the window. Tests
//! feed a list by hand ([`Discovery::fixed`]).

#[cfg(not(target_arch = "wasm32"))]
use bolide_table::wire::MDNS_SERVICE;
#[cfg(not(target_arch = "wasm32"))]
use std::net::IpAddr;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// One host as it advertises itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundHost {
    /// The table's name (for people).
    pub name: String,
    pub addr: SocketAddr,
    /// "taken/max".
    pub seats: String,
    pub version: String,
    /// The game the table plays, by its name as advertised (empty: an advert from a host
    /// that played Bolide only, before a table served more than one game).
    pub game: String,
    /// The advert's mDNS instance: an advert updates or removes only its own entry.
    pub instance: String,
}

pub struct Discovery {
    found: Arc<Mutex<Vec<FoundHost>>>,
    #[cfg(not(target_arch = "wasm32"))]
    daemon: Option<mdns_sd::ServiceDaemon>,
}

impl Discovery {
    /// A browser's page cannot listen to the network's adverts: its guests come by the host's
    /// address and QR code.
    #[cfg(target_arch = "wasm32")]
    pub fn browse(_changed: Arc<dyn Fn() + Send + Sync>) -> anyhow::Result<Discovery> {
        anyhow::bail!("a browser cannot list the tables on the network: open the address the host shows")
    }

    /// Starts browsing every interface; calls `changed` when the list changes.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn browse(changed: Arc<dyn Fn() + Send + Sync>) -> anyhow::Result<Discovery> {
        let daemon = mdns_sd::ServiceDaemon::new()?;
        let events = daemon.browse(MDNS_SERVICE)?;
        let found: Arc<Mutex<Vec<FoundHost>>> = Arc::default();
        let list = found.clone();
        std::thread::spawn(move || {
            while let Ok(event) = events.recv() {
                let Ok(mut list) = list.lock() else { return };
                match event {
                    mdns_sd::ServiceEvent::ServiceResolved(info) => {
                        let txt = |k: &str| info.get_property_val_str(k).unwrap_or("").to_string();
                        // IPv4 first: the host lists IPv4 addresses to join.
                        let mut ips: Vec<IpAddr> = info.get_addresses().iter().map(|a| a.to_ip_addr()).collect();
                        ips.sort_by_key(|ip| !ip.is_ipv4());
                        let Some(ip) = ips.first() else { continue };
                        let host = FoundHost {
                            name: bolide_table::wire::clean_name(&txt("room")),
                            addr: SocketAddr::new(*ip, info.get_port()),
                            seats: txt("seats").chars().take(8).collect(),
                            version: txt("version").chars().take(8).collect(),
                            game: txt("game").chars().take(32).collect(),
                            instance: info.get_fullname().chars().take(256).collect(),
                        };
                        // An advert is nobody's proof: it replaces its own earlier entry only,
                        // never another's (a copy of a table's fingerprint and port is a second
                        // entry, and joining it fails the exchange over the code word).
                        list.retain(|h| h.instance != host.instance);
                        // A bounded list: a flood of adverts cannot grow the window's memory.
                        if list.len() < 64 {
                            list.push(host);
                        }
                    }
                    mdns_sd::ServiceEvent::ServiceRemoved(_, fullname) => {
                        list.retain(|h| h.instance != fullname);
                    }
                    _ => continue,
                }
                drop(list);
                changed();
            }
        });
        Ok(Discovery { found, daemon: Some(daemon) })
    }

    /// A fixed list (tests, or a machine with no multicast).
    pub fn fixed(hosts: Vec<FoundHost>) -> Discovery {
        Discovery {
            found: Arc::new(Mutex::new(hosts)),
            #[cfg(not(target_arch = "wasm32"))]
            daemon: None,
        }
    }

    pub fn hosts(&self) -> Vec<FoundHost> {
        self.found.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for Discovery {
    fn drop(&mut self) {
        if let Some(d) = self.daemon.take() {
            let _ = d.shutdown();
        }
    }
}
