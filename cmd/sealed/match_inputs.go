package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sealedhq/sealed/beacon"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/verify"
	"github.com/spf13/pflag"
)

// matchInputFlags are the --contribution and --beacon-file flags of the
// replay play, replay check and rng verbs (docs/rng.md, "The match seed").
type matchInputFlags struct {
	Contributions []string // SEAT:TEXT
	BeaconFile    string   // a round as 'sealed beacon get' prints it
}

func (m *matchInputFlags) register(f *pflag.FlagSet) {
	f.StringArrayVar(&m.Contributions, "contribution", nil, "a seat's client seed, `SEAT:TEXT` (repeatable; 1 to 64 bytes of TEXT)")
	f.StringVar(&m.BeaconFile, "beacon-file", "", "the drand round `FILE` the match takes, as 'sealed beacon get' prints it")
}

// derive reads the flags and returns the match seed with the replay's
// contributions and beacon; without either flag the match seed is server.
func (m *matchInputFlags) derive(a *app, server commit.Seed, seats int) (commit.Seed, []commit.ReplayContribution, *commit.ReplayBeacon, error) {
	cs, b, err := m.parse(a)
	if err != nil {
		return server, nil, nil, err
	}
	ms, err := verify.DeriveMatchSeed(server, cs, b, seats)
	if err != nil {
		return server, nil, nil, usageErrorf("%v", err)
	}
	return ms, cs, b, nil
}

// matchSeed is derive for the verbs that print draws (rng values, rng
// pools): the match seed, and a note on stderr naming it when the flags
// make it other than server.
func (m *matchInputFlags) matchSeed(a *app, server commit.Seed, seats int) (commit.Seed, error) {
	ms, _, _, err := m.derive(a, server, seats)
	if err != nil {
		return ms, err
	}
	if ms != server {
		fmt.Fprintf(a.errOut, "drawn from the match seed %s (the seed with the contributions and round given)\n", ms)
	}
	return ms, nil
}

// parse reads --contribution and --beacon-file.
func (m *matchInputFlags) parse(a *app) ([]commit.ReplayContribution, *commit.ReplayBeacon, error) {
	var cs []commit.ReplayContribution
	for _, c := range m.Contributions {
		seat, text, ok := strings.Cut(c, ":")
		n, err := strconv.Atoi(seat)
		// A seat is written as its decimal number: "01" and "+1" are not
		// seat 1's spelling (the replay and the ledger write 1).
		if !ok || err != nil || strconv.Itoa(n) != seat {
			return nil, nil, usageErrorf("--contribution %q: expected SEAT:TEXT, such as 0:lucky", c)
		}
		cs = append(cs, commit.ReplayContribution{Seat: n, ClientSeed: text})
	}
	var b *commit.ReplayBeacon
	if m.BeaconFile != "" {
		data, err := readInput(a, m.BeaconFile, 64<<10)
		if err != nil {
			return nil, nil, err
		}
		r, err := parseBeaconFile(data)
		if err != nil {
			return nil, nil, usageErrorf("--beacon-file %s: %v", m.BeaconFile, err).withHint("make one with 'sealed beacon get --round R'")
		}
		switch {
		case r.Chain == "":
			// A relay's /<chain hash>/public/<round> answer names its
			// chain only in its URL.
			return nil, nil, usageErrorf("--beacon-file %s: the round names no drand chain (\"chain\": its chain hash); a relay's /public/<round> answer carries none", m.BeaconFile).
				withHint(`make one with 'sealed beacon get --round R', or add "chain":"%s" for quicknet`, beacon.Quicknet.Hash)
		case r.Round == 0 || r.Signature == "":
			return nil, nil, usageErrorf("--beacon-file %s: expected a drand round with \"round\" (>= 1) and \"signature\" (96 hex digits)", m.BeaconFile).
				withHint("make one with 'sealed beacon get --round R'")
		}
		b = &commit.ReplayBeacon{Chain: r.Chain, Round: r.Round, Signature: r.Signature}
		// drand's randomness is SHA-256 of the signature, which is what
		// is used: a file whose randomness says otherwise was edited or
		// mixed up, and says so.
		if sig, err := hex.DecodeString(r.Signature); err == nil && r.Randomness != "" {
			if want := sha256.Sum256(sig); !strings.EqualFold(r.Randomness, hex.EncodeToString(want[:])) {
				fmt.Fprintf(a.errOut, "warning: --beacon-file %s: its randomness %.16s... is not SHA-256 of its signature (%.16s...); the round's randomness is taken from the signature, as drand defines it\n",
					terminalSafe(m.BeaconFile), terminalSafe(r.Randomness), hex.EncodeToString(want[:]))
			}
		}
	}
	return cs, b, nil
}

// parseBeaconFile reads a drand round as 'sealed beacon get' prints it,
// with errors in the file's terms: the round is read as a JSON number
// first, so that -5 or 1.5 is "expected a whole number >= 1", not a Go
// type.
func parseBeaconFile(data []byte) (beaconRoundJSON, error) {
	var raw struct {
		Chain      string      `json:"chain"`
		Round      json.Number `json:"round"`
		Published  string      `json:"published"`
		Randomness string      `json:"randomness"`
		Signature  string      `json:"signature"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return beaconRoundJSON{}, fmt.Errorf("not a drand round: %q is a JSON %s; expected a JSON %s", te.Field, te.Value, map[bool]string{true: "number", false: "string"}[te.Field == "round"])
		}
		return beaconRoundJSON{}, fmt.Errorf("not a drand round; expected a JSON object with \"chain\", \"round\" and \"signature\"")
	}
	r := beaconRoundJSON{Chain: raw.Chain, Published: raw.Published, Randomness: raw.Randomness, Signature: raw.Signature}
	if raw.Round != "" {
		n, err := strconv.ParseUint(string(raw.Round), 10, 64)
		if err != nil || n < 1 {
			return r, fmt.Errorf("round %s: expected a whole number >= 1", raw.Round)
		}
		r.Round = n
	}
	return r, nil
}
