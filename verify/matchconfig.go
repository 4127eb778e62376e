package verify

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/cockroachdb/apd/v3"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/gowebpki/jcs"
	"github.com/sealedhq/sealed/rules/auction"
	"github.com/sealedhq/sealed/rules/bargain"
)

// RulesVersion is the rules_version a seed-commit of game must name:
// "auction-0.2" (auction.RulesVersion) for the Blind Auction, and
// "negotiation.replay.v1" (bargain.ReplayFormat) for Negotiation Games,
// whose rules (seed 002) name no version, so the replay format stands for
// it. "" for a game sealed does not play.
func RulesVersion(game string) string {
	switch game {
	case "auction":
		return auction.RulesVersion
	case "bargain":
		return bargain.ReplayFormat
	}
	return ""
}

// The keys of a seed-commit's config, per game (docs/ledger.md,
// "seed-commit"). An auction's required keys are those every
// sealed.auction.replay.v1 replay writes (docs/replays.md: "Every field is
// written out"), so a config without one of them differs from every
// replay of its match; a Negotiation Games config is bargain.Config, and
// its optional keys are those a replay's config carries with a fixed
// value.
var (
	auctionConfigRequired = []string{"players", "items", "starting_credits", "value_min", "value_max", "talk_rounds", "pricing"}
	auctionConfigOptional = []string{"stake", "rake", "payout_unit"}
	bargainConfigRequired = []string{"matches", "maxTurns"}
	bargainConfigOptional = []string{"itemNames", "sampled"}
	// bargainConfigDerived are keys of an engine replay's config that are
	// derived from the seed: public before the match, they would give
	// every draw away.
	bargainConfigDerived = map[string]string{
		"seed":     "the engine's integer seed, derived from the committed seed",
		"schedule": "every match's pool and values, drawn from the committed seed",
	}
)

// CheckMatchConfig checks a seed-commit's rules_version and config against
// what sealed's rules for game accept, the checks a replay of the match
// gets (docs/ledger.md, "seed-commit"), so that a config no result could
// match is refused before the match rather than at its result:
//
//   - rules_version must be RulesVersion(game);
//   - an auction config must hold exactly the keys a
//     sealed.auction.replay.v1 replay's config holds (players, items,
//     starting_credits, value_min, value_max, talk_rounds and pricing;
//     stake, rake and payout_unit optional), each of the JSON type the
//     replay reader takes (decimals as strings), in the ranges
//     auction.Config.Validate accepts;
//   - a Negotiation Games config must hold matches and maxTurns
//     (bargain.Config.Validate: 3 or 6 matches, an even maxTurns in
//     2..12) and may hold itemNames (["books","hats","balls"]) and sampled
//     (true, as the engine writes it); the engine's seed and schedule are
//     derived from the seed and refused.
//
// Numbers are compared in their RFC 8785 form (3.0 is 3), as the ledger
// stores them. The error is an *AdmissionError naming the field
// (rules_version, or config and the key) and what is expected. A game
// other than auction or bargain, or a config that is not a JSON object, is
// not judged here (nil): ledger.ParseBody refuses those.
func CheckMatchConfig(game, rulesVersion string, config json.RawMessage) error {
	want := RulesVersion(game)
	if want == "" {
		return nil
	}
	if rulesVersion != want {
		return refuse("rules_version", "%q is not a rules version of %s that sealed checks; expected %q", rulesVersion, game, want)
	}
	canon, err := jcs.Transform(config)
	if err != nil {
		return nil // not JSON: ParseBody says what is wrong
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(canon, &members) != nil || members == nil {
		return nil // not an object: ParseBody says so
	}
	required, optional := auctionConfigRequired, auctionConfigOptional
	if game == "bargain" {
		required, optional = bargainConfigRequired, bargainConfigOptional
	}
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if why, ok := bargainConfigDerived[k]; ok && game == "bargain" {
			return refuse("config", "%q is %s: committed before the match, it would make every draw public; expected only %s", k, why, keyList(required, optional))
		}
		if !slices.Contains(required, k) && !slices.Contains(optional, k) {
			return refuse("config", "unknown key %q; expected %s", k, keyList(required, optional))
		}
		if string(members[k]) == "null" {
			return refuse("config", "%s is null; expected a value (leave an optional key out instead)", k)
		}
	}
	var missing []string
	for _, k := range required {
		if _, ok := members[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return refuse("config", "%s missing; expected %s (every replay of the match carries them, and a result's config is compared with this one key by key)",
			strings.Join(missing, ", ")+map[bool]string{true: " is", false: " are"}[len(missing) == 1], keyList(required, optional))
	}
	if game == "auction" {
		var c auction.Config
		if err := jsonv2.Unmarshal(canon, &c, strictOptions); err != nil {
			return refuse("config", "%s", configTypeError(err, members))
		}
		if err := c.Validate(); err != nil {
			return refuse("config", "%s", strings.TrimPrefix(err.Error(), auction.ErrConfig.Error()+": "))
		}
		return nil
	}
	var c struct {
		Matches   int      `json:"matches"`
		MaxTurns  int      `json:"maxTurns"`
		ItemNames []string `json:"itemNames"`
		Sampled   *bool    `json:"sampled"`
	}
	if err := jsonv2.Unmarshal(canon, &c, strictOptions); err != nil {
		return refuse("config", "%s", configTypeError(err, members))
	}
	if err := (bargain.Config{Matches: c.Matches, MaxTurns: c.MaxTurns}).Validate(); err != nil {
		return refuse("config", "%v", err)
	}
	if c.ItemNames != nil && !slices.Equal(c.ItemNames, bargain.ItemNames[:]) {
		return refuse("config", "itemNames is %s; expected %s (fixed by the format) or no itemNames", renderStrings(c.ItemNames), renderStrings(bargain.ItemNames[:]))
	}
	if c.Sampled != nil && !*c.Sampled {
		return refuse("config", "sampled is false; expected true (as the engine writes it) or no sampled")
	}
	return nil
}

// keyList renders a game's config keys for a message: "players, items and
// pricing, and optionally stake".
func keyList(required, optional []string) string {
	s := strings.Join(required, ", ")
	if len(optional) > 0 {
		s += ", and optionally " + strings.Join(optional, ", ")
	}
	return s
}

// configTypeError words a decoding error of a config value (the wrong JSON
// type, a fraction where a whole number goes) with the key it concerns
// and the value as the ledger stores it (members, RFC 8785).
func configTypeError(err error, members map[string]json.RawMessage) string {
	var sem *jsonv2.SemanticError
	if !errors.As(err, &sem) || sem.JSONPointer == "" {
		return err.Error()
	}
	key := strings.TrimPrefix(string(sem.JSONPointer), "/")
	key, _, _ = strings.Cut(key, "/")
	want := "another JSON type"
	if t := sem.GoType; t != nil {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case t == reflect.TypeFor[apd.Decimal]():
			want = `a decimal in a JSON string, such as "0.05"`
		case t.Kind() == reflect.Int:
			want = "a whole number"
		case t.Kind() == reflect.String:
			want = "a string"
		case t.Kind() == reflect.Bool:
			want = "true or false"
		case t.Kind() == reflect.Slice:
			want = "an array of strings"
		}
	}
	got := string(members[key])
	if len(got) > 40 {
		got = got[:40] + "..."
	}
	return fmt.Sprintf("%s is %s; expected %s", key, got, want)
}
