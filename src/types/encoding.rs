//! The byte-level building blocks of the order-preserving encodings: escaped strings,
//! ordered lengths, inversion and the empty/non-empty tag. Every encoding built from them is
//! prefix-free, so it can be followed by more key and can be inverted for ReversedType
//! (`docs/types.md#encodings`).

/// Tag of an empty value: below every non-empty value.
pub(super) const EMPTY: u8 = 0x00;
/// Tag of a non-empty fixed-width value.
pub(super) const PRESENT: u8 = 0x01;

/// Writes `v` escaped: `00` becomes `00 FF` and `00 00` ends it, which keeps unsigned order
/// and makes the string prefix-free (the end sorts below every continuation).
pub(super) fn put_escaped(v: &[u8], out: &mut Vec<u8>) {
    for &b in v {
        out.push(b);
        if b == 0 {
            out.push(0xFF);
        }
    }
    out.extend_from_slice(&[0, 0]);
}

/// Reads an escaped string written by [`put_escaped`].
pub(super) fn take_escaped(input: &mut &[u8]) -> Result<Vec<u8>, String> {
    let mut v = Vec::new();
    let mut i = 0;
    loop {
        match (input.get(i), input.get(i + 1)) {
            (Some(0), Some(0)) => {
                *input = &input[i + 2..];
                return Ok(v);
            }
            (Some(0), Some(0xFF)) => {
                v.push(0);
                i += 2;
            }
            (Some(0), Some(b)) => return Err(format!("bad escape 00 {b:02x} in a name")),
            (Some(&b), _) if b != 0 => {
                v.push(b);
                i += 1;
            }
            _ => return Err("unterminated escaped name".into()),
        }
    }
}

/// Bitwise NOT in place: reverses the order of prefix-free encodings.
pub(super) fn invert(bytes: &mut [u8]) {
    for b in bytes {
        *b = !*b;
    }
}

/// Writes a length so that a longer length sorts after a shorter one: the number of bytes,
/// then the length big-endian in that many bytes.
pub(super) fn put_len(n: u64, out: &mut Vec<u8>) {
    let bytes = n.to_be_bytes();
    let skip = (n.leading_zeros() / 8) as usize;
    out.push((8 - skip) as u8);
    out.extend_from_slice(&bytes[skip..]);
}

/// Reads a length written by [`put_len`]; `invert` for one written inverted.
pub(super) fn take_len(input: &mut &[u8], invert: bool) -> Result<u64, String> {
    let flip = |b: u8| if invert { !b } else { b };
    let k = usize::from(flip(take_byte(input)?));
    if k > 8 {
        return Err(format!("length of {k} bytes"));
    }
    let mut n = 0u64;
    for &b in take(input, k)? {
        n = (n << 8) | u64::from(flip(b));
    }
    Ok(n)
}

/// Takes one byte from the front of `input`.
pub(super) fn take_byte(input: &mut &[u8]) -> Result<u8, String> {
    let (&b, rest) = input.split_first().ok_or("name ends early")?;
    *input = rest;
    Ok(b)
}

/// Takes `n` bytes from the front of `input`, checking first that they are there.
pub(super) fn take<'a>(input: &mut &'a [u8], n: usize) -> Result<&'a [u8], String> {
    if input.len() < n {
        return Err(format!(
            "name ends early: {n} bytes wanted, {} left",
            input.len()
        ));
    }
    let (head, rest) = input.split_at(n);
    *input = rest;
    Ok(head)
}

/// Takes a fixed-width array from the front of `input`.
pub(super) fn take_array<const N: usize>(input: &mut &[u8]) -> Result<[u8; N], String> {
    let mut a = [0u8; N];
    a.copy_from_slice(take(input, N)?);
    Ok(a)
}
