//! A jar of many tiny classes, written directly (stored entries, a zip64 end record past
//! 65,535 entries): `p<k>/C<i>.class`, each a valid class file extending `Object`. Shared by
//! the tests and the library benchmark (`#[path]`), which needs 200,000 entries without
//! writing 200,000 files first.

use std::io::Write;
use std::path::Path;

/// The bytes of an empty public class `internal` (`p0/C0`) extending `java.lang.Object`.
pub fn tiny_class(internal: &str) -> Vec<u8> {
    let mut b: Vec<u8> = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52];
    b.extend_from_slice(&5u16.to_be_bytes());
    for (tag_index, name) in [(2u16, internal), (4u16, "java/lang/Object")] {
        b.push(7);
        b.extend_from_slice(&tag_index.to_be_bytes());
        b.push(1);
        b.extend_from_slice(&(name.len() as u16).to_be_bytes());
        b.extend_from_slice(name.as_bytes());
    }
    // public super; this #1, super #3; no interfaces, fields, methods or attributes.
    for v in [0x0021u16, 1, 3, 0, 0, 0, 0] {
        b.extend_from_slice(&v.to_be_bytes());
    }
    b
}

/// The internal name of the `i`-th class of a generated jar (1,000 classes a package).
pub fn class_name(i: usize) -> String {
    format!("p{}/C{i}", i / 1000)
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// Writes a jar of `count` classes ([`class_name`]) to `path`.
pub fn write_jar(path: &Path, count: usize) {
    let file = std::fs::File::create(path).expect("creating the jar");
    let mut out = std::io::BufWriter::new(file);
    let mut central: Vec<u8> = Vec::new();
    let mut offset: u64 = 0;
    for i in 0..count {
        let name = format!("{}.class", class_name(i));
        let data = tiny_class(&class_name(i));
        let crc = crc32(&data);
        let mut local: Vec<u8> = Vec::new();
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        for v in [20u16, 0, 0, 0, 0] {
            local.extend_from_slice(&v.to_le_bytes());
        }
        local.extend_from_slice(&crc.to_le_bytes());
        local.extend_from_slice(&(data.len() as u32).to_le_bytes());
        local.extend_from_slice(&(data.len() as u32).to_le_bytes());
        local.extend_from_slice(&(name.len() as u16).to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes());
        local.extend_from_slice(name.as_bytes());
        out.write_all(&local).expect("write");
        out.write_all(&data).expect("write");
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        for v in [20u16, 20, 0, 0, 0, 0] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        central.extend_from_slice(&crc.to_le_bytes());
        central.extend_from_slice(&(data.len() as u32).to_le_bytes());
        central.extend_from_slice(&(data.len() as u32).to_le_bytes());
        central.extend_from_slice(&(name.len() as u16).to_le_bytes());
        for v in [0u16, 0, 0, 0] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        central.extend_from_slice(&0u32.to_le_bytes());
        central.extend_from_slice(&(offset as u32).to_le_bytes());
        central.extend_from_slice(name.as_bytes());
        offset += (local.len() + data.len()) as u64;
    }
    let (cd_off, cd_size, n) = (offset, central.len() as u64, count as u64);
    out.write_all(&central).expect("write");
    // zip64 end record and locator, then the end record pointing at them.
    let zip64_at = cd_off + cd_size;
    let mut end: Vec<u8> = Vec::new();
    end.extend_from_slice(&0x0606_4b50u32.to_le_bytes());
    end.extend_from_slice(&44u64.to_le_bytes());
    end.extend_from_slice(&45u16.to_le_bytes());
    end.extend_from_slice(&45u16.to_le_bytes());
    end.extend_from_slice(&0u32.to_le_bytes());
    end.extend_from_slice(&0u32.to_le_bytes());
    for v in [n, n, cd_size, cd_off] {
        end.extend_from_slice(&v.to_le_bytes());
    }
    end.extend_from_slice(&0x0706_4b50u32.to_le_bytes());
    end.extend_from_slice(&0u32.to_le_bytes());
    end.extend_from_slice(&zip64_at.to_le_bytes());
    end.extend_from_slice(&1u32.to_le_bytes());
    end.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    for v in [0u16, 0, 0xFFFF, 0xFFFF] {
        end.extend_from_slice(&v.to_le_bytes());
    }
    end.extend_from_slice(&(cd_size as u32).to_le_bytes());
    end.extend_from_slice(&(cd_off as u32).to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes());
    out.write_all(&end).expect("write");
    out.flush().expect("flush");
}
