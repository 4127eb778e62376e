package witness_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/ledger/witness"
)

// TestMLDSAKeyNamed (newcomer trial 7c, finding 8): C2SP tlog-cosignature
// defines ML-DSA-44 cosigner keys as vkeys of type 0x06 with a 1,312-byte
// key, key ID SHA-256(name || "\n" || 0x06 || key)[:4], and tlog-witness
// says witnesses SHOULD use them. sealed verifies only Ed25519
// cosignature/v1: a policy naming such a witness is refused saying so,
// without echoing the 1.7 KB key.
func TestMLDSAKeyNamed(t *testing.T) {
	key := make([]byte, 1+1312)
	key[0] = 0x06
	rand.Read(key[1:])
	const name = "witness.example/pq"
	id := sha256.Sum256(append([]byte(name+"\n"), key...))
	vkey := name + "+" + hex.EncodeToString(id[:4]) + "+" + base64.StdEncoding.EncodeToString(key)
	_, err := witness.ParsePolicy([]byte("witness " + vkey + " https://witness.example\nquorum 1\n"))
	if err == nil || !strings.Contains(err.Error(), "ML-DSA-44") || len(err.Error()) > 400 {
		t.Errorf("an ML-DSA-44 witness key: %v; want an error naming ML-DSA-44, under 400 bytes", err)
	}
}
