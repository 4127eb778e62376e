package ledger

import (
	"math/rand/v2"
	"testing"
)

// TestScanMembersMatchesTopLevelValue checks the one-scan member offsets
// and values against topLevelValue and topLevel, key by key, on leaves of every kind, on leaves
// with the names nested, escaped, repeated or malformed, and on random
// mutations of them.
func TestScanMembersMatchesTopLevelValue(t *testing.T) {
	seeds := []string{
		`{"action_type":"bid","channel":"#a","commitment":"4b19","integrated_at":"2026-12-01T19:31:07.297283507Z","kind":"commit","player":"b1"}`,
		`{"config":{"kind":"x","player":"y"},"integrated_at":"2026-12-01T19:31:07.297283507Z","kind":"seed-commit","seed_commit":3}`,
		`{"commit":12,"integrated_at":"t","kind":"reveal","posted_at":"2026-01-01T00:00:00.000000000Z","text":"\"kind\":\"x\""}`,
		`{"kind":"result","replay_sha256":"ab","summary":{"integrated_at":"nested"},"integrated_at":"t"}`,
		`{"kind":"commit","kind":"reveal","player":"a\"b","player":"c"}`,
		`{"kind":"com\u006dit","player":"\u0430lice"}`,
		`{"a":["kind",{"kind":1}],"kind":"edit","commit":7,"commitment":"","action_type":null}`,
		`{"kind":`, `{"kind"`, `{"kind":"a\\","player":"b\"c\\\"d","x":"\\"}`, `{"player":"unterminated`, `{"player":"esc at end\`, `"kind":"x"`, `{}`, ``, `{"player":"x"`, `{"kind":"a"}}}"kind":"b"`,
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte(`{}[]",:\kindplayer0a `)
	check := func(leaf []byte) {
		var m leafMembers
		scanMembers(leaf, &m)
		for k, key := range memberKeys {
			if want := topLevelValue(leaf, key); m[k] != want {
				t.Fatalf("leaf %q, member %q: scanMembers gives %d, topLevelValue %d", leaf, key, m[k], want)
			}
			if got, want := m.raw(leaf, k), topLevel(leaf, key); string(got) != string(want) || (got == nil) != (want == nil) {
				t.Fatalf("leaf %q, member %q: raw gives %q, topLevel %q", leaf, key, got, want)
			}
		}
	}
	for _, s := range seeds {
		check([]byte(s))
		for range 2000 {
			b := []byte(s)
			for range 1 + r.IntN(4) {
				switch {
				case len(b) == 0:
					b = append(b, alphabet[r.IntN(len(alphabet))])
				case r.IntN(2) == 0:
					b[r.IntN(len(b))] = alphabet[r.IntN(len(alphabet))]
				default:
					i := r.IntN(len(b))
					b = append(b[:i], b[i+1:]...)
				}
			}
			check(b)
		}
	}
}
