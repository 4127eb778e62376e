#!/usr/bin/env python3
"""Independent expected values for ledger/leaf_test.go.

Writes one vector file per entry (age style: "key: value" headers, a blank
line, then the expected leaf bytes) and tree.txt with the RFC 6962 root of
the leaves in order. Canonical JSON here is json.dumps with sorted keys and
no spaces (equal to RFC 8785 for these bodies: ASCII keys, and numbers
written the way RFC 8785 section 3.2.2.3 writes them, fixed by hand below).
Run: cd ledger/testdata/leaves && python3 gen.py
"""
import base64, hashlib, json

CLOCK = "2025-03-03T09:15:00.123456789Z"  # the test's fixed clock

vectors = [
    ("commit",
     '{"channel":"#auctions","kind":"commit","player":"Zo\\u00eb",'
     ' "commitment":"SHA256:B94D27B9934D3E08A52E52D7DA7DABFAC484EFE37A5380EE9088F7ACE2EFCDE9",'
     ' "action_type":"bid","posted_at":"2025-03-03T10:14:59+01:00"}',
     {"kind": "commit", "player": "Zo\u00eb", "action_type": "bid", "channel": "#auctions",
      "commitment": "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
      "posted_at": "2025-03-03T09:14:59.000000000Z"}),
    ("reveal",
     '{"kind":"reveal","commit":0,"player":"Zo\\u00eb","text":"bid 5 <lot&1>\\nsalt: x\\u2028"}',
     {"kind": "reveal", "commit": 0, "player": "Zo\u00eb", "text": "bid 5 <lot&1>\nsalt: x\u2028"}),
    ("seed-commit",
     '{"kind":"seed-commit","game":"auction","match_id":"m-1","rules_version":"auction-0.2",'
     '"config":{"value_max":1e2,"value_min":1,"integrated_at":"not me","ratio":0.5},'
     '"commitment":"0000000000000000000000000000000000000000000000000000000000000001"}',
     None),  # number 1e2 is written 100 (RFC 8785): built by hand below
    ("seed-reveal",
     '{"kind":"seed-reveal","seed_commit":2,"seed":"ABCDEF0123456789abcdef0123456789ABCDEF0123456789abcdef0123456789"}',
     {"kind": "seed-reveal", "seed_commit": 2,
      "seed": "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789"}),
    ("result",
     '{"kind":"result","game":"bargain","match_id":"m-2","replay_sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","summary":{"points":[3,4]}}',
     {"kind": "result", "game": "bargain", "match_id": "m-2",
      "replay_sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "summary": {"points": [3, 4]}}),
]

def canon(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

def leaf_hash(b):
    return hashlib.sha256(b"\x00" + b).digest()

def node(l, r):
    return hashlib.sha256(b"\x01" + l + r).digest()

def mth(leaves):  # RFC 6962 section 2.1
    if len(leaves) == 1:
        return leaf_hash(leaves[0])
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return node(mth(leaves[:k]), mth(leaves[k:]))

leaves = []
for i, (name, inp, obj) in enumerate(vectors):
    if obj is None:
        leaf = (b'{"commitment":"0000000000000000000000000000000000000000000000000000000000000001",'
                b'"config":{"integrated_at":"not me","ratio":0.5,"value_max":100,"value_min":1},'
                b'"game":"auction","integrated_at":"' + CLOCK.encode() + b'","kind":"seed-commit",'
                b'"match_id":"m-1","rules_version":"auction-0.2"}')
    else:
        obj = dict(obj, integrated_at=CLOCK)
        leaf = canon(obj)
    leaves.append(leaf)
    # The duplicate key (docs/ledger.md "Duplicates").
    if name == "commit":
        o = vectors[0][2]
        dedup = hashlib.sha256("".join(x + "\0" for x in ["commit", o["player"], o["action_type"], o["commitment"]]).encode()).hexdigest()
    else:
        dedup = hashlib.sha256(leaf.replace(b'"integrated_at":"' + CLOCK.encode() + b'",', b"")).hexdigest()
    with open(f"{i}-{name}.txt", "wb") as f:
        f.write(f"input: {inp}\nclock: {CLOCK}\nindex: {i}\nleaf-hash: {leaf_hash(leaf).hex()}\ndedup-sha256: {dedup}\n\n".encode())
        f.write(leaf)

with open("tree.txt", "w") as f:
    f.write("# RFC 6962 roots of the first n leaves above (python3 gen.py)\n")
    for n in range(1, len(leaves) + 1):
        f.write(f"root-{n}: {base64.b64encode(mth(leaves[:n])).decode()}\n")
