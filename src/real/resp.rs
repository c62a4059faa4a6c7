//! Redis's wire protocol (RESP2 and RESP3) as far as a proxy needs it: where one command or one reply ends,
//! and a command's arguments. Pure: no I/O.

/// The end (exclusive) of the one complete RESP value that starts at `from` in `buf`: `Ok(None)` if more
/// bytes are needed, `Err` if the bytes are not RESP. A line that starts with no RESP type byte is an inline
/// command (`PING\r\n`), which ends with its line.
pub fn frame(buf: &[u8], from: usize) -> Result<Option<usize>, String> {
    let Some(rest) = buf.get(from..) else { return Ok(None) };
    let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") else { return Ok(None) };
    let head = &rest[1..eol.max(1)];
    let next = from + eol + 2;
    let number = || -> Result<i64, String> {
        std::str::from_utf8(head)
            .ok()
            .and_then(|s| s.parse::<i64>().ok())
            .ok_or_else(|| format!("not a RESP length: {:?}", String::from_utf8_lossy(head)))
    };
    match rest.first() {
        None => Ok(None),
        Some(b'+' | b'-' | b':' | b'_' | b',' | b'#' | b'(') => Ok(Some(next)),
        Some(b'$' | b'!' | b'=') => {
            let n = number()?;
            if n < 0 {
                return Ok(Some(next));
            }
            let end = next + usize::try_from(n).map_err(|e| e.to_string())? + 2;
            Ok((end <= buf.len()).then_some(end))
        }
        Some(&t @ (b'*' | b'~' | b'>' | b'%' | b'|')) => {
            let n = number()?;
            if n < 0 {
                return Ok(Some(next));
            }
            let n = usize::try_from(n).map_err(|e| e.to_string())?;
            // A map or an attribute holds pairs; an attribute is followed by the value it describes.
            let count = if matches!(t, b'%' | b'|') { 2 * n } else { n } + usize::from(t == b'|');
            let mut at = next;
            for _ in 0..count {
                match frame(buf, at)? {
                    Some(end) => at = end,
                    None => return Ok(None),
                }
            }
            Ok(Some(at))
        }
        Some(_) => Ok(Some(next)),
    }
}

/// A command's arguments (its name first), from one complete frame: an array of bulk strings, or an inline
/// command split at spaces.
pub fn args(frame: &[u8]) -> Vec<Vec<u8>> {
    if frame.first() != Some(&b'*') {
        let line = frame.strip_suffix(b"\r\n").unwrap_or(frame);
        return line.split(|b| *b == b' ').filter(|w| !w.is_empty()).map(<[u8]>::to_vec).collect();
    }
    let mut out = Vec::new();
    let mut at = match frame.windows(2).position(|w| w == b"\r\n") {
        Some(eol) => eol + 2,
        None => return out,
    };
    while frame.get(at) == Some(&b'$') {
        let Some(eol) = frame[at..].windows(2).position(|w| w == b"\r\n") else { break };
        let n: usize =
            std::str::from_utf8(&frame[at + 1..at + eol]).ok().and_then(|s| s.parse().ok()).unwrap_or(0);
        let start = at + eol + 2;
        let Some(arg) = frame.get(start..start + n) else { break };
        out.push(arg.to_vec());
        at = start + n + 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_end_where_their_value_ends_and_wait_for_more_bytes() {
        let set = b"*3\r\n$3\r\nSET\r\n$8\r\nlock:job\r\n$1\r\nx\r\n";
        assert_eq!(frame(set, 0), Ok(Some(set.len())));
        assert_eq!(frame(&set[..set.len() - 1], 0), Ok(None));
        assert_eq!(args(set), vec![b"SET".to_vec(), b"lock:job".to_vec(), b"x".to_vec()]);
        assert_eq!(frame(b"$-1\r\n", 0), Ok(Some(5)));
        assert_eq!(frame(b"*2\r\n:1\r\n*1\r\n+OK\r\n+PONG\r\n", 0), Ok(Some(17)));
        assert_eq!(frame(b"%1\r\n+a\r\n:1\r\n", 0), Ok(Some(12)));
        assert_eq!(args(b"PING hello\r\n"), vec![b"PING".to_vec(), b"hello".to_vec()]);
        assert!(frame(b"*x\r\n", 0).is_err());
    }
}
