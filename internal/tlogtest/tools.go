package tlogtest

import (
	"os"
	"os/exec"
	"testing"
)

// Install says how each program is installed.
var Install = map[string]string{
	"fsck":        "go install github.com/transparency-dev/tessera/cmd/fsck@v1.0.4",
	"litewitness": "go install filippo.io/torchwood/cmd/litewitness@v0.6.1",
	"witnessctl":  "go install filippo.io/torchwood/cmd/witnessctl@v0.6.1",
	"ssh-agent":   "apt-get install openssh-client",
	"ssh-keygen":  "apt-get install openssh-client",
	"ssh-add":     "apt-get install openssh-client",
}

// Tool returns the path of the program name on PATH. When it is missing
// the test is skipped, or failed if CI=true.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	msg := name + " not found on PATH; install it with: " + Install[name]
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}
