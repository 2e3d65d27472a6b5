//! A .zip of text files, stored (not compressed).
//!
//! Why not the `zip` crate: even with its default features off it brings a generic
//! `Write + Seek` writer, its own CRC crate (`crc32fast`, whose portable path carries a
//! 16 KiB slice-by-16 table) and date handling, all of which the 450,000-byte gzipped
//! bundle pays for, while a debate's folder is a few hundred kilobytes of text that the
//! download itself may compress anyway. A stored archive is a header per file and a
//! central directory: about a hundred lines, plus a 1 KiB CRC table built at compile time.
//! Any unzip reads it (tested with Python's `zipfile` in `tests/exports.rs`). Measured with
//! every new export reachable from the app, all of them (folder, zip, text, Argdown,
//! import, backup, fork) add 12.2 KB gzipped; this writer is a few hundred bytes of that,
//! less than `crc32fast`'s table alone.

/// CRC-32 (IEEE 802.3, as zip uses), byte at a time over a table built at compile time.
const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

pub(super) fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |c, b| {
        CRC_TABLE[((c ^ u32::from(*b)) & 0xff) as usize] ^ (c >> 8)
    })
}

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// 1 Jan 1980, the earliest MS-DOS date: the archive carries no clock reading, so the same
/// debate always zips to the same bytes.
const DOS_DATE: u16 = (1 << 5) | 1;
/// Bit 11: names are UTF-8.
const UTF8_NAMES: u16 = 1 << 11;

/// The fields a local header and its central directory entry share, from "version needed"
/// to the name's length.
fn common(out: &mut Vec<u8>, crc: u32, size: u32, name_len: u16) {
    u16le(out, 20); // version needed: 2.0
    u16le(out, UTF8_NAMES);
    u16le(out, 0); // stored
    u16le(out, 0); // time
    u16le(out, DOS_DATE);
    u32le(out, crc);
    u32le(out, size); // compressed
    u32le(out, size); // uncompressed
    u16le(out, name_len);
}

/// Files as `(path, text)`; paths use `/`. Entries past zip's 4 GiB or 65,535-entry limits
/// cannot happen for a debate (its log is limited far below), so no Zip64.
pub fn zip(files: &[(String, String)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, text) in files {
        let (name, data) = (name.as_bytes(), text.as_bytes());
        let (crc, size, offset) = (crc32(data), data.len() as u32, out.len() as u32);
        u32le(&mut out, 0x0403_4b50);
        common(&mut out, crc, size, name.len() as u16);
        u16le(&mut out, 0); // extra field length
        out.extend_from_slice(name);
        out.extend_from_slice(data);

        u32le(&mut central, 0x0201_4b50);
        u16le(&mut central, 0x031e); // made by: Unix, 3.0 (so the mode below is read)
        common(&mut central, crc, size, name.len() as u16);
        u16le(&mut central, 0); // extra
        u16le(&mut central, 0); // comment
        u16le(&mut central, 0); // disk
        u16le(&mut central, 0); // internal attributes
        u32le(&mut central, 0o100644 << 16); // a regular file, rw-r--r--
        u32le(&mut central, offset);
        central.extend_from_slice(name);
    }
    let (at, len) = (out.len() as u32, central.len() as u32);
    out.extend_from_slice(&central);
    u32le(&mut out, 0x0605_4b50);
    u16le(&mut out, 0); // this disk
    u16le(&mut out, 0); // disk with the directory
    u16le(&mut out, files.len() as u16);
    u16le(&mut out, files.len() as u16);
    u32le(&mut out, len);
    u32le(&mut out, at);
    u16le(&mut out, 0); // comment
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn crc32_is_zips_crc() {
        // The standard check value of CRC-32/ISO-HDLC.
        assert_eq!(super::crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(super::crc32(b""), 0);
    }
}
