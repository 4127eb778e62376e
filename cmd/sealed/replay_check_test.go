package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestReplayCheckParse(t *testing.T) {
	var got *replayCheckOptions
	a := &app{in: strings.NewReader(""), out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	c := replayCheckCmd(a, func(_ *app, o *replayCheckOptions) error { got = o; return nil })
	c.SetArgs([]string{"a.json", "-", "b.json"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Files, " ") != "a.json - b.json" {
		t.Errorf("files %q", got.Files)
	}
}

// TestPrintJSONNoControls: the runes encoding/json leaves raw that do not
// print as themselves are escaped, the rest (é) stays, and the output
// decodes to the same string.
func TestPrintJSONNoControls(t *testing.T) {
	// python3 -c 'import json;print(json.dumps("a\x9b2J\u202e\U000e0001\x7fé"))'
	// prints "a\u009b2J\u202e\udb40\udc01\u007f\u00e9" (Python escapes é too).
	const in = "a\u009b2J\u202e\U000e0001\u007fé"
	var out bytes.Buffer
	if err := printJSONNoControls(&out, in); err != nil {
		t.Fatal(err)
	}
	if want := `"a\u009b2J\u202e\udb40\udc01\u007fé"` + "\n"; out.String() != want {
		t.Errorf("got %s, want %s", out.String(), want)
	}
	var back string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back != in {
		t.Errorf("decodes to %q (%v), want %q", back, err, in)
	}
}

// TestTerminalSafe: values that print as themselves are kept, others are
// quoted as Go's %q writes them.
func TestTerminalSafe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"deal", "deal"},
		{"complete (6 of 6 matches settled)", "complete (6 of 6 matches settled)"},
		{"né", "né"},
		{"x\x1b[2J", `"x\x1b[2J"`},
		{"a\u202eb", `"a\u202eb"`},
		{"a\tb", `"a\tb"`},
		{"a\u009bb", `"a\u009bb"`},
		{"\xff", `"\xff"`},
	} {
		if got := terminalSafe(c.in); got != c.want {
			t.Errorf("terminalSafe(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
