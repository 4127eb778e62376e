package commit_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/internal/testvector"
)

// TestMatchSeedVectors checks MatchSeed against vectors printed by Python
// and OpenSSL (testdata/matchseed/vectors.txt).
func TestMatchSeedVectors(t *testing.T) {
	f, err := testvector.Read("testdata/matchseed/vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := f.Lines()
	if len(lines) < 9 {
		t.Fatalf("%d vectors", len(lines))
	}
	for _, line := range lines {
		col := strings.Fields(line)
		server, err := commit.ParseSeed(col[0])
		if err != nil {
			t.Fatal(err)
		}
		var cs []commit.Contribution
		if col[1] != "-" {
			for _, c := range strings.Split(col[1], ",") {
				seat, h, _ := strings.Cut(c, ":")
				b, err := hex.DecodeString(h)
				if err != nil {
					t.Fatal(err)
				}
				cs = append(cs, commit.Contribution{Seat: int(seat[0] - '0'), ClientSeed: b})
			}
		}
		var beacon *[32]byte
		if col[2] != "-" {
			var b [32]byte
			hex.Decode(b[:], []byte(col[2]))
			beacon = &b
		}
		got, err := commit.MatchSeed(server, cs, beacon)
		if err != nil || got.String() != col[3] {
			t.Errorf("MatchSeed(%s) = %s, %v; want %s", line[:80], got, err, col[3])
		}
	}
}

func TestMatchSeedRefuses(t *testing.T) {
	var s commit.Seed
	for name, cs := range map[string][]commit.Contribution{
		"empty client seed": {{Seat: 0, ClientSeed: nil}},
		"65 bytes":          {{Seat: 0, ClientSeed: make([]byte, 65)}},
		"seat twice":        {{Seat: 1, ClientSeed: []byte("a")}, {Seat: 1, ClientSeed: []byte("b")}},
		"negative seat":     {{Seat: -1, ClientSeed: []byte("a")}},
	} {
		if _, err := commit.MatchSeed(s, cs, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
