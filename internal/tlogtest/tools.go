package tlogtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// probe is a flag each Go tool's -help output names, to tell Tessera's
// fsck from the system's /sbin/fsck (e2fsprogs) of the same name.
var probe = map[string]string{
	"fsck":        "storage_url",
	"litewitness": "ssh-agent",
}

// Tool returns the path of the program name: the first one in $GOBIN,
// $(go env GOPATH)/bin or on PATH that is the right program. When there
// is none the test is skipped, or failed if CI=true.
func Tool(t testing.TB, name string) string {
	t.Helper()
	var dirs []string
	if d := os.Getenv("GOBIN"); d != "" {
		dirs = append(dirs, d)
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, p := range filepath.SplitList(strings.TrimSpace(string(out))) {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	dirs = append(dirs, filepath.SplitList(os.Getenv("PATH"))...)
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			continue
		}
		if want, ok := probe[name]; ok {
			out, _ := exec.Command(p, "-help").CombinedOutput()
			if !strings.Contains(string(out), want) {
				continue
			}
		}
		return p
	}
	msg := name + " not found in $GOBIN, $(go env GOPATH)/bin or on PATH; install it with: " + Install[name]
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}
