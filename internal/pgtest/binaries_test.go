package pgtest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCompareVersionsSorts(t *testing.T) {
	got := []string{"9.6", "15", "10", "9.5", "devel", "16"}
	slices.SortFunc(got, compareVersions)
	want := []string{"devel", "9.5", "9.6", "10", "15", "16"} // worked by hand
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}

// fakeInstall makes root/VERSION/bin for each version, with executable
// initdb and postgres, or only initdb for a version ending in "-partial".
func fakeInstall(t *testing.T, root string, versions ...string) {
	t.Helper()
	for _, v := range versions {
		v, partial := strings.CutSuffix(v, "-partial")
		bin := filepath.Join(root, v, "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		progs := []string{"initdb", "postgres"}
		if partial {
			progs = progs[:1]
		}
		for _, p := range progs {
			if err := os.WriteFile(filepath.Join(bin, p), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestFindBinariesHighestComplete(t *testing.T) {
	root := t.TempDir()
	fakeInstall(t, root, "9.6", "10", "15", "16-partial")
	t.Setenv("PATH", t.TempDir())
	b, err := findBinaries(root)
	if err != nil {
		t.Fatal(err)
	}
	// 16 lacks postgres; 15 is the highest complete version, numerically.
	want := binaries{filepath.Join(root, "15", "bin", "initdb"), filepath.Join(root, "15", "bin", "postgres")}
	if b != want {
		t.Errorf("found %+v, want %+v", b, want)
	}
}

func TestFindBinariesPrefersPath(t *testing.T) {
	root, onPath := t.TempDir(), t.TempDir()
	fakeInstall(t, root, "15")
	fakeInstall(t, onPath, "x")
	t.Setenv("PATH", filepath.Join(onPath, "x", "bin"))
	b, err := findBinaries(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(onPath, "x", "bin", "initdb"); b.initdb != want {
		t.Errorf("found initdb %s, want the one on PATH, %s", b.initdb, want)
	}
}

func TestFindBinariesMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := findBinaries(t.TempDir())
	if !isNotInstalled(err) {
		t.Fatalf("got error %v, want a not-installed error", err)
	}
	if !strings.Contains(err.Error(), "apt-get install postgresql") {
		t.Errorf("error %q does not say how to install", err)
	}
}

// TestFindBinariesDebian looks up the real server binaries with PATH
// holding only /usr/bin and /bin, as on a fresh Debian machine, where
// postgresql-VERSION puts them in /usr/lib/postgresql/VERSION/bin only.
func TestFindBinariesDebian(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(debianRoot, "*", "bin", "postgres"))
	if len(dirs) == 0 {
		t.Skip("no " + debianRoot + "/*/bin/postgres; " + installHint)
	}
	t.Setenv("PATH", "/usr/bin:/bin")
	b, err := findBinaries(debianRoot)
	if err != nil {
		t.Fatal(err)
	}
	version := filepath.Base(filepath.Dir(filepath.Dir(b.postgres)))
	if filepath.Dir(filepath.Dir(filepath.Dir(b.postgres))) != debianRoot {
		t.Fatalf("found %s, want one under %s", b.postgres, debianRoot)
	}
	// The binary's own report of its version matches its directory.
	out, err := exec.Command(b.postgres, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(string(out)); len(f) < 3 || !strings.HasPrefix(f[2], version+".") {
		t.Errorf("%s --version says %q, want version %s", b.postgres, out, version)
	}
}

func TestDBName(t *testing.T) {
	for _, c := range []struct {
		n    int64
		test string
		want string // worked by hand
	}{
		{7, "TestFoo/sub case", "t7_testfoo_sub_case"},
		{12, "Test_ÄB", "t12_test___b"}, // "_" stays; ä (from Ä) is two bytes in UTF-8
		{3, strings.Repeat("x", 100), "t3_" + strings.Repeat("x", 60)},
	} {
		if got := dbName(c.n, c.test); got != c.want {
			t.Errorf("dbName(%d, %q) = %q, want %q", c.n, c.test, got, c.want)
		}
	}
}

// recordingTB records Skip and Fatal instead of ending the test.
type recordingTB struct {
	testing.TB
	skipped, fataled bool
}

func (r *recordingTB) Helper()           {}
func (r *recordingTB) Skip(...any)       { r.skipped = true }
func (r *recordingTB) Fatal(args ...any) { r.fataled = true }

func TestSkipOrFail(t *testing.T) {
	notInstalled := &notInstalledError{searched: "nowhere"}
	for _, c := range []struct {
		ci               string
		err              error
		skipped, fataled bool
	}{
		{"", notInstalled, true, false},
		{"false", notInstalled, true, false},
		{"true", notInstalled, false, true},
		{"", errors.New("initdb failed"), false, true},
	} {
		t.Setenv("CI", c.ci)
		r := &recordingTB{TB: t}
		skipOrFail(r, c.err)
		if r.skipped != c.skipped || r.fataled != c.fataled {
			t.Errorf("CI=%q, %v: skipped %v fataled %v, want %v %v", c.ci, c.err, r.skipped, r.fataled, c.skipped, c.fataled)
		}
	}
}
