//! The mDNS advertisement (`_bolide._udp.local.`): laptops on the Wi-Fi find the host without
//! typing an address. TXT records: room name, seats taken, protocol version.

use bolide_protocol::wire::{MDNS_SERVICE, PROTOCOL_VERSION};
use mdns_sd::{ServiceDaemon, ServiceInfo};

pub struct Advert {
    daemon: ServiceDaemon,
    room: String,
    port: u16,
}

impl Advert {
    /// Starts advertising `room` on `port`, on every interface (or only on loopback, for
    /// tests, so nothing leaves the machine).
    pub fn start(room: &str, port: u16, loopback_only: bool) -> anyhow::Result<Advert> {
        let daemon = ServiceDaemon::new()?;
        if loopback_only {
            daemon.disable_interface(mdns_sd::IfKind::All)?;
            daemon.enable_interface(mdns_sd::IfKind::LoopbackV4)?;
        }
        let advert = Advert { daemon, room: room.to_string(), port };
        advert.update((0, 6))?;
        Ok(advert)
    }

    /// Re-registers with the current seat count (mDNS answers the latest registration).
    pub fn update(&self, (taken, max): (usize, usize)) -> anyhow::Result<()> {
        let host = format!("bolide-{}.local.", self.room.to_ascii_lowercase());
        let seats = format!("{taken}/{max}");
        let version = PROTOCOL_VERSION.to_string();
        let props = [("room", self.room.as_str()), ("seats", seats.as_str()), ("version", version.as_str())];
        let info = ServiceInfo::new(MDNS_SERVICE, &self.room, &host, "", self.port, &props[..])?.enable_addr_auto();
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
    fn the_room_is_advertised_with_its_seats_and_version() {
        // Loopback only: nothing leaves this machine.
        let advert = Advert::start("MDNSTEST", 47_999, true).unwrap();
        advert.update((4, 6)).unwrap();
        let browser = ServiceDaemon::new().unwrap();
        browser.disable_interface(mdns_sd::IfKind::All).unwrap();
        browser.enable_interface(mdns_sd::IfKind::LoopbackV4).unwrap();
        let events = browser.browse(MDNS_SERVICE).unwrap();
        let until = Instant::now() + Duration::from_secs(10);
        let mut found = None;
        while Instant::now() < until && found.is_none() {
            if let Ok(ServiceEvent::ServiceResolved(info)) = events.recv_timeout(Duration::from_millis(200))
                && info.get_property_val_str("room") == Some("MDNSTEST")
            {
                found = Some((info.get_port(), info.get_property_val_str("version").map(str::to_string)));
            }
        }
        let _ = browser.shutdown();
        advert.stop();
        let (port, version) = found.expect("the advertisement was seen on loopback");
        assert_eq!(port, 47_999);
        assert_eq!(version, Some(PROTOCOL_VERSION.to_string()));
    }
}
