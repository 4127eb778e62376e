package commit

import (
	"context"
	"strings"
	"sync"
	"testing"
)

func mustCommitment(t *testing.T, s string) Commitment {
	t.Helper()
	c, err := ParseCommitment(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestActiveAuditRecoversWeak recovers the two weak commitments
// with the template "I bid {n} on lot {lot}" and the default options. The
// texts were found independently with a Python brute force (hashlib over
// the same space) and checked with
//
//	printf %s 'I bid 17 on lot 3' | sha256sum
//	c48e3f1da30d4b22e40d40062337d4aa9621fd190de182e45ad755342828c114  -
//	printf %s 'I bid 17 on lot 3 #' | sha256sum
//	d690b5b3894cee7e92a6298e9dd3c1e60a0666efb9b37158d519dc2b42573777  -
func TestActiveAuditRecoversWeak(t *testing.T) {
	for _, tc := range []struct {
		hash, reveal, sep, salt string
	}{
		{"c48e3f1da30d4b22e40d40062337d4aa9621fd190de182e45ad755342828c114", "I bid 17 on lot 3", "", ""},
		{"d690b5b3894cee7e92a6298e9dd3c1e60a0666efb9b37158d519dc2b42573777", "I bid 17 on lot 3 #", " ", "#"},
	} {
		var mu sync.Mutex
		calls, last := 0, uint64(0)
		o := DefaultActiveAuditOptions("I bid {n} on lot {lot}")
		o.Progress = func(done, total uint64) {
			mu.Lock()
			defer mu.Unlock()
			if done < last || total != DefaultMaxGuesses {
				t.Errorf("progress %d/%d after %d", done, total, last)
			}
			calls, last = calls+1, done
		}
		r, err := ActiveAudit(context.Background(), mustCommitment(t, tc.hash), o)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Found || r.Reveal != tc.reveal || r.Separator != tc.sep || r.Salt != tc.salt {
			t.Fatalf("ActiveAudit(%s) = %+v, want %q", tc.hash, r, tc.reveal)
		}
		if r.Values["n"] != 17 || r.Values["lot"] != 3 {
			t.Errorf("values %v, want n=17 lot=3", r.Values)
		}
		if calls == 0 {
			t.Error("progress never called")
		}
		// The default space: 10001*100 declarations, times
		// (1 + 8*95 + 8*95^2) salts and separators.
		if want := uint64(10001*100) * (1 + 8*95 + 8*95*95); r.Space != want {
			t.Errorf("space %d, want %d", r.Space, want)
		}
	}
}

// TestActiveAuditKnownSalt recovers a bid whose salt was reused and is
// known, written literally into the template (salt length 0):
//
//	printf %s 'I bid 40 on lot 2 | salt=walnut-tiger' | sha256sum
//	cbdaab04884d8aecbbbc48f8d2017224468c64b9a6dc227879f3d4e26ee75490  -
func TestActiveAuditKnownSalt(t *testing.T) {
	o := DefaultActiveAuditOptions("I bid {n} on lot {lot} | salt=walnut-tiger")
	o.MaxSaltLen = 0
	r, err := ActiveAudit(context.Background(), mustCommitment(t, "cbdaab04884d8aecbbbc48f8d2017224468c64b9a6dc227879f3d4e26ee75490"), o)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Found || r.Reveal != "I bid 40 on lot 2 | salt=walnut-tiger" {
		t.Fatalf("got %+v", r)
	}
	if r.Space != 10001*100 {
		t.Errorf("space %d, want 1000100", r.Space)
	}
}

// TestActiveAuditSpace searches a space small enough to count by hand:
// "x{n}" with n 0..9, salts of 0..1 characters of "ab" after "" or " ":
// 10 + 10*2*2 = 50 guesses, none of which hashes to `printf hello |
// sha256sum`. It also checks the bound and the recovery of the last guess,
// "x9 b" (`printf %s 'x9 b' | sha256sum`).
func TestActiveAuditSpace(t *testing.T) {
	o := ActiveAuditOptions{Template: "x{n}", Ranges: map[string]Range{"n": {0, 9}}, Alphabet: "abba", MaxSaltLen: 1, Separators: []string{"", " "}}
	r, err := ActiveAudit(context.Background(), mustCommitment(t, helloSHA256), o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Found || r.Guesses != 50 || r.Space != 50 || !r.Complete {
		t.Fatalf("got %+v, want 50 guesses, complete, not found", r)
	}
	o.MaxGuesses = 7
	r, _ = ActiveAudit(context.Background(), mustCommitment(t, helloSHA256), o)
	if r.Found || r.Guesses != 7 || r.Complete {
		t.Fatalf("bounded: got %+v, want 7 guesses, not complete", r)
	}
	o.MaxGuesses = 0
	o.Workers = 3
	r, err = ActiveAudit(context.Background(), mustCommitment(t, "7279b2a003a67f982bccb56ef660c0c752e00d1f01d0c8380e32afe17f999bd0"), o)
	if err != nil || !r.Found || r.Reveal != "x9 b" || r.Separator != " " || r.Salt != "b" || r.Values["n"] != 9 || r.Guesses != 50 {
		t.Fatalf("last guess: got %+v, %v; want \"x9 b\" after 50 guesses", r, err)
	}
}

func TestActiveAuditBadOptions(t *testing.T) {
	c := mustCommitment(t, helloSHA256)
	for _, tc := range []struct {
		o    ActiveAuditOptions
		want string
	}{
		{ActiveAuditOptions{}, "empty template"},
		{ActiveAuditOptions{Template: "I bid {n"}, "without a closing"},
		{ActiveAuditOptions{Template: "I bid n}"}, "without an opening"},
		{ActiveAuditOptions{Template: "I bid {}"}, "placeholder"},
		{ActiveAuditOptions{Template: "I bid {n}", Ranges: map[string]Range{"lot": {1, 2}}}, "has no {lot}"},
		{ActiveAuditOptions{Template: "I bid {n}", Ranges: map[string]Range{"n": {5, 2}}}, "lo <= hi"},
		{ActiveAuditOptions{Template: "I bid {n}", MaxSaltLen: 1}, "empty salt alphabet"},
		{ActiveAuditOptions{Template: "I bid {n}", MinSaltLen: 2, MaxSaltLen: 1, Alphabet: "a"}, "min <= max"},
		{ActiveAuditOptions{Template: "{a}{b}{c}", Ranges: map[string]Range{"a": {0, 1 << 40}, "b": {0, 1 << 40}}}, "2^64"},
	} {
		_, err := ActiveAudit(context.Background(), c, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ActiveAudit(%+v) error %v, want %q", tc.o, err, tc.want)
		}
	}
}

func TestActiveAuditCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ActiveAudit(ctx, mustCommitment(t, helloSHA256), DefaultActiveAuditOptions("I bid {n} on lot {lot}"))
	if err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}
