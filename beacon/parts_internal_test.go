package beacon

import (
	"encoding/hex"
	"testing"

	GG "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"
)

// BenchmarkCheckRoundParts splits the cost of verifying one quicknet
// round (round 657413, testdata) into the steps circl's bls.Verify takes,
// for docs/performance.md: the group public key's subgroup check (which
// bls.Verify repeats on every call, though the key is fixed), decoding the
// signature (with its subgroup check), hashing the round's message to G1
// (RFC 9380), and the two-pairing product with one final exponentiation;
// then bls.Verify itself.
func BenchmarkCheckRoundParts(b *testing.B) {
	pub, err := Quicknet.publicKey()
	if err != nil {
		b.Fatal(err)
	}
	sig, _ := hex.DecodeString("b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b")
	msg := Message(657413)
	const dst = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
	var pk GG.G2
	if err := pk.SetBytes(Quicknet.PublicKey); err != nil {
		b.Fatal(err)
	}
	var s, h GG.G1
	if err := s.SetBytes(sig); err != nil {
		b.Fatal(err)
	}
	h.Hash(msg[:], []byte(dst))
	b.Run("public-key-subgroup-check", func(b *testing.B) {
		for b.Loop() {
			if !pub.Validate() {
				b.Fatal("invalid key")
			}
		}
	})
	b.Run("decode-signature", func(b *testing.B) {
		for b.Loop() {
			var g GG.G1
			if err := g.SetBytes(sig); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hash-to-G1", func(b *testing.B) {
		for b.Loop() {
			var g GG.G1
			g.Hash(msg[:], []byte(dst))
		}
	})
	b.Run("pairing-check", func(b *testing.B) {
		for b.Loop() {
			if !GG.ProdPairFrac([]*GG.G1{&h, &s}, []*GG.G2{&pk, GG.G2Generator()}, []int{1, -1}).IsIdentity() {
				b.Fatal("does not verify")
			}
		}
	})
	b.Run("bls.Verify", func(b *testing.B) {
		for b.Loop() {
			if !bls.Verify(pub, msg[:], sig) {
				b.Fatal("does not verify")
			}
		}
	})
}
