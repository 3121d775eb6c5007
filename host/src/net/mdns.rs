//! The mDNS advertisement (`_bolide._udp.local.`): laptops on the Wi-Fi find the host without
//! typing an address. TXT records: `room` (the table's name, for people), `fp` (the
//! certificate fingerprint of the room code — an advert proves nothing, so a laptop joining
//! from the list still types the code from the host's screen), `seats`
//! taken, protocol `version`, the `game` it plays. Never the code word: it is what lets someone in, and the air is
//! shared with strangers.

use super::TableNews;
use bolide_table::wire::{MDNS_SERVICE, PROTOCOL_VERSION};
use mdns_sd::{ServiceDaemon, ServiceInfo};

pub struct Advert {
    daemon: ServiceDaemon,
    room: String,
    fingerprint: String,
    port: u16,
}

impl Advert {
    /// Starts advertising the table `room` (a name for people) playing `game` with its
    /// certificate `fingerprint` on `port`, on every interface (or only on loopback, for tests, so nothing
    /// leaves the machine).
    pub fn start(
        room: &str,
        fingerprint: &str,
        port: u16,
        game: &'static str,
        loopback_only: bool,
    ) -> anyhow::Result<Advert> {
        let daemon = ServiceDaemon::new()?;
        if loopback_only {
            daemon.disable_interface(mdns_sd::IfKind::All)?;
            daemon.enable_interface(mdns_sd::IfKind::LoopbackV4)?;
        }
        let room = bolide_table::wire::clean_name(room);
        let advert = Advert { daemon, room, fingerprint: fingerprint.to_string(), port };
        advert.update(TableNews { taken: 0, max: 0, game })?;
        Ok(advert)
    }

    /// Re-registers with the current seat count and game — the lobby's first pilot may switch
    /// it (mDNS answers the latest registration).
    pub fn update(&self, TableNews { taken, max, game }: TableNews) -> anyhow::Result<()> {
        // The instance and host names must be unique on the network and DNS-safe: the
        // fingerprint is both; the table's name travels in TXT.
        let instance = format!("bolide-{}", self.fingerprint.to_ascii_lowercase());
        let host = format!("{instance}.local.");
        let seats = format!("{taken}/{max}");
        let version = PROTOCOL_VERSION.to_string();
        let props = [
            ("room", self.room.as_str()),
            ("fp", self.fingerprint.as_str()),
            ("seats", seats.as_str()),
            ("version", version.as_str()),
            ("game", game),
        ];
        let info = ServiceInfo::new(MDNS_SERVICE, &instance, &host, "", self.port, &props[..])?.enable_addr_auto();
        self.daemon.register(info)?;
        Ok(())
    }

    pub fn stop(self) {
        let _ = self.daemon.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mdns_sd::ServiceEvent;
    use std::time::{Duration, Instant};

    #[test]
    fn the_room_is_advertised_with_its_fingerprint_seats_and_version_but_not_its_code() {
        // Loopback only: nothing leaves this machine.
        // Opened for Bolide, then its lobby switched to 1000 Bornes: the advert follows.
        let advert = Advert::start("MDNSTEST", "7F3K0Q9M2XWBHC4T", 47_999, "bolide", true).unwrap();
        advert.update(TableNews { taken: 4, max: 8, game: "mille-bornes" }).unwrap();
        let browser = ServiceDaemon::new().unwrap();
        browser.disable_interface(mdns_sd::IfKind::All).unwrap();
        browser.enable_interface(mdns_sd::IfKind::LoopbackV4).unwrap();
        let events = browser.browse(MDNS_SERVICE).unwrap();
        let until = Instant::now() + Duration::from_secs(10);
        let mut found = None;
        while Instant::now() < until && found.is_none() {
            if let Ok(ServiceEvent::ServiceResolved(info)) = events.recv_timeout(Duration::from_millis(200))
                && info.get_property_val_str("room") == Some("MDNSTEST")
                && info.get_property_val_str("seats") == Some("4/8")
            {
                let txt = |k: &str| info.get_property_val_str(k).map(str::to_string);
                let keys: Vec<String> = info.get_properties().iter().map(|p| p.key().to_string()).collect();
                found = Some((info.get_port(), txt("version"), txt("fp"), txt("game"), keys));
            }
        }
        let _ = browser.shutdown();
        advert.stop();
        let (port, version, fp, game, mut keys) = found.expect("the advertisement with 4/8 seats was seen on loopback");
        assert_eq!(port, 47_999);
        assert_eq!(version, Some(PROTOCOL_VERSION.to_string()));
        assert_eq!(fp.as_deref(), Some("7F3K0Q9M2XWBHC4T"));
        assert_eq!(game.as_deref(), Some("mille-bornes"), "the advert says which game the table plays");
        keys.sort();
        assert_eq!(keys, ["fp", "game", "room", "seats", "version"], "nothing else, and no code word");
    }
}
