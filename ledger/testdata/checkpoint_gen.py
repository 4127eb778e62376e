#!/usr/bin/env python3
"""Independent signed checkpoint for ledger/checkpoint_test.go.

C2SP tlog-checkpoint body signed as a C2SP signed-note with Ed25519, using
the Python 'cryptography' package (Ed25519 signatures are deterministic, so
the Go code must produce the same bytes from the same key).
Run: cd ledger/testdata && python3 checkpoint_gen.py > checkpoint.txt
"""
import base64, hashlib
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives import serialization

name = "sealed.test/log"
seed = hashlib.sha256(b"sealed ledger test key").digest()
priv = Ed25519PrivateKey.from_private_bytes(seed)
pub = priv.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
keyhash = hashlib.sha256(name.encode() + b"\n" + b"\x01" + pub).digest()[:4]
skey = "PRIVATE+KEY+%s+%s+%s" % (name, keyhash.hex(), base64.b64encode(b"\x01" + seed).decode())
vkey = "%s+%s+%s" % (name, keyhash.hex(), base64.b64encode(b"\x01" + pub).decode())
root = "rPK6fLuC5a2Zw6jBESib/EIOmhJM0KG+gthXANtzye4="  # leaves/tree.txt root-5
body = "%s\n5\n%s\n" % (name, root)
sig = priv.sign(body.encode())
note = body + "\n" + "\u2014 %s %s\n" % (name, base64.b64encode(keyhash + sig).decode())
print("signer-key: " + skey)
print("verifier-key: " + vkey)
print("size: 5")
print("root: " + root)
print()
print(note, end="")
