#!/usr/bin/env python3
"""Reproduce demon's native deals in plain Python, independently of Rust.

demon's native seed N shuffles the unshuffled deck (per copy: C, S, H, D;
A..K) with a Fisher-Yates shuffle driven by ChaCha20 (the keystream of
RFC 7539's block function with a 64-bit block counter starting at 0 and a
zero 64-bit stream id, as rand_chacha's ChaCha20Rng produces it). The key is
the 16 bytes b"demon native v1\\0", then N as 8 little-endian bytes, then 8
zero bytes. Uniform draws in 0..n reject 32-bit words >= (2^32-1)//n*n.

Usage: python3 scripts/native_deal.py DECKS SEED   (prints the dealing order)
The golden test crates/core/tests/golden.rs pins a line this script printed.
"""
import struct
import sys

MASK = 0xFFFFFFFF


def _rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK; s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK; s[b] = _rotl(s[b] ^ s[c], 7)


def chacha20_words(key):
    k = struct.unpack("<8I", key)
    counter = 0
    while True:
        init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574, *k,
                counter & MASK, counter >> 32, 0, 0]
        s = list(init)
        for _ in range(10):
            _quarter(s, 0, 4, 8, 12); _quarter(s, 1, 5, 9, 13)
            _quarter(s, 2, 6, 10, 14); _quarter(s, 3, 7, 11, 15)
            _quarter(s, 0, 5, 10, 15); _quarter(s, 1, 6, 11, 12)
            _quarter(s, 2, 7, 8, 13); _quarter(s, 3, 4, 9, 14)
        for i in range(16):
            yield (s[i] + init[i]) & MASK
        counter += 1


def native_order(seed, decks):
    key = b"demon native v1\0" + struct.pack("<Q", seed) + bytes(8)
    words = chacha20_words(key)
    cards = [rank + suit for _ in range(decks) for suit in "CSHD" for rank in "A23456789TJQK"]
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = (MASK // n) * n
        while True:
            x = next(words)
            if x < limit:
                break
        j = x % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


if __name__ == "__main__":
    decks, seed = int(sys.argv[1]), int(sys.argv[2])
    print(" ".join(native_order(seed, decks)))
