package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/sealedhq/sealed/commit"
)

// TestAuditOptions checks the flags become the package's options.
func TestAuditOptions(t *testing.T) {
	var got *auditOptions
	a := &app{in: strings.NewReader(""), out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	c := auditCmd(a, func(_ *app, o *auditOptions) error { got = o; return nil })
	c.SetArgs([]string{"--hash", "H", "--template", "I bid {n} on lot {lot}", "--range", "n=1..50", "--range", "{lot}=7",
		"--salt-len", "1..3", "--separator", `\n`, "--separator", `a\\b\t`, "--alphabet", "xyz", "--max-guesses", "0", "--workers", "3"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	ao, err := got.activeOptions()
	if err != nil {
		t.Fatal(err)
	}
	want := commit.ActiveAuditOptions{
		Template:   "I bid {n} on lot {lot}",
		Ranges:     map[string]commit.Range{"n": {Lo: 1, Hi: 50}, "lot": {Lo: 7, Hi: 7}},
		Alphabet:   "xyz",
		MinSaltLen: 1, MaxSaltLen: 3,
		Separators: []string{"\n", "a\\b\t"},
		MaxGuesses: 0,
		Workers:    3,
	}
	if !reflect.DeepEqual(ao, want) {
		t.Fatalf("options %+v, want %+v", ao, want)
	}
}

// TestAuditDefaults checks the defaults the issue names: ranges from the
// package, salts of 0..2 characters of printable ASCII, the separators.
func TestAuditDefaults(t *testing.T) {
	var got *auditOptions
	a := &app{in: strings.NewReader(""), out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	c := auditCmd(a, func(_ *app, o *auditOptions) error { got = o; return nil })
	c.SetArgs([]string{"--hash", "H", "--template", "T"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	ao, err := got.activeOptions()
	if err != nil {
		t.Fatal(err)
	}
	if ao.MinSaltLen != 0 || ao.MaxSaltLen != 2 || len(ao.Alphabet) != 95 || ao.MaxGuesses != commit.DefaultMaxGuesses ||
		!reflect.DeepEqual(ao.Separators, commit.DefaultSeparators) || ao.Ranges != nil {
		t.Fatalf("defaults %+v", ao)
	}
}

// TestAuditInterruptedText checks the Ctrl-C message names where the
// search would have stopped: the --max-guesses bound when it is below the
// whole space (the default bound 2^32 = 4294967296 against the space of
// the default search for 'I bid {n} on lot {lot}', 72982890488902961 in a
// reported run), else the whole space.
func TestAuditInterruptedText(t *testing.T) {
	for _, tc := range []struct {
		r    commit.ActiveAuditResult
		max  uint64
		want string
	}{
		{commit.ActiveAuditResult{Guesses: 107872256, Space: 72982890488902961}, 1 << 32,
			"interrupted after 107872256 of at most 4294967296 guesses (the --max-guesses bound; the whole space is 72982890488902961); not found so far"},
		{commit.ActiveAuditResult{Guesses: 5, Space: 50}, 0,
			"interrupted after 5 of 50 guesses (the whole space); not found so far"},
		{commit.ActiveAuditResult{Guesses: 5, Space: 50}, 50,
			"interrupted after 5 of 50 guesses (the whole space); not found so far"},
		{commit.ActiveAuditResult{Guesses: 0, Space: 50}, 1,
			"interrupted after 0 of at most 1 guess (the --max-guesses bound; the whole space is 50); not found so far"},
	} {
		if got := interruptedText(tc.r, tc.max); got != tc.want {
			t.Errorf("interruptedText(%+v, %d) =\n%q\nwant\n%q", tc.r, tc.max, got, tc.want)
		}
	}
}
