package beacon

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cloudflare/circl/sign/bls"
)

// SchemeUnchainedG1 is drand's scheme ID for unchained rounds with G1
// signatures and RFC 9380 hash-to-curve (quicknet), the only scheme
// supported.
const SchemeUnchainedG1 = "bls-unchained-g1-rfc9380"

// SignatureSize is the size of a round's signature in bytes: a compressed
// BLS12-381 G1 point.
const SignatureSize = 48

// Chain describes a drand network: its chain hash, group public key,
// genesis time and period, as its /info endpoint publishes them.
type Chain struct {
	// Name is a short name for people ("quicknet").
	Name string
	// Hash is the chain hash, 64 lowercase hex characters.
	Hash string
	// PublicKey is the group public key, a compressed G2 point (96 bytes).
	PublicKey []byte
	// Genesis is the publication time of round 1, in Unix seconds.
	Genesis int64
	// Period is the time between rounds.
	Period time.Duration
	// Scheme is the drand scheme ID (SchemeUnchainedG1).
	Scheme string

	once sync.Once
	pub  *bls.PublicKey[bls.KeyG2SigG1]
	err  error

	mu       sync.Mutex
	verified map[verifiedKey]bool // CheckRoundOnce's memory
}

// Quicknet is the League of Entropy's quicknet network (chain info from
// its /info endpoint; docs/rng.md "The beacon"): a round every 3 seconds
// since 2023-08-23T15:09:27Z.
var Quicknet = &Chain{
	Name:      "quicknet",
	Hash:      "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
	PublicKey: mustHex("83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"),
	Genesis:   1692803367,
	Period:    3 * time.Second,
	Scheme:    SchemeUnchainedG1,
}

// chains are the networks LookupChain knows, by chain hash.
var chains = map[string]*Chain{Quicknet.Hash: Quicknet}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// LookupChain returns the known network whose chain hash is hash (64 hex
// characters, any case). It returns an error naming the known networks
// when hash is not one of them.
func LookupChain(hash string) (*Chain, error) {
	if c, ok := chains[strings.ToLower(strings.TrimSpace(hash))]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("drand chain %q is not a network sealed knows; expected quicknet (%s)", hash, Quicknet.Hash)
}

// RoundTime is the publication time of round (>= 1): genesis +
// (round-1)*period, the rule of drand's chain/time.go. Round 0 and rounds
// whose time would overflow give the zero time.
func (c *Chain) RoundTime(round uint64) time.Time {
	p := uint64(c.Period / time.Second)
	if round == 0 || p == 0 || round-1 > (1<<62)/p {
		return time.Time{}
	}
	return time.Unix(c.Genesis+int64((round-1)*p), 0).UTC()
}

// RoundAt is the latest round published at or before t, 0 before
// genesis.
func (c *Chain) RoundAt(t time.Time) uint64 {
	d := t.Unix() - c.Genesis
	if d < 0 {
		return 0
	}
	return uint64(d)/uint64(c.Period/time.Second) + 1
}

// Message is what the network signs for round: SHA-256 of round as an
// 8-byte big-endian integer (unchained scheme).
func Message(round uint64) [32]byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], round)
	return sha256.Sum256(b[:])
}

// Randomness is a round's randomness: SHA-256 of its signature.
func Randomness(sig []byte) [32]byte { return sha256.Sum256(sig) }

// SignatureError says a round's signature does not verify.
type SignatureError struct {
	Chain string // chain hash
	Round uint64
	Msg   string
}

// Error says which round of which network failed and why.
func (e *SignatureError) Error() string {
	return fmt.Sprintf("drand round %d of chain %.16s...: %s", e.Round, e.Chain, e.Msg)
}

func (c *Chain) publicKey() (*bls.PublicKey[bls.KeyG2SigG1], error) {
	c.once.Do(func() {
		if c.Scheme != SchemeUnchainedG1 {
			c.err = fmt.Errorf("drand scheme %q is not supported; expected %s", c.Scheme, SchemeUnchainedG1)
			return
		}
		c.pub = new(bls.PublicKey[bls.KeyG2SigG1])
		if err := c.pub.UnmarshalBinary(c.PublicKey); err != nil {
			c.err = fmt.Errorf("drand chain %s: public key: %v", c.Hash, err)
		}
	})
	return c.pub, c.err
}

// CheckRound verifies sig as the network's signature of round (>= 1),
// offline, with the network's public key. It returns nil when it
// verifies, a *SignatureError when it does not (a signature of the wrong
// length, not a point of G1, or not the signature of this round), or an
// error for a network whose scheme or key cannot be used.
func (c *Chain) CheckRound(round uint64, sig []byte) error {
	pub, err := c.publicKey()
	if err != nil {
		return err
	}
	if round == 0 {
		return &SignatureError{Chain: c.Hash, Round: round, Msg: "round 0 does not exist; rounds start at 1"}
	}
	if len(sig) != SignatureSize {
		return &SignatureError{Chain: c.Hash, Round: round, Msg: fmt.Sprintf("the signature is %d bytes; expected %d (a compressed G1 point)", len(sig), SignatureSize)}
	}
	msg := Message(round)
	if !bls.Verify(pub, msg[:], sig) {
		return &SignatureError{Chain: c.Hash, Round: round, Msg: "the BLS signature does not verify with the network's public key"}
	}
	return nil
}

// maxVerified bounds the signatures a Chain remembers as verified: 4096
// keys of 56 bytes, some 300 KB with the map's overhead.
const maxVerified = 4096

// verifiedKey names a round and its signature in Chain.verified. The
// chain is the Chain itself (its hash and public key): each Chain
// remembers only what verified under its own key.
type verifiedKey struct {
	round uint64
	sig   [SignatureSize]byte
}

// CheckRoundOnce is CheckRound that remembers, per process, the rounds
// that verified, keyed by (chain, round, signature bytes): checking the
// replays of matches that named the same round (a tournament's tables,
// the web server's pages), or a replay after the seed-reveal recording
// its round was admitted, pays for one BLS verification. Only a signature
// byte for byte equal to one that verified for the same round of the
// same Chain is answered from memory; any other (another round, a flipped
// bit, another length) is verified, and a signature that did not verify
// is verified again each time. At most maxVerified (4096) signatures are
// remembered: when full, the memory is emptied and starts again.
func (c *Chain) CheckRoundOnce(round uint64, sig []byte) error {
	var k verifiedKey
	if len(sig) == SignatureSize {
		k = verifiedKey{round: round, sig: [SignatureSize]byte(sig)}
		c.mu.Lock()
		ok := c.verified[k]
		c.mu.Unlock()
		if ok {
			return nil
		}
	}
	if err := c.CheckRound(round, sig); err != nil {
		return err
	}
	c.mu.Lock()
	if c.verified == nil || len(c.verified) >= maxVerified {
		c.verified = make(map[verifiedKey]bool, 64)
	}
	c.verified[k] = true
	c.mu.Unlock()
	return nil
}
