package main

import (
	"bytes"
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
