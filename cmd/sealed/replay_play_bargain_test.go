package main

import (
	"bytes"
	"reflect"
	"testing"
)

// TestReplayPlayBargainFlags checks the flag parsing of `sealed replay play
// bargain` alone: defaults and every flag reach the options.
func TestReplayPlayBargainFlags(t *testing.T) {
	var got *replayPlayBargainOptions
	capture := func(_ *app, o *replayPlayBargainOptions) error { got = o; return nil }
	a := &app{out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}

	c := replayPlayBargainCmd(a, capture)
	c.SetArgs([]string{"--seed", "ab"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	want := replayPlayBargainOptions{Seed: "ab", Matches: 6, MaxTurns: 10, Bots: "greedy,fair,fair", Format: "sealed", EngineSeed: -1}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("defaults %+v, want %+v", *got, want)
	}

	c = replayPlayBargainCmd(a, capture)
	c.SetArgs([]string{"--seed", "cd", "--matches", "3", "--max-turns", "4", "--bots", "fair", "--stop-after", "2", "-o", "r.json", "--format", "engine", "--engine-seed", "7"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	want = replayPlayBargainOptions{Seed: "cd", Matches: 3, MaxTurns: 4, Bots: "fair", StopAfter: 2, Out: "r.json", Format: "engine", EngineSeed: 7}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("flags %+v, want %+v", *got, want)
	}
}

func TestParseBots(t *testing.T) {
	bots, err := parseBots("fair")
	if err != nil || bots[0].Name() != "fair" || bots[2].Name() != "fair" {
		t.Errorf("one name: %v %v", bots, err)
	}
	bots, err = parseBots("greedy, fair,greedy")
	if err != nil || bots[0].Name() != "greedy" || bots[1].Name() != "fair" || bots[2].Name() != "greedy" {
		t.Errorf("three names: %v %v", bots, err)
	}
	for _, bad := range []string{"", "greedy,fair", "greedy,fair,fair,fair", "nice", "greedy,,fair"} {
		if _, err := parseBots(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestRngPoolsFlags checks the flag parsing of `sealed rng pools` alone.
func TestRngPoolsFlags(t *testing.T) {
	var got *rngPoolsOptions
	capture := func(_ *app, o *rngPoolsOptions) error { got = o; return nil }
	a := &app{out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	c := rngPoolsCmd(a, capture)
	c.SetArgs([]string{"--seed", "ab"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, rngPoolsOptions{Seed: "ab", Matches: 6}) {
		t.Errorf("defaults %+v", *got)
	}
	c = rngPoolsCmd(a, capture)
	c.SetArgs([]string{"--seed", "ab", "--matches", "12"})
	if err := c.Execute(); err != nil || got.Matches != 12 {
		t.Errorf("--matches 12: %+v %v", got, err)
	}
}
