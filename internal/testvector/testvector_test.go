package testvector

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	f, err := Parse([]byte("# made with: printf 'x\\n' | sha256sum\nexpect: mismatch\nhint: a\nhint: b\n\nbody\n\nwith a blank line\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Get("expect"); got != "mismatch" {
		t.Errorf("expect = %q", got)
	}
	if got := f.All("hint"); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("hints = %q", got)
	}
	if got, want := string(f.Body), "body\n\nwith a blank line\n"; got != want {
		t.Errorf("body = %q, want %q", got, want)
	}
	if got := f.Lines(); !reflect.DeepEqual(got, []string{"body", "with a blank line"}) {
		t.Errorf("lines = %q", got)
	}
	if f.Get("absent") != "" || f.All("absent") != nil {
		t.Error("absent key has a value")
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"expect: x\nbody", "expect x\n\nbody", ""} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}

func TestGlob(t *testing.T) {
	dir := t.TempDir()
	if _, err := Glob(filepath.Join(dir, "*.txt")); err == nil {
		t.Fatal("Glob of nothing succeeded")
	}
	for _, n := range []string{"b.txt", "a.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("name: "+n+"\n\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fs, err := Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || fs[0].Get("name") != "a.txt" || len(fs[1].Body) != 0 {
		t.Fatalf("Glob = %+v", fs)
	}
}
