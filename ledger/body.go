package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
	"github.com/sealedhq/sealed/commit"
)

// Kind names an entry kind (docs/ledger.md, "Entries").
type Kind string

// The entry kinds. docs/design.md "Ledger"; seed 004 (secret actions) for
// commit, reveal and edit.
const (
	KindCommit     Kind = "commit"      // a secret action's commitment, posted by a player
	KindReveal     Kind = "reveal"      // the revealed text of a commit entry
	KindEdit       Kind = "edit"        // the post holding a commitment was edited (rule S4)
	KindSeedCommit Kind = "seed-commit" // a game server's commitment to its RNG seed
	KindSeedReveal Kind = "seed-reveal" // the seed of a seed-commit entry
	KindResult     Kind = "result"      // digest and summary of a match replay
	// KindContribution is a player's client seed for a match, naming its
	// seed-commit (docs/ledger.md; docs/rng.md "The match seed").
	KindContribution Kind = "contribution"
)

// Article is the kind with its indefinite article, as a message names
// it: "a commit", "an edit" ("an" before a vowel; every kind sealed
// writes is an English word or two).
func (k Kind) Article() string {
	return WithArticle(string(k))
}

// WithArticle returns word after its indefinite article, as a message
// names a thing: "a trigger", "an index", "an edit". The article follows
// the first letter (a, e, i, o, u take "an"), which fits the English
// words and names sealed's messages put there (kinds, schema objects,
// action types); it cannot know how a word is spoken ("an hour").
func WithArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// MaxClientSeed is the longest client_seed of a contribution, in bytes
// (commit.MaxClientSeed).
const MaxClientSeed = commit.MaxClientSeed

// BeaconSignatureSize is the size of a drand round's signature in a
// seed-reveal's beacon_signature, in bytes: a compressed BLS12-381 G1
// point (beacon.SignatureSize).
const BeaconSignatureSize = 48

// maxExactInteger is the largest integer field (beacon_round,
// play_at_entry) a body may carry: 2^53-1, the largest n such that every
// integer up to n is an IEEE double, which is how RFC 8785 writes numbers
// in a leaf. A larger one would be recorded as another number.
const maxExactInteger = 1<<53 - 1

// Games accepted in the game field of seed-commit and result entries.
var games = map[string]bool{"auction": true, "bargain": true}

// MaxBodySize is the largest entry body accepted, in bytes of input JSON
// (1 MiB).
const MaxBodySize = 1 << 20

// MaxLeafSize is the largest leaf (canonical JSON, with integrated_at) the
// ledger appends, in bytes: a C2SP tlog-tiles entry bundle prefixes each
// leaf with a big-endian uint16 length. A longer leaf is refused with a
// *BodyError; a replay goes in the replay store, outside the leaf.
const MaxLeafSize = 65535

// maxNameLen bounds the short text fields (player, action_type, channel,
// game, match_id, rules_version), in bytes.
const maxNameLen = 256

// TimeLayout is the layout of integrated_at and posted_at in a leaf:
// RFC 3339 in UTC with exactly nine fractional digits, so every value has
// the same length (30 bytes) and sorts as text in time order.
const TimeLayout = "2006-01-02T15:04:05.000000000Z"

// Body is an entry body: the JSON object a caller appends, and (with
// IntegratedAt set by the ledger) the leaf. Which fields a kind requires
// or allows is in docs/ledger.md; ParseBody enforces it. Indexes are
// ledger indexes (0-based); hex digests are 64 lowercase hex characters.
type Body struct {
	Kind         Kind            `json:"kind"`
	PostedAt     string          `json:"posted_at,omitempty"`     // optional, any kind: time the post appeared in the game's channel
	IntegratedAt string          `json:"integrated_at,omitempty"` // set by the ledger (TimeLayout); refused on input
	Player       string          `json:"player,omitempty"`        // commit, reveal, edit
	ActionType   string          `json:"action_type,omitempty"`   // commit
	Channel      string          `json:"channel,omitempty"`       // commit
	Commitment   string          `json:"commitment,omitempty"`    // commit, seed-commit
	Commit       *int64          `json:"commit,omitempty"`        // reveal, edit: index of a commit entry
	Text         *string         `json:"text,omitempty"`          // reveal: the revealed text when it is valid UTF-8
	TextBase64   string          `json:"text_base64,omitempty"`   // reveal: the revealed bytes when they are not valid UTF-8
	Game         string          `json:"game,omitempty"`          // seed-commit, result: "auction" or "bargain"
	MatchID      string          `json:"match_id,omitempty"`      // seed-commit, result
	RulesVersion string          `json:"rules_version,omitempty"` // seed-commit
	Config       json.RawMessage `json:"config,omitempty"`        // seed-commit: a JSON object
	SeedCommit   *int64          `json:"seed_commit,omitempty"`   // seed-reveal: index of a seed-commit entry
	Seed         string          `json:"seed,omitempty"`          // seed-reveal: 64 lowercase hex
	ReplaySHA256 string          `json:"replay_sha256,omitempty"` // result: SHA-256 of the replay bytes
	Summary      json.RawMessage `json:"summary,omitempty"`       // result: a JSON object
	// seed-commit, optional: the drand network (chain hash, 64 lowercase
	// hex) and round whose randomness goes into the match seed; both or
	// neither.
	BeaconChain string `json:"beacon_chain,omitempty"`
	BeaconRound *int64 `json:"beacon_round,omitempty"` // >= 1
	// seed-reveal, optional: the signature of the drand round its
	// seed-commit named (BeaconSignatureSize bytes, 2*BeaconSignatureSize
	// lowercase hex), for replays that cannot carry the round (the
	// Negotiation Games engine's).
	BeaconSignature string `json:"beacon_signature,omitempty"`
	// seed-commit, optional: when play begins (TimeLayout); contributions
	// integrated at or after it do not count. Without it or PlayAtEntry
	// none does.
	PlayAt string `json:"play_at,omitempty"`
	// seed-commit, optional, not with PlayAt: the ledger index of the
	// entry that opens play, after the seed-commit's own index (Append
	// refuses one that is not); contributions at or after that index do
	// not count.
	PlayAtEntry *int64 `json:"play_at_entry,omitempty"`
	// seed-commit, optional: the deadline for the seed-reveal (TimeLayout);
	// a match not revealed by then is abandoned.
	RevealBy string `json:"reveal_by,omitempty"`
	// seed-commit, optional: the game server or operator committing (a name).
	Operator string `json:"operator,omitempty"`
	// contribution: the seat (>= 0) and its client seed, 1..MaxClientSeed
	// bytes of UTF-8 exactly as posted; SeedCommit names the seed-commit.
	Seat       *int64  `json:"seat,omitempty"`
	ClientSeed *string `json:"client_seed,omitempty"`
}

// RevealedBytes returns the revealed bytes of a reveal body: Text, or
// TextBase64 decoded. It returns an error if neither decodes.
func (b *Body) RevealedBytes() ([]byte, error) {
	if b.Text != nil {
		return []byte(*b.Text), nil
	}
	return base64.StdEncoding.DecodeString(b.TextBase64)
}

// Ref returns the ledger index a body refers to (the commit of a reveal or
// edit, the seed_commit of a seed-reveal or contribution) and the kind it must have; ok is
// false for kinds that refer to nothing.
func (b *Body) Ref() (index int64, kind Kind, ok bool) {
	switch b.Kind {
	case KindReveal, KindEdit:
		if b.Commit != nil {
			return *b.Commit, KindCommit, true
		}
	case KindSeedReveal, KindContribution:
		if b.SeedCommit != nil {
			return *b.SeedCommit, KindSeedCommit, true
		}
	}
	return 0, "", false
}

// BodyError reports an entry body that is not valid: which field and what
// was expected.
type BodyError struct {
	Field string // JSON field name, or "" for the body as a whole
	Msg   string
}

// Error says "bad entry body: FIELD: what was expected".
func (e *BodyError) Error() string {
	if e.Field == "" {
		return "bad entry body: " + e.Msg
	}
	return fmt.Sprintf("bad entry body: %s: %s", e.Field, e.Msg)
}

func bodyErr(field, format string, args ...any) error {
	return &BodyError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ParseBody decodes and validates an entry body (a JSON object, at most
// MaxBodySize bytes) and returns it normalised: commitments, seeds and
// replay digests in lowercase hex, posted_at in TimeLayout (UTC). It
// refuses unknown fields, duplicate keys, fields the kind does not allow,
// missing required fields, integrated_at (the ledger sets it), and invalid
// UTF-8; the error is a *BodyError naming the field. The rules are in
// docs/ledger.md ("Entries").
func ParseBody(data []byte) (*Body, error) {
	b, _, err := parseBody(data)
	return b, err
}

// parseBody is ParseBody that also returns canon, the RFC 8785 form of
// data, which validated it (prepareCanonical builds the leaf from it, so
// an append canonicalises its input once).
func parseBody(data []byte) (b *Body, canon []byte, err error) {
	if len(data) > MaxBodySize {
		return nil, nil, bodyErr("", "%d bytes, more than the %d allowed", len(data), MaxBodySize)
	}
	// RFC 8785 parsing first: refuses duplicate keys, invalid UTF-8 and lone
	// surrogates, which encoding/json would silently accept or replace.
	canon, err = jcs.Transform(data)
	if err != nil {
		return nil, nil, bodyErr("", "%s", canonicalError(data, err))
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, nil, bodyErr("", "expected a JSON object")
	}
	// The caller's bytes, not canon, are decoded, so that numbers are read
	// as posted (an index of 1e2 or 1.0 is refused, as before).
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	b = new(Body)
	if err := dec.Decode(b); err != nil {
		return nil, nil, decodeError(err)
	}
	// encoding/json matches keys without regard to case, so "TEXT" would
	// fill text (and, beside "text", silently win): a key must be spelled
	// exactly as the field, or the stored entry would differ from what a
	// case-sensitive reader of the same bytes sees.
	if mayFoldToField(canon) {
		var members map[string]json.RawMessage
		if err := json.Unmarshal(canon, &members); err != nil {
			return nil, nil, bodyErr("", "%v", err)
		}
		for k := range members {
			if !exactField[k] {
				return nil, nil, bodyErr("", "unknown field %q; field names are lowercase, as in docs/ledger.md", k)
			}
		}
	}
	if err := b.normalise(); err != nil {
		return nil, nil, err
	}
	return b, canon, nil
}

// decodeError says what encoding/json refused in the entry's field names
// and JSON terms, not Go's: "commit: expected a whole number, got 1.5",
// "unknown field \"colour\"".
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := "another JSON type"
		if te.Type != nil {
			switch te.Type.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
				want = "a whole number"
			case reflect.Float32, reflect.Float64:
				want = "a number"
			case reflect.String:
				want = "a string"
			case reflect.Bool:
				want = "true or false"
			case reflect.Struct, reflect.Map:
				want = "an object"
			case reflect.Slice, reflect.Array:
				want = "an array"
			}
		}
		got, n, isNumber := strings.Cut(te.Value, " ")
		if isNumber && got == "number" && want == "a whole number" && isWholeNumber(n) {
			// A whole number past the field's Go type.
			return bodyErr(te.Field, "%s is out of range; expected a whole number from %s", n, rangeOf(te.Type.Kind()))
		}
		switch {
		case isNumber && got == "number":
			got = n // the number as posted
		case got == "bool":
			got = "true or false"
		case got == "object" || got == "array":
			got = "an " + got
		default:
			got = "a " + got
		}
		return bodyErr(te.Field, "expected %s, got %s", want, got)
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return bodyErr("", "unknown field %s", f)
	}
	return bodyErr("", "%s", strings.TrimPrefix(err.Error(), "json: "))
}

// isWholeNumber reports whether s is a JSON integer: an optional minus
// sign and digits, without fraction or exponent.
func isWholeNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// rangeOf is the range of an integer kind, "0 to 255", for errors.
func rangeOf(k reflect.Kind) string {
	switch k {
	case reflect.Int8:
		return "-128 to 127"
	case reflect.Int16:
		return "-32768 to 32767"
	case reflect.Int32:
		return "-2147483648 to 2147483647"
	case reflect.Int, reflect.Int64:
		return "-9223372036854775808 to 9223372036854775807"
	case reflect.Uint8:
		return "0 to 255"
	case reflect.Uint16:
		return "0 to 65535"
	case reflect.Uint32:
		return "0 to 4294967295"
	}
	return "0 to 18446744073709551615"
}

// mayFoldToField reports whether canon (a body in RFC 8785 form, where
// every character but the control characters is written as itself) holds
// an upper-case ASCII letter or any non-ASCII character. Only then can a
// member name differ from a field name (lower-case ASCII letters and
// underscores) and still match it as encoding/json matches names: by
// Unicode case folding, where "K" and the Kelvin sign fold to "k" and the
// long s to "s". Without one, every name Decode matched is spelled
// exactly, and the check of each name (a third parse of the body, most of
// the time the same answer) is skipped.
func mayFoldToField(canon []byte) bool {
	for _, c := range canon {
		if c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// exactField holds every body field name as spelled in the leaf.
var exactField = func() map[string]bool {
	m := map[string]bool{"kind": true, "posted_at": true, "integrated_at": true}
	for _, f := range bodyFields {
		m[f] = true
	}
	return m
}()

// fieldSet lists, per kind, the fields it requires and those it allows.
var kindFields = map[Kind]struct{ required, optional []string }{
	KindCommit: {[]string{"player", "action_type", "channel", "commitment"}, nil},
	KindReveal: {[]string{"commit", "player"}, []string{"text", "text_base64"}},
	KindEdit:   {[]string{"commit", "player"}, nil},
	KindSeedCommit: {[]string{"game", "match_id", "rules_version", "config", "commitment"},
		[]string{"beacon_chain", "beacon_round", "play_at", "play_at_entry", "reveal_by", "operator"}},
	KindSeedReveal:   {[]string{"seed_commit", "seed"}, []string{"beacon_signature"}},
	KindResult:       {[]string{"game", "match_id", "replay_sha256", "summary"}, nil},
	KindContribution: {[]string{"seed_commit", "seat", "client_seed"}, nil},
}

// bodyFields are the kind-specific fields, in the order present reports
// them.
var bodyFields = [...]string{"player", "action_type", "channel", "commitment", "commit", "text",
	"text_base64", "game", "match_id", "rules_version", "config", "seed_commit", "seed",
	"replay_sha256", "summary", "beacon_chain", "beacon_round", "play_at", "reveal_by", "operator",
	"seat", "client_seed", "play_at_entry", "beacon_signature"}

// present reports which kind-specific fields of b are set, in the order
// of bodyFields.
func (b *Body) present() [len(bodyFields)]bool {
	return [...]bool{b.Player != "", b.ActionType != "", b.Channel != "",
		b.Commitment != "", b.Commit != nil, b.Text != nil,
		b.TextBase64 != "", b.Game != "", b.MatchID != "",
		b.RulesVersion != "", b.Config != nil,
		b.SeedCommit != nil, b.Seed != "",
		b.ReplaySHA256 != "", b.Summary != nil,
		b.BeaconChain != "", b.BeaconRound != nil, b.PlayAt != "", b.RevealBy != "", b.Operator != "",
		b.Seat != nil, b.ClientSeed != nil, b.PlayAtEntry != nil, b.BeaconSignature != ""}
}

// normalise validates b in place (see ParseBody).
func (b *Body) normalise() error {
	spec, ok := kindFields[b.Kind]
	if !ok {
		return bodyErr("kind", "%q is not an entry kind; expected commit, reveal, edit, seed-commit, seed-reveal, result or contribution", b.Kind)
	}
	if b.IntegratedAt != "" {
		return bodyErr("integrated_at", "set by the ledger, not by the caller")
	}
	// A Body built in Go (AppendBody) may hold strings that are not UTF-8,
	// which encoding/json would silently turn into U+FFFD: refuse them, as
	// ParseBody refuses such JSON.
	for _, f := range []struct{ name, v string }{
		{"posted_at", b.PostedAt}, {"player", b.Player}, {"action_type", b.ActionType},
		{"channel", b.Channel}, {"commitment", b.Commitment}, {"text_base64", b.TextBase64},
		{"game", b.Game}, {"match_id", b.MatchID}, {"rules_version", b.RulesVersion},
		{"seed", b.Seed}, {"replay_sha256", b.ReplaySHA256}, {"beacon_chain", b.BeaconChain},
		{"play_at", b.PlayAt}, {"reveal_by", b.RevealBy}, {"operator", b.Operator},
		{"beacon_signature", b.BeaconSignature},
	} {
		if !utf8.ValidString(f.v) {
			return bodyErr(f.name, "%q is not valid UTF-8; expected text", f.v)
		}
	}
	if b.Text != nil && !utf8.ValidString(*b.Text) {
		return bodyErr("text", "the revealed bytes are not valid UTF-8: put them in text_base64")
	}
	p := b.present()
	isSet := func(f string) bool {
		for i, n := range bodyFields {
			if n == f {
				return p[i]
			}
		}
		return false
	}
	for _, f := range spec.required {
		if !isSet(f) {
			return bodyErr(f, "required in %s entry", b.Kind.Article())
		}
	}
	for i, f := range bodyFields {
		if p[i] && !slices.Contains(spec.required, f) && !slices.Contains(spec.optional, f) {
			return bodyErr(f, "not allowed in %s entry", b.Kind.Article())
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"posted_at", &b.PostedAt}, {"play_at", &b.PlayAt}, {"reveal_by", &b.RevealBy}} {
		if *f.v == "" {
			continue
		}
		t, err := ParseTime(*f.v)
		if err != nil {
			return bodyErr(f.name, "%v", err)
		}
		s, err := formatTime(t)
		if err != nil {
			return bodyErr(f.name, "%v", err)
		}
		*f.v = s
	}
	if b.ClientSeed != nil {
		switch n := len(*b.ClientSeed); {
		case !utf8.ValidString(*b.ClientSeed):
			return bodyErr("client_seed", "not valid UTF-8; expected text")
		case n < 1 || n > MaxClientSeed:
			return bodyErr("client_seed", "%d bytes; expected 1 to %d bytes", n, MaxClientSeed)
		}
	}
	if b.Seat != nil && (*b.Seat < 0 || *b.Seat > 1<<16) {
		return bodyErr("seat", "expected a seat number 0 to 65536, got %d", *b.Seat)
	}
	if (b.BeaconChain == "") != (b.BeaconRound == nil) {
		return bodyErr("beacon_round", "beacon_chain and beacon_round go together; expected both (a drand chain hash and a round) or neither")
	}
	if b.BeaconRound != nil && *b.BeaconRound < 1 {
		return bodyErr("beacon_round", "expected a drand round >= 1, got %d", *b.BeaconRound)
	}
	if b.BeaconRound != nil && *b.BeaconRound > maxExactInteger {
		return bodyErr("beacon_round", "%d is above 2^53-1: the leaf's canonical JSON (RFC 8785) holds numbers as IEEE doubles and would record another round; expected a drand round <= %d", *b.BeaconRound, int64(maxExactInteger))
	}
	if b.PlayAtEntry != nil {
		switch {
		case b.PlayAt != "":
			return bodyErr("play_at_entry", "give play_at (the instant play begins) or play_at_entry (the entry that opens it), not both")
		case *b.PlayAtEntry < 1:
			return bodyErr("play_at_entry", "expected the ledger index of the entry that opens play, after the seed-commit's own (>= 1), got %d", *b.PlayAtEntry)
		case *b.PlayAtEntry > maxExactInteger:
			return bodyErr("play_at_entry", "%d is above 2^53-1: the leaf's canonical JSON (RFC 8785) holds numbers as IEEE doubles and would record another index; expected an index <= %d", *b.PlayAtEntry, int64(maxExactInteger))
		}
	}
	if b.BeaconSignature != "" {
		sig := strings.ToLower(b.BeaconSignature)
		if _, err := hex.DecodeString(sig); err != nil {
			return bodyErr("beacon_signature", "not hex (%v); expected the drand round's signature, %d hex digits", err, 2*BeaconSignatureSize)
		}
		if len(sig) != 2*BeaconSignatureSize {
			return bodyErr("beacon_signature", "%d hex digits; expected the drand round's signature, %d hex digits (a compressed BLS12-381 G1 point)", len(sig), 2*BeaconSignatureSize)
		}
		b.BeaconSignature = sig
	}
	for _, f := range []struct {
		name string
		v    string
	}{{"player", b.Player}, {"action_type", b.ActionType}, {"channel", b.Channel},
		{"game", b.Game}, {"match_id", b.MatchID}, {"rules_version", b.RulesVersion}, {"operator", b.Operator}} {
		if err := checkName(f.name, f.v); err != nil {
			return err
		}
	}
	var err error
	if b.Commitment != "" {
		if b.Commitment, err = NormaliseDigest(b.Commitment); err != nil {
			return bodyErr("commitment", "%v", err)
		}
	}
	if b.ReplaySHA256 != "" {
		if b.ReplaySHA256, err = NormaliseDigest(b.ReplaySHA256); err != nil {
			return bodyErr("replay_sha256", "%v", err)
		}
	}
	if b.Seed != "" {
		if b.Seed, err = NormaliseDigest(b.Seed); err != nil {
			return bodyErr("seed", "%v", err)
		}
	}
	if b.BeaconChain != "" {
		if b.BeaconChain, err = NormaliseDigest(b.BeaconChain); err != nil {
			return bodyErr("beacon_chain", "a drand chain hash: %v", err)
		}
	}
	for _, r := range []struct {
		name string
		v    *int64
	}{{"commit", b.Commit}, {"seed_commit", b.SeedCommit}, {"seat", b.Seat}} {
		if r.v != nil && *r.v < 0 {
			return bodyErr(r.name, "expected a ledger index >= 0, got %d", *r.v)
		}
	}
	if b.Game != "" && !games[b.Game] {
		return bodyErr("game", "%q is not a game; expected auction or bargain", b.Game)
	}
	for _, o := range []struct {
		name string
		v    json.RawMessage
	}{{"config", b.Config}, {"summary", b.Summary}} {
		if o.v != nil && (len(o.v) == 0 || o.v[0] != '{') {
			return bodyErr(o.name, "expected a JSON object")
		}
	}
	if b.Kind == KindReveal {
		switch {
		case b.Text != nil && b.TextBase64 != "":
			return bodyErr("text", "give text or text_base64, not both")
		case b.Text == nil && b.TextBase64 == "":
			return bodyErr("text", "required in a reveal entry (or text_base64 for bytes that are not UTF-8)")
		case b.TextBase64 != "":
			raw, err := base64.StdEncoding.Strict().DecodeString(b.TextBase64)
			if err != nil {
				return bodyErr("text_base64", "expected standard padded base64: %v", err)
			}
			if utf8.Valid(raw) {
				return bodyErr("text_base64", "the bytes are valid UTF-8: give them as text")
			}
		}
	}
	return nil
}

// checkName validates a short text field (a player, action type, channel,
// game, match id, rules version): at most maxNameLen bytes, no leading or
// trailing white space, no combining mark (Unicode M) as its first
// character (it would show as a mark on nothing, or on the text before
// the name; RFC 5891 section 5.4 refuses such labels), no control
// characters (Unicode Cc) and no format characters (Cf: zero-width spaces
// and joiners, bidirectional overrides, a BOM), so two names that look the
// same are the same name. Empty means absent and is checked elsewhere.
func checkName(field, v string) error {
	if len(v) > maxNameLen {
		return bodyErr(field, "%d bytes, more than the %d allowed", len(v), maxNameLen)
	}
	if v != "" && strings.TrimSpace(v) == "" {
		return bodyErr(field, "%q is only white space; expected a name with a visible character", v)
	}
	if strings.TrimSpace(v) != v {
		return bodyErr(field, "%q has leading or trailing white space; expected %q", v, strings.TrimSpace(v))
	}
	if first, _ := utf8.DecodeRuneInString(v); unicode.Is(unicode.M, first) {
		return bodyErr(field, "%+q begins with the combining mark %U, which has no character to sit on; expected a name that begins with a letter, digit or symbol (RFC 5891 section 5.4)", v, first)
	}
	for _, r := range v {
		switch {
		case unicode.IsControl(r):
			return bodyErr(field, "contains control character %U", r)
		case commit.Invisible(r):
			return bodyErr(field, "contains the invisible character %U (a name must look like what it is: no format, filler or blank characters)", r)
		}
	}
	return nil
}

// NormaliseDigest accepts a SHA-256 digest as posted and returns its
// canonical form, 64 lowercase hex characters. It is [commit.ParseCommitment],
// the one digest parser of the project (docs/commitments.md, "Parsing a
// posted hash"): 64 hex digits in any case, surrounding white space
// trimmed, an optional "sha256:" prefix in any case, white space after the
// prefix allowed. Anything else is an error saying what it saw and what was
// expected (another algorithm's prefix, a digest of another length, base64,
// a character that is not a hex digit).
func NormaliseDigest(s string) (string, error) {
	c, err := commit.ParseCommitment(s)
	if err != nil {
		return "", err
	}
	return c.String(), nil
}

// Times the ledger stores are Unix nanoseconds in an int64: 1677-09-21
// to 2262-04-11.
var (
	minTime = time.Unix(0, math.MinInt64).UTC()
	maxTime = time.Unix(0, math.MaxInt64).UTC()
)

// ParseTime reads an RFC 3339 date-time, as entries' times (posted_at,
// play_at, reveal_by) and the CLI's time flags take it: the "T" and "Z"
// in either case (RFC 3339 section 5.6 allows lowercase), a numeric
// offset or Z, and at most 9 fractional digits of a second (nanoseconds,
// what a time holds: a tenth digit is refused rather than dropped).
// Errors: one saying which of these s breaks.
func ParseTime(s string) (time.Time, error) {
	b := []byte(s)
	if len(b) > 10 && b[10] == 't' {
		b[10] = 'T'
	}
	if n := len(b); n > 0 && b[n-1] == 'z' {
		b[n-1] = 'Z'
	}
	if i := bytes.IndexByte(b, '.'); i > 0 {
		j := i + 1
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j-i-1 > 9 {
			return time.Time{}, fmt.Errorf("%q has %d fractional digits of a second; expected at most 9 (nanoseconds)", s, j-i-1)
		}
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil || !rfc3339Form(b) {
		// time.Parse alone takes a one-digit hour (T9:15:00Z), which
		// RFC 3339's time-hour (2DIGIT) does not.
		return time.Time{}, fmt.Errorf("%q is not an RFC 3339 time; expected e.g. 2025-03-03T09:15:00Z", s)
	}
	return t, nil
}

// rfc3339Form reports whether b has the form of RFC 3339's date-time
// (section 5.6), "T" and "Z" in upper case: YYYY-MM-DDTHH:MM:SS, optional
// fractional digits, then Z or +HH:MM or -HH:MM. The values' ranges are
// time.Parse's to check.
func rfc3339Form(b []byte) bool {
	const form = "0000-00-00T00:00:00"
	if len(b) < len(form) {
		return false
	}
	for i := range len(form) {
		if form[i] == '0' && (b[i] < '0' || b[i] > '9') || form[i] != '0' && b[i] != form[i] {
			return false
		}
	}
	b = b[len(form):]
	if len(b) > 0 && b[0] == '.' {
		n := 1
		for n < len(b) && b[n] >= '0' && b[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		b = b[n:]
	}
	if len(b) == 1 && b[0] == 'Z' {
		return true
	}
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	return len(b) == 6 && (b[0] == '+' || b[0] == '-') && digit(b[1]) && digit(b[2]) && b[3] == ':' && digit(b[4]) && digit(b[5])
}

// formatTime writes t in TimeLayout; times outside minTime..maxTime are
// refused.
func formatTime(t time.Time) (string, error) {
	t = t.UTC()
	if t.Before(minTime) || t.After(maxTime) {
		return "", fmt.Errorf("time %s is outside the range the ledger stores (%s to %s)",
			t.Format(time.RFC3339), minTime.Format(time.RFC3339), maxTime.Format(time.RFC3339))
	}
	return t.Format(TimeLayout), nil
}

// placeholderTime stands in for integrated_at while the body is made
// canonical in the caller's goroutine; the sequencer overwrites these 30
// bytes with the integration time.
const placeholderTime = "0000-00-00T00:00:00.000000000Z"

// prepared is a validated body ready for the sequencer.
type prepared struct {
	body     *Body
	leaf     []byte // canonical JSON with placeholderTime at tsOff
	tsOff    int
	dedup    [32]byte
	postedAt int64 // Unix ns (negative before 1970), if hasPosted
	// hasPosted: the body has posted_at.
	hasPosted bool
	// skeleton is the player's confusable skeleton (Skeleton) for a
	// commit entry, else "".
	skeleton string
}

// integratedKey is the leaf member the sequencer fills in.
const integratedKey = `"integrated_at":`

// prepare makes the canonical leaf (with a placeholder integration time) and
// the duplicate key of a validated body: the body with the placeholder,
// marshalled and canonicalised by jcs.Transform (RFC 8785).
func prepare(b *Body) (*prepared, error) {
	c := *b
	c.IntegratedAt = placeholderTime
	raw, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	leaf, err := jcs.Transform(raw)
	if err != nil {
		return nil, bodyErr("", "canonicalising: %v", err)
	}
	return finishPrepared(b, leaf, topLevelValue(leaf, "integrated_at"))
}

// prepareCanonical is prepare for a body that parseBody decoded from
// input whose RFC 8785 form is canon: the leaf is canon with the
// normalised members replaced, empty members dropped and integrated_at
// inserted (leafFromCanonical), which is byte for byte what prepare
// makes, without a second canonicalisation. Bodies whose keys are not
// spelled exactly as the fields (encoding/json matches them without
// regard to case) go through prepare.
func prepareCanonical(b *Body, canon []byte) (*prepared, error) {
	leaf, tsOff, ok := leafFromCanonical(b, canon)
	if !ok {
		return prepare(b)
	}
	return finishPrepared(b, leaf, tsOff)
}

// finishPrepared checks the placeholder at tsOff (the offset of the value
// of integrated_at in leaf) and computes the duplicate key and posted_at.
func finishPrepared(b *Body, leaf []byte, tsOff int) (*prepared, error) {
	p := &prepared{body: b, leaf: leaf, tsOff: tsOff}
	if len(leaf) > MaxLeafSize {
		keep := "keep large data out of the entry"
		switch b.Kind {
		case KindResult:
			keep += " (a result's replay goes in the replay store)"
		case KindReveal:
			keep = "a reveal's text must leave room for the entry's other members"
		}
		return nil, bodyErr("", "the leaf would be %d bytes, more than the %d a tlog-tiles entry bundle can hold (docs/ledger.md \"Tiles\"); %s", len(leaf), MaxLeafSize, keep)
	}
	// The value starts after `"integrated_at":`; the member always has a
	// successor ("kind" sorts after it), so a comma follows the value.
	end := p.tsOff + len(placeholderTime) + 2
	if p.tsOff < 0 || end >= len(p.leaf) || string(p.leaf[p.tsOff:end+1]) != `"`+placeholderTime+`",` {
		return nil, errors.New("ledger: internal error: integrated_at not found in canonical body")
	}
	if b.Kind == KindCommit {
		// Rule: a commit is a duplicate when player, action type and
		// commitment are the same (docs/ledger.md "Duplicates").
		var arr [512]byte
		buf := arr[:0]
		for _, s := range [...]string{string(KindCommit), b.Player, b.ActionType, b.Commitment} {
			buf = append(buf, s...)
			buf = append(buf, 0)
		}
		p.dedup = sha256.Sum256(buf)
		p.skeleton = Skeleton(b.Player)
	} else {
		// Any other kind: the canonical body without integrated_at, which
		// is the canonical leaf with that member cut out.
		h := sha256.New()
		h.Write(p.leaf[:p.tsOff-len(integratedKey)])
		h.Write(p.leaf[end+1:])
		h.Sum(p.dedup[:0])
	}
	p.tsOff++ // skip the opening quote
	if b.PostedAt != "" {
		t, err := time.Parse(TimeLayout, b.PostedAt)
		if err != nil {
			return nil, bodyErr("posted_at", "expected a time in the layout %s, got %q", TimeLayout, b.PostedAt)
		}
		p.postedAt, p.hasPosted = t.UnixNano(), true
	}
	return p, nil
}

// leafFromCanonical builds the leaf of the validated body b from canon,
// the RFC 8785 form of the JSON object b was decoded from: canon's
// top-level members in canon's (sorted) order, where members the leaf
// leaves out (empty strings and nulls, which json.Marshal's omitempty
// drops, and the caller's empty integrated_at) are dropped, the
// normalised hex digests and posted_at are replaced by their normalised
// values (ASCII letters and digits, which RFC 8785 writes as they are),
// and "integrated_at":placeholderTime is inserted before the first key
// that sorts after it. The other values are jcs's own output. It returns
// the offset of the integrated_at value, or ok false if a key of canon is
// not exactly a field name (then prepare is used).
func leafFromCanonical(b *Body, canon []byte) (leaf []byte, tsOff int, ok bool) {
	if len(canon) < 2 || canon[0] != '{' || canon[len(canon)-1] != '}' {
		return nil, 0, false
	}
	leaf = make([]byte, 0, len(canon)+len(integratedKey)+len(placeholderTime)+8)
	leaf = append(leaf, '{')
	tsOff = -1
	member := func(key string) {
		if len(leaf) > 1 {
			leaf = append(leaf, ',')
		}
		leaf = append(leaf, '"')
		leaf = append(leaf, key...)
		leaf = append(leaf, '"', ':')
	}
	quoted := func(key, v string) {
		member(key)
		leaf = append(leaf, '"')
		leaf = append(leaf, v...)
		leaf = append(leaf, '"')
	}
	insertTime := func() {
		member("integrated_at")
		tsOff = len(leaf)
		leaf = append(leaf, '"')
		leaf = append(leaf, placeholderTime...)
		leaf = append(leaf, '"')
	}
	i := 1
	for i < len(canon)-1 {
		if canon[i] == ',' {
			i++
		}
		if canon[i] != '"' {
			return nil, 0, false
		}
		k := bytes.IndexByte(canon[i+1:], '"')
		if k < 0 {
			return nil, 0, false
		}
		key := canon[i+1 : i+1+k]
		if bytes.IndexByte(key, '\\') >= 0 || i+k+2 >= len(canon) || canon[i+k+2] != ':' {
			return nil, 0, false
		}
		vs := i + k + 3
		ve := valueEnd(canon, vs)
		if ve < 0 {
			return nil, 0, false
		}
		raw := canon[vs:ve]
		i = ve
		if tsOff < 0 && string(key) > "integrated_at" {
			insertTime()
		}
		var str string // value of a string field, emitted as raw if not empty
		switch string(key) {
		case "kind":
			quoted("kind", string(b.Kind))
			continue
		case "integrated_at":
			if b.IntegratedAt != "" {
				return nil, 0, false
			}
			continue
		case "posted_at", "commitment", "seed", "replay_sha256", "beacon_chain", "play_at", "reveal_by", "beacon_signature":
			var v string
			switch string(key) {
			case "posted_at":
				v = b.PostedAt
			case "beacon_signature":
				v = b.BeaconSignature
			case "beacon_chain":
				v = b.BeaconChain
			case "play_at":
				v = b.PlayAt
			case "reveal_by":
				v = b.RevealBy
			case "commitment":
				v = b.Commitment
			case "seed":
				v = b.Seed
			default:
				v = b.ReplaySHA256
			}
			if v != "" {
				quoted(string(key), v)
			}
			continue
		case "player":
			str = b.Player
		case "action_type":
			str = b.ActionType
		case "channel":
			str = b.Channel
		case "text_base64":
			str = b.TextBase64
		case "game":
			str = b.Game
		case "match_id":
			str = b.MatchID
		case "rules_version":
			str = b.RulesVersion
		case "operator":
			str = b.Operator
		case "commit", "seed_commit", "text", "config", "summary", "beacon_round", "seat", "client_seed", "play_at_entry":
			var set bool
			switch string(key) {
			case "beacon_round":
				set = b.BeaconRound != nil
			case "play_at_entry":
				set = b.PlayAtEntry != nil
			case "seat":
				set = b.Seat != nil
			case "client_seed":
				set = b.ClientSeed != nil
			case "commit":
				set = b.Commit != nil
			case "seed_commit":
				set = b.SeedCommit != nil
			case "text":
				set = b.Text != nil
			case "config":
				set = b.Config != nil
			default:
				set = b.Summary != nil
			}
			if set {
				member(string(key))
				leaf = append(leaf, raw...)
			}
			continue
		default:
			return nil, 0, false
		}
		if str != "" {
			member(string(key))
			leaf = append(leaf, raw...)
		}
	}
	if tsOff < 0 {
		insertTime()
	}
	leaf = append(leaf, '}')
	return leaf, tsOff, true
}

// valueEnd returns the end offset of the JSON value starting at data[i]
// in canonical JSON (no white space), or -1 if it does not end before
// the last byte.
func valueEnd(data []byte, i int) int {
	depth, inString := 0, false
	for ; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
				if depth == 0 {
					return i + 1
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// topLevelValue returns the offset of the value of key in the top-level
// object of the canonical JSON data, or -1. It skips strings (with their
// escapes) and nested values, so a key of the same name inside config or
// summary is not taken for it.
func topLevelValue(data []byte, key string) int {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			// `"key":` at depth 1, compared in place (no allocation:
			// the audit calls this several times per entry).
			if end := i + len(key) + 2; depth == 1 && end < len(data) && data[end-1] == '"' && data[end] == ':' &&
				string(data[i+1:end-1]) == key {
				return end + 1
			}
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	return -1
}

// syntaxContexts words encoding/json's syntax errors ("invalid character
// 'x' <context>") in JSON's terms; %s is the character.
var syntaxContexts = map[string]string{
	"looking for beginning of value":             "%s where a JSON value should begin",
	"after top-level value":                      "%s after the end of the JSON value; expected one JSON object and nothing after it",
	"after object key:value pair":                "%s after an object member; expected ',' or '}'",
	"after object key":                           "%s after a member name; expected ':'",
	"looking for beginning of object key string": "%s where a member name in double quotes should begin",
	"after array element":                        "%s after an array element; expected ',' or ']'",
	"in string literal":                          "%s inside a string; expected control characters escaped (\\n, \\u0001)",
	"in numeric literal":                         "%s inside a number",
	"in string escape code":                      "%s after a backslash in a string; expected one of \" \\ / b f n r t u",
	`in \u hexadecimal character escape`:         `%s in a \u escape; expected 4 hex digits`,
	"after decimal point in numeric literal":     "%s after a decimal point; expected a digit",
	"in exponent of numeric literal":             "%s in a number's exponent; expected a digit",
}

// syntaxMessage says what encoding/json's syntax error se found in data,
// without its wording: the character is quoted as JSON shows it, or
// named by its byte when it is not ASCII (encoding/json would show the
// byte read as Latin-1: 'ï' for the EF of a UTF-8 character).
func syntaxMessage(data []byte, se *json.SyntaxError) string {
	msg := se.Error()
	if msg == "unexpected end of JSON input" {
		return "the text ends before the JSON value is complete (an object, array or string left open)"
	}
	rest, ok := strings.CutPrefix(msg, "invalid character ")
	if !ok || len(rest) < 3 || rest[0] != '\'' {
		return msg
	}
	end := strings.LastIndex(rest, "' ")
	if end < 1 {
		return msg
	}
	char, context := rest[:end+1], rest[end+2:]
	if i := se.Offset - 1; i >= 0 && i < int64(len(data)) && data[i] >= utf8.RuneSelf {
		char = fmt.Sprintf("byte 0x%02X", data[i])
	}
	if strings.HasPrefix(context, "in literal ") {
		return char + " inside the literal " + strings.Fields(strings.TrimPrefix(context, "in literal "))[0] + "; expected true, false or null"
	}
	if f, ok := syntaxContexts[context]; ok {
		return fmt.Sprintf(f, char)
	}
	return "unexpected " + char + " " + context
}

// canonicalError says, in JSON's terms, why RFC 8785 canonicalisation
// (github.com/gowebpki/jcs) refused data: encoding/json's syntax error
// with its byte offset when data is not JSON at all, else what RFC 8785
// refuses in JSON that parses (a member twice, an unpaired surrogate,
// bytes that are not UTF-8, a number no IEEE double holds).
func canonicalError(data []byte, err error) string {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return "the body starts with a UTF-8 byte order mark (EF BB BF); expected JSON without it (RFC 8259, section 8.1)"
	}
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		return "empty body; expected a JSON object"
	}
	var v any
	var se *json.SyntaxError
	if uerr := json.Unmarshal(data, &v); errors.As(uerr, &se) {
		return fmt.Sprintf("not valid JSON at byte %d: %s", se.Offset, syntaxMessage(data, se))
	} else if uerr != nil && !json.Valid(data) {
		return "not valid JSON: " + uerr.Error()
	}
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "Duplicate key: "):
		return fmt.Sprintf("the member %s appears twice in one object; expected each member once (RFC 8785)", strings.TrimPrefix(msg, "Duplicate key: "))
	case strings.Contains(msg, "surrogate"):
		return "a string holds an unpaired UTF-16 surrogate escape (\\uD800-\\uDFFF); expected whole Unicode characters (RFC 8785)"
	case strings.HasPrefix(msg, "Invalid UTF-8"):
		return "a string is not valid UTF-8; expected UTF-8 text (RFC 8785)"
	case strings.HasPrefix(msg, "Number out of range"), strings.HasPrefix(msg, "Invalid JSON number"), strings.HasPrefix(msg, "Invalid literal or number"):
		return "a number is outside what an IEEE double holds; expected a number RFC 8785 can write"
	case strings.HasPrefix(msg, "Maximum nesting depth"):
		return "the JSON nests deeper than RFC 8785 canonicalisation allows; expected a flat entry body"
	}
	if msg != "" {
		msg = strings.ToLower(msg[:1]) + msg[1:]
	}
	return "not valid JSON for RFC 8785: " + msg
}
