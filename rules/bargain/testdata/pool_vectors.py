#!/usr/bin/env python3
"""Independent implementation of DESIGN.md "RNG stream" and "Bargaining pools"
(seed 002), used to make the pool vectors in this directory.

    python3 pool_vectors.py SEEDHEX MATCHES

prints, for each match m, a line
    m seats=A,B opener=S pool=c0,c1,c2 a=v0,v1,v2 b=w0,w1,w2 count_draws=N b_redraws=K fallback=F
where count_draws is the number of count triples drawn, b_redraws how many
times B was redrawn (0..16) and fallback whether B is "the first compatible
entry of V". Only hashlib and hmac from the standard library are used.
"""
import hashlib
import hmac
import struct
import sys


class Stream:
    def __init__(self, seed, label):
        self.seed, self.label, self.k, self.buf = seed, label.encode(), 0, b""

    def uint32(self):
        if not self.buf:
            msg = self.label + b"\x00" + struct.pack(">Q", self.k)
            self.buf = hmac.new(self.seed, msg, hashlib.sha256).digest()
            self.k += 1
        x, self.buf = struct.unpack(">I", self.buf[:4])[0], self.buf[4:]
        return x

    def intn(self, n):
        limit = 2**32 - (2**32 % n)
        while True:
            x = self.uint32()
            if x < limit:
                return x % n

    def range(self, lo, hi):
        return lo + self.intn(hi - lo + 1)


def table(c):
    return [(a, b, d) for a in range(11) for b in range(11) for d in range(11)
            if c[0] * a + c[1] * b + c[2] * d == 10]


def both(a, b):
    return all(a[i] + b[i] > 0 for i in range(3))


def match(seed, m):
    s = Stream(seed, "bargaining/match/%d" % m)
    pool, draws = None, 0
    for _ in range(32):
        c = (s.range(1, 4), s.range(1, 4), s.range(1, 4))
        draws += 1
        if 5 <= sum(c) <= 7:
            pool = c
            break
    if pool is None:
        pool = (3, 2, 2)
    v = table(pool)
    a = v[s.intn(len(v))]
    b = v[s.intn(len(v))]
    redraws = 0
    while redraws < 16 and not both(a, b):
        b = v[s.intn(len(v))]
        redraws += 1
    fallback = False
    if not both(a, b):
        b = next(x for x in v if both(a, x))
        fallback = True
    seats = [(0, 1), (0, 2), (1, 2)][m % 3]
    opener = seats[0] if (m // 3) % 2 == 0 else seats[1]
    return seats, opener, pool, a, b, draws, redraws, fallback


def fmt(v):
    return ",".join(str(x) for x in v)


if __name__ == "__main__":
    seed = bytes.fromhex(sys.argv[1])
    for m in range(int(sys.argv[2])):
        seats, opener, pool, a, b, draws, redraws, fb = match(seed, m)
        print("%d seats=%s opener=%d pool=%s a=%s b=%s count_draws=%d b_redraws=%d fallback=%s"
              % (m, fmt(seats), opener, fmt(pool), fmt(a), fmt(b), draws, redraws, str(fb).lower()))
