//! Database URLs as an operator writes them (docs/deploy.md, "PostgreSQL"): a password may
//! hold characters that a URL reserves (`p@ss/w:rd#1`), and neither connecting nor the
//! printed, masked URL may then go wrong. The user information is everything between the
//! scheme and the LAST `@` (a host never holds one), so a raw `@`, `/`, `:` or `#` in the
//! password is still the password's.

/// The URL split where its password is: `(before, password, after)`, or None when it has no
/// `user:password@` part.
fn split_password(url: &str) -> Option<(&str, &str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let at = rest.rfind('@')?;
    let userinfo = &rest[..at];
    let colon = userinfo.find(':')?;
    let start = scheme.len() + 3;
    Some((
        &url[..start + colon + 1],
        &userinfo[colon + 1..],
        &url[start + at..],
    ))
}

/// A database URL as it may be printed: its password, if any, replaced by `***`
/// (`postgres://user:***@host/db`), whatever characters the password holds.
pub fn mask_password(url: &str) -> String {
    match split_password(url) {
        Some((before, _, after)) => format!("{before}***{after}"),
        None => url.to_string(),
    }
}

/// True for the characters a URL's user information may hold as they are (RFC 3986
/// "unreserved" and the sub-delimiters that connection strings never split on).
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=".contains(c)
}

/// The URL to connect with: a PostgreSQL password's reserved characters percent-encoded
/// (an escape already written, `%40`, is kept as it is). Other URLs are returned unchanged.
pub fn connectable(url: &str) -> String {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return url.to_string();
    }
    let Some((before, password, after)) = split_password(url) else {
        return url.to_string();
    };
    let bytes = password.as_bytes();
    let mut encoded = String::with_capacity(password.len());
    for (i, c) in password.char_indices() {
        let escape = c == '%'
            && bytes.len() >= i + 3
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit();
        if plain(c) || escape {
            encoded.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                encoded.push_str(&format!("%{b:02X}"));
            }
        }
    }
    format!("{before}{encoded}{after}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_with_url_characters_is_masked_whole() {
        let url = "postgres://cohort:p@ss/w:rd#1@127.0.0.1:5432/cohort";
        assert_eq!(
            mask_password(url),
            "postgres://cohort:***@127.0.0.1:5432/cohort"
        );
    }

    #[test]
    fn a_password_with_url_characters_is_encoded_to_connect() {
        assert_eq!(
            connectable("postgres://cohort:p@ss/w:rd#1@127.0.0.1:5432/cohort"),
            "postgres://cohort:p%40ss%2Fw%3Ard%231@127.0.0.1:5432/cohort"
        );
        // Already encoded: kept, so that an operator who followed the URL rules still connects.
        let encoded = "postgres://cohort:p%40ss@db/cohort?sslmode=require";
        assert_eq!(connectable(encoded), encoded);
        // A lone % is the password's own.
        assert_eq!(
            connectable("postgres://u:50%off@h/d"),
            "postgres://u:50%25off@h/d"
        );
        assert_eq!(connectable("sqlite://cohort.db"), "sqlite://cohort.db");
        assert_eq!(connectable("postgres://u@h/d"), "postgres://u@h/d");
    }
}
