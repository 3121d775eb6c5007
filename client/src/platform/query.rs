//! What a page's address asks for after `?` (never the code word, which travels in the
//! fragment): `log=a,b` (the tracing targets its console shows, [`crate::platform::console`])
//! and bare flags such as `field` (a fairness field run's pilot). Bounded: what a link could
//! carry is cut, never trusted.

/// The targets `log=` names: at most 8, each at most 64 characters of `[A-Za-z0-9_:]`.
pub fn log_targets(query: &str) -> Vec<String> {
    pairs(query)
        .filter_map(|pair| pair.strip_prefix("log="))
        .flat_map(|list| list.split(','))
        .filter(|t| {
            !t.is_empty() && t.len() <= 64 && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        })
        .take(8)
        .map(str::to_string)
        .collect()
}

/// Whether the query holds the bare flag `name`.
pub fn flag(query: &str, name: &str) -> bool {
    pairs(query).any(|pair| pair == name)
}

fn pairs(query: &str) -> impl Iterator<Item = &str> {
    query.trim_start_matches('?').split('&').take(32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pages_query_names_log_targets_and_flags_within_bounds() {
        assert_eq!(
            log_targets("?log=bolide::drill,bolide_client::ui::stamp&field"),
            ["bolide::drill", "bolide_client::ui::stamp"]
        );
        assert!(flag("?log=bolide::field&field", "field"));
        assert!(!flag("?fields", "field") && !flag("", "field"));
        assert!(log_targets("?log=a b,<script>,,ok").eq(&["ok"]));
        let many = format!("?log={}", vec!["t"; 20].join(","));
        assert_eq!(log_targets(&many).len(), 8);
        assert!(log_targets(&format!("?log={}", "x".repeat(65))).is_empty());
    }
}
