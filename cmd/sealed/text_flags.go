package main

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/spf13/cobra"
)

// setRevealText stores revealed bytes in a reveal body exactly: as text
// when they are valid UTF-8, else as text_base64, so the ledger's JSON
// never turns a byte into U+FFFD (docs/ledger.md, reveal entries). Shared
// by 'sealed ledger append --kind reveal' and 'sealed action reveal'.
func setRevealText(b *ledger.Body, raw []byte) {
	if utf8.Valid(raw) {
		s := string(raw)
		b.Text, b.TextBase64 = &s, ""
		return
	}
	b.Text, b.TextBase64 = nil, base64.StdEncoding.EncodeToString(raw)
}

// requireFlags refuses (exit 2) a command line that lacks any of the named
// flags: "VERB needs --NAME", with example as the hint.
func requireFlags(cmd *cobra.Command, verb, example string, names ...string) error {
	for _, n := range names {
		if !cmd.Flags().Changed(n) {
			return usageErrorf("%s needs --%s", verb, n).withHint("%s", example)
		}
	}
	return nil
}

// requireUTF8 refuses (exit 2) any of the named flags, when given, whose
// value is not valid UTF-8. Player names, action types, channels, games,
// match ids and the like are JSON text in the ledger, where a byte that is
// not UTF-8 would silently become U+FFFD.
func requireUTF8(cmd *cobra.Command, names ...string) error {
	for _, n := range names {
		f := cmd.Flags().Lookup(n)
		if f == nil || !f.Changed {
			continue
		}
		if v := f.Value.String(); !utf8.ValidString(v) {
			return usageErrorf("--%s %q is not valid UTF-8; expected text", n, v).
				withHint("check the terminal's or the script's encoding; only a reveal's text may hold any bytes")
		}
	}
	return nil
}

// checkPlayer refuses an empty player name or one with leading or trailing
// white space (exit 2): "alice " and "alice" would be two players.
func checkPlayer(flag, p string) error {
	if p == "" {
		return usageErrorf("--%s must not be empty", flag)
	}
	if strings.TrimSpace(p) == "" {
		return usageErrorf("--%s %q is only white space; expected the player's name", flag, p)
	}
	if t := strings.TrimSpace(p); t != p {
		return usageErrorf("--%s %q has white space at its start or end; expected the player's name alone", flag, p).
			withHint("did you mean --%s %s?", flag, strconv.Quote(t))
	}
	return nil
}

// knownActionTypes are the action types seed 004 defines, canonical
// (lowercase).
var knownActionTypes = []string{secret.ActionBid, secret.ActionHand}

// canonicalActionType returns the known action type t names in any case
// (so "Bid" is "bid"), or t unchanged with a warning naming the known types
// when it is none of them: seed 004 lets a game define others, which are
// judged with the default settings.
func canonicalActionType(t string) (string, string) {
	for _, k := range knownActionTypes {
		if strings.EqualFold(strings.TrimSpace(t), k) {
			return k, ""
		}
	}
	return t, "action type " + strconv.Quote(t) + " is not one of the known types (" +
		strings.Join(knownActionTypes, ", ") + "): it is judged with the default settings, and is neither a bid nor a Hand"
}
