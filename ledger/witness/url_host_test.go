package witness_test

import (
	"crypto/rand"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"

	"github.com/sealedhq/sealed/ledger/witness"
)

// TestURLPortWithoutHost: a witness URL of a port and no host name
// (https://:8443) has no host to post to; it was taken, as u.Host is
// ":8443". A host with a port or a path is still taken (trial 10e,
// finding 3).
func TestURLPortWithoutHost(t *testing.T) {
	_, vkey, err := note.GenerateKey(rand.Reader, "w.example")
	if err != nil {
		t.Fatal(err)
	}
	policy := func(url string) error {
		_, err := witness.ParsePolicy([]byte("witness " + vkey + " " + url + "\nquorum 1\n"))
		return err
	}
	if err := policy("https://:8443"); err == nil || !strings.Contains(err.Error(), "no host") {
		t.Errorf("https://:8443: %v; want an error saying it has no host", err)
	}
	for _, u := range []string{"https://w.example:8443", "https://w.example:8443/a/b", "http://[::1]:8080/x/"} {
		if err := policy(u); err != nil {
			t.Errorf("%s: %v; want it taken", u, err)
		}
	}
}
