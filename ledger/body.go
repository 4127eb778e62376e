package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// Kind names an entry kind (docs/ledger.md, "Entries").
type Kind string

// The entry kinds. DESIGN.md "Ledger"; seed 004 (secret actions) for
// commit, reveal and edit.
const (
	KindCommit     Kind = "commit"      // a secret action's commitment, posted by a player
	KindReveal     Kind = "reveal"      // the revealed text of a commit entry
	KindEdit       Kind = "edit"        // the post holding a commitment was edited (rule S4)
	KindSeedCommit Kind = "seed-commit" // a game server's commitment to its RNG seed
	KindSeedReveal Kind = "seed-reveal" // the seed of a seed-commit entry
	KindResult     Kind = "result"      // digest and summary of a match replay
)

// Games accepted in the game field of seed-commit and result entries.
var games = map[string]bool{"auction": true, "bargain": true}

// MaxBodySize is the largest entry body accepted, in bytes of input JSON
// (1 MiB).
const MaxBodySize = 1 << 20

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
// edit, the seed_commit of a seed-reveal) and the kind it must have; ok is
// false for kinds that refer to nothing.
func (b *Body) Ref() (index int64, kind Kind, ok bool) {
	switch b.Kind {
	case KindReveal, KindEdit:
		if b.Commit != nil {
			return *b.Commit, KindCommit, true
		}
	case KindSeedReveal:
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
	if len(data) > MaxBodySize {
		return nil, bodyErr("", "%d bytes, more than the %d allowed", len(data), MaxBodySize)
	}
	// RFC 8785 parsing first: refuses duplicate keys, invalid UTF-8 and lone
	// surrogates, which encoding/json would silently accept or replace.
	if _, err := jcs.Transform(data); err != nil {
		return nil, bodyErr("", "not valid JSON for RFC 8785 canonicalisation: %v", err)
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, bodyErr("", "expected a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Body
	if err := dec.Decode(&b); err != nil {
		return nil, bodyErr("", "%v", err)
	}
	if err := b.normalise(); err != nil {
		return nil, err
	}
	return &b, nil
}

// fieldSet lists, per kind, the fields it requires and those it allows.
var kindFields = map[Kind]struct{ required, optional []string }{
	KindCommit:     {[]string{"player", "action_type", "channel", "commitment"}, nil},
	KindReveal:     {[]string{"commit", "player"}, []string{"text", "text_base64"}},
	KindEdit:       {[]string{"commit", "player"}, nil},
	KindSeedCommit: {[]string{"game", "match_id", "rules_version", "config", "commitment"}, nil},
	KindSeedReveal: {[]string{"seed_commit", "seed"}, nil},
	KindResult:     {[]string{"game", "match_id", "replay_sha256", "summary"}, nil},
}

// present reports which kind-specific fields of b are set.
func (b *Body) present() map[string]bool {
	p := map[string]bool{
		"player": b.Player != "", "action_type": b.ActionType != "", "channel": b.Channel != "",
		"commitment": b.Commitment != "", "commit": b.Commit != nil, "text": b.Text != nil,
		"text_base64": b.TextBase64 != "", "game": b.Game != "", "match_id": b.MatchID != "",
		"rules_version": b.RulesVersion != "", "config": b.Config != nil,
		"seed_commit": b.SeedCommit != nil, "seed": b.Seed != "",
		"replay_sha256": b.ReplaySHA256 != "", "summary": b.Summary != nil,
	}
	return p
}

// normalise validates b in place (see ParseBody).
func (b *Body) normalise() error {
	spec, ok := kindFields[b.Kind]
	if !ok {
		return bodyErr("kind", "%q is not an entry kind; expected commit, reveal, edit, seed-commit, seed-reveal or result", b.Kind)
	}
	if b.IntegratedAt != "" {
		return bodyErr("integrated_at", "set by the ledger, not by the caller")
	}
	allowed := map[string]bool{}
	for _, f := range spec.required {
		allowed[f] = true
	}
	for _, f := range spec.optional {
		allowed[f] = true
	}
	p := b.present()
	for _, f := range spec.required {
		if !p[f] {
			return bodyErr(f, "required in a %s entry", b.Kind)
		}
	}
	for f, set := range p {
		if set && !allowed[f] {
			return bodyErr(f, "not allowed in a %s entry", b.Kind)
		}
	}
	if b.PostedAt != "" {
		t, err := time.Parse(time.RFC3339Nano, b.PostedAt)
		if err != nil {
			return bodyErr("posted_at", "expected an RFC 3339 time such as 2025-03-03T09:15:00Z, got %q", b.PostedAt)
		}
		s, err := formatTime(t)
		if err != nil {
			return bodyErr("posted_at", "%v", err)
		}
		b.PostedAt = s
	}
	for _, f := range []struct {
		name string
		v    string
	}{{"player", b.Player}, {"action_type", b.ActionType}, {"channel", b.Channel},
		{"game", b.Game}, {"match_id", b.MatchID}, {"rules_version", b.RulesVersion}} {
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
	for _, r := range []struct {
		name string
		v    *int64
	}{{"commit", b.Commit}, {"seed_commit", b.SeedCommit}} {
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

// checkName validates a short text field: at most maxNameLen bytes, no
// control characters (empty means absent and is checked elsewhere).
func checkName(field, v string) error {
	if len(v) > maxNameLen {
		return bodyErr(field, "%d bytes, more than the %d allowed", len(v), maxNameLen)
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return bodyErr(field, "contains control character %U", r)
		}
	}
	return nil
}

// NormaliseDigest accepts a SHA-256 digest as posted (DESIGN.md "Reveal
// text and commitment": any case, surrounding white space trimmed, an
// optional "sha256:" prefix) and returns its canonical form, 64 lowercase
// hex characters. Anything else is an error saying what was expected.
func NormaliseDigest(s string) (string, error) {
	t := strings.TrimSpace(s)
	if len(t) >= 7 && strings.EqualFold(t[:7], "sha256:") {
		t = t[7:]
	}
	if len(t) != 64 {
		return "", fmt.Errorf("expected 64 hex characters (optionally prefixed sha256:), got %d characters in %q", len(t), s)
	}
	out := []byte(strings.ToLower(t))
	for _, c := range out {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", fmt.Errorf("expected 64 hex characters, got %q", s)
		}
	}
	return string(out), nil
}

// Times the ledger stores are Unix nanoseconds in an int64: 1677-09-21
// to 2262-04-11.
var (
	minTime = time.Unix(0, math.MinInt64).UTC()
	maxTime = time.Unix(0, math.MaxInt64).UTC()
)

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
	postedAt int64 // Unix ns, or -1
}

// prepare makes the canonical leaf (with a placeholder integration time) and
// the duplicate key of a validated body.
func prepare(b *Body) (*prepared, error) {
	c := *b
	c.IntegratedAt = placeholderTime
	raw, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	p := &prepared{body: b, postedAt: -1}
	if p.leaf, err = jcs.Transform(raw); err != nil {
		return nil, bodyErr("", "canonicalising: %v", err)
	}
	// The value starts after `"integrated_at":`; the member always has a
	// successor ("kind" sorts after it), so a comma follows the value.
	const key = `"integrated_at":`
	p.tsOff = topLevelValue(p.leaf, "integrated_at")
	end := p.tsOff + len(placeholderTime) + 2
	if p.tsOff < 0 || end >= len(p.leaf) || string(p.leaf[p.tsOff:end+1]) != `"`+placeholderTime+`",` {
		return nil, errors.New("ledger: internal error: integrated_at not found in canonical body")
	}
	if b.Kind == KindCommit {
		// Rule: a commit is a duplicate when player, action type and
		// commitment are the same (docs/ledger.md "Duplicates").
		h := sha256.New()
		for _, s := range []string{string(KindCommit), b.Player, b.ActionType, b.Commitment} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		copy(p.dedup[:], h.Sum(nil))
	} else {
		// Any other kind: the canonical body without integrated_at, which
		// is the canonical leaf with that member cut out.
		h := sha256.New()
		h.Write(p.leaf[:p.tsOff-len(key)])
		h.Write(p.leaf[end+1:])
		copy(p.dedup[:], h.Sum(nil))
	}
	p.tsOff++ // skip the opening quote
	if b.PostedAt != "" {
		t, _ := time.Parse(TimeLayout, b.PostedAt)
		p.postedAt = t.UnixNano()
	}
	return p, nil
}

// topLevelValue returns the offset of the value of key in the top-level
// object of the canonical JSON data, or -1. It skips strings (with their
// escapes) and nested values, so a key of the same name inside config or
// summary is not taken for it.
func topLevelValue(data []byte, key string) int {
	want := `"` + key + `":`
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
			if depth == 1 && bytes.HasPrefix(data[i:], []byte(want)) {
				return i + len(want)
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
