package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// TestReplayPlayAuctionParse checks the flags alone: the options the run
// function receives.
func TestReplayPlayAuctionParse(t *testing.T) {
	var got *replayPlayAuctionOptions
	a := &app{in: strings.NewReader(""), out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	c := replayPlayAuctionCmd(a, func(_ *app, o *replayPlayAuctionOptions) error { got = o; return nil })
	c.SetArgs([]string{"--seed", "ab", "--players", "4", "--items", "7", "--pricing", "second", "--bots", "random,idle",
		"--stake", "2.5", "--rake", "0.1", "--unit", "0.5", "--talk-rounds", "0", "--credits", "50", "--min", "1", "--max", "9", "-o", "x.json"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	want := replayPlayAuctionOptions{Seed: "ab", Players: 4, Items: 7, Pricing: "second", TalkRounds: 0, Credits: 50,
		Min: 1, Max: 9, Bots: "random,idle", Stake: "2.5", Rake: "0.1", Unit: "0.5", Out: "x.json"}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("options %+v, want %+v", *got, want)
	}
	// Defaults are the seed's table (seed 000: 5 players, 10 items, 100
	// credits, values 5..60, 1 talk round, first price).
	c = replayPlayAuctionCmd(a, func(_ *app, o *replayPlayAuctionOptions) error { got = o; return nil })
	c.SetArgs([]string{"--seed", "ab"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	want = replayPlayAuctionOptions{Seed: "ab", Players: 5, Items: 10, Pricing: "first", TalkRounds: 1, Credits: 100,
		Min: 5, Max: 60, Bots: "truthful,shading,random"}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("default options %+v, want %+v", *got, want)
	}
}

func TestAuctionBotsRepeat(t *testing.T) {
	bots, err := auctionBots("truthful, shading", make([]byte, 32), 5)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range bots {
		names = append(names, b.Name())
	}
	if got := strings.Join(names, ","); got != "truthful,shading,truthful,shading,truthful" {
		t.Errorf("bots %s", got)
	}
	if _, err := auctionBots("idle,idle,idle,idle", make([]byte, 32), 3); err == nil || !strings.Contains(err.Error(), "4 names for 3 seats") {
		t.Errorf("too many bots: %v", err)
	}
}

func TestAuctionConfigFromOptions(t *testing.T) {
	o := &replayPlayAuctionOptions{Players: 3, Items: 2, Pricing: "first", TalkRounds: 1, Credits: 100, Min: 5, Max: 60,
		Stake: "10", Rake: "0.05"}
	cfg, err := o.auctionConfig()
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Paid() || cfg.Rake.String() != "0.05" || cfg.PayoutUnit != nil {
		t.Errorf("config %+v", cfg)
	}
	o.Rake = "1.5"
	if _, err := o.auctionConfig(); err == nil || !strings.Contains(err.Error(), "rake is 1.5, expected a fraction in [0, 1)") {
		t.Errorf("rake 1.5: %v", err)
	}
	o.Rake = "Infinity"
	if _, err := o.auctionConfig(); err == nil || !strings.Contains(err.Error(), `--rake is "Infinity"`) {
		t.Errorf("rake Infinity: %v", err)
	}
}
