package commit

import (
	"regexp"
	"strings"
	"testing"
)

// seedVector is the seed of the rules/rng vectors. Its commitment is
//
//	printf %s 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f | sha256sum
//	6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b  -
const (
	seedVector           = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	seedVectorCommitment = "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b"
)

func TestSeedCommitment(t *testing.T) {
	s, err := ParseSeed(" " + strings.ToUpper(seedVector) + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if s.String() != seedVector {
		t.Fatalf("String = %s", s)
	}
	if got := s.Commitment().String(); got != seedVectorCommitment {
		t.Fatalf("Commitment = %s, want %s", got, seedVectorCommitment)
	}
	c, _ := ParseCommitment(seedVectorCommitment)
	if !CheckSeed(s, c) {
		t.Fatal("CheckSeed = false on the vector")
	}
	s[0] ^= 1
	if CheckSeed(s, c) {
		t.Fatal("CheckSeed = true on another seed")
	}
}

// TestSeedHints checks the named mistakes; the commitments are
//
//	printf "$(echo $SEED | sed 's/../\\x&/g')" | sha256sum   # the 32 raw bytes
//	630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd
//	echo $SEED | sha256sum                                     # trailing LF
//	46268c8f3e4d5291cfd71ffc476063a199beff7f3a5f87a5552a6e3985eccd90
//	printf %s $SEED | tr a-f A-F | sha256sum                   # uppercase
//	8fec958437b27e6c73b93255e8b5341684c531cb98a907a3ebd367c4c304c008
func TestSeedHints(t *testing.T) {
	s, _ := ParseSeed(seedVector)
	for hash, want := range map[string]string{
		"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd": "32 raw bytes",
		"46268c8f3e4d5291cfd71ffc476063a199beff7f3a5f87a5552a6e3985eccd90": "hex with a trailing LF",
		"8fec958437b27e6c73b93255e8b5341684c531cb98a907a3ebd367c4c304c008": "uppercase hex",
		helloSHA256: "",
	} {
		c, _ := ParseCommitment(hash)
		hints := SeedHints(s, c)
		got := ""
		if len(hints) == 1 {
			got = hints[0].Name
		}
		if got != want || len(hints) > 1 {
			t.Errorf("SeedHints(%s) = %v, want %q", hash, hints, want)
		}
	}
}

func TestNewSeed(t *testing.T) {
	a, err := NewSeed()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewSeed()
	if a == b {
		t.Fatal("two seeds are equal")
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(a.String()) {
		t.Fatalf("seed %q is not 64 lowercase hex", a)
	}
	if p, err := ParseSeed(a.String()); err != nil || p != a {
		t.Fatalf("ParseSeed(String()) = %v, %v", p, err)
	}
}

func TestParseSeedRejects(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "empty seed"},
		{seedVector[:62], "62 hex digits"},
		{seedVector + "00", "66 hex digits"},
		{"sha256:" + seedVector, "'s' at character 1"},
		{seedVector[:10] + " " + seedVector[10:], "' ' at character 11"},
	} {
		_, err := ParseSeed(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSeed(%q) error %v, want %q", tc.in, err, tc.want)
		}
	}
}
