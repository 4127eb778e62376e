package verify

import (
	"encoding/base64"
	"unicode/utf8"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
)

// The secret-action entries' fast path: a commit, reveal or edit leaf in
// the one form the ledger writes (canonical JSON: one object, no white
// space, each member once, strings without escapes) is read without
// encoding/json's reflection. Anything else (an escape, a member of
// another name or type, a number that is not a plain index, a commitment
// not in lowercase hex) is left to addEntry, which decides, so the fast
// path can only give what addEntry gives (FuzzAddEntryFast).

// The members the fast path reads, as bits of its seen set.
const (
	fKind = 1 << iota
	fIntegratedAt
	fPostedAt
	fPlayer
	fActionType
	fChannel
	fCommitment
	fCommit
	fText
	fTextBase64
)

// secretLeaf is what the fast path found in a leaf: the raw bytes of each
// string member (a slice of the leaf) and the commit index.
type secretLeaf struct {
	seen                                    int
	player, actionType, channel, commitment []byte
	text, textBase64                        []byte
	commit                                  int64
}

// memberBit is the bit of a member name the fast path reads, or 0.
func memberBit(key []byte) int {
	switch string(key) {
	case "kind":
		return fKind
	case "integrated_at":
		return fIntegratedAt
	case "posted_at":
		return fPostedAt
	case "player":
		return fPlayer
	case "action_type":
		return fActionType
	case "channel":
		return fChannel
	case "commitment":
		return fCommitment
	case "commit":
		return fCommit
	case "text":
		return fText
	case "text_base64":
		return fTextBase64
	}
	return 0
}

// scanSecretLeaf reads leaf into s; false if it is not in the form the
// fast path reads.
func scanSecretLeaf(leaf []byte, s *secretLeaf) bool {
	n := len(leaf)
	if n < 2 || leaf[0] != '{' || leaf[n-1] != '}' {
		return false
	}
	i := 1
	for {
		// "name":
		if i >= n || leaf[i] != '"' {
			return false
		}
		k := plainString(leaf, i)
		if k < 0 || k+1 >= n || leaf[k+1] != ':' {
			return false
		}
		bit := memberBit(leaf[i+1 : k])
		if bit == 0 || s.seen&bit != 0 {
			return false
		}
		s.seen |= bit
		i = k + 2
		if i >= n {
			return false
		}
		if bit == fCommit {
			j, v, ok := plainIndex(leaf, i)
			if !ok {
				return false
			}
			s.commit, i = v, j
		} else {
			if leaf[i] != '"' {
				return false
			}
			j := plainString(leaf, i)
			if j < 0 {
				return false
			}
			v := leaf[i+1 : j]
			switch bit {
			case fPlayer:
				s.player = v
			case fActionType:
				s.actionType = v
			case fChannel:
				s.channel = v
			case fCommitment:
				s.commitment = v
			case fText:
				s.text = v
			case fTextBase64:
				s.textBase64 = v
			}
			i = j + 1
		}
		switch {
		case i == n-1: // the closing brace
			return true
		case i < n-1 && leaf[i] == ',':
			i++
		default:
			return false
		}
	}
}

// plainString returns the index of the quote closing the string that
// opens at leaf[i], or -1 if it holds an escape, a control character or
// invalid UTF-8 (which encoding/json would refuse or replace) or does not
// end.
func plainString(leaf []byte, i int) int {
	var high uint8
	for j := i + 1; j < len(leaf); j++ {
		c := leaf[j]
		switch stringClass[c] {
		case 0:
			continue
		case 1: // the closing quote
			if high != 0 && !utf8.Valid(leaf[i+1:j]) {
				return -1
			}
			return j
		case 2: // a backslash or a control character
			return -1
		}
		high = 1
	}
	return -1
}

// stringClass sorts the bytes of a JSON string for plainString: 0 plain
// ASCII, 1 the quote, 2 a backslash or control character, 3 a byte of a
// multi-byte UTF-8 sequence.
var stringClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == '"':
			t[c] = 1
		case c == '\\' || c < 0x20:
			t[c] = 2
		case c >= 0x80:
			t[c] = 3
		}
	}
	return t
}()

// plainIndex reads a non-negative integer at leaf[i] as the ledger writes
// an index (no sign, no leading zero, at most 18 digits): the index after
// it and its value.
func plainIndex(leaf []byte, i int) (int, int64, bool) {
	var v int64
	j := i
	for ; j < len(leaf) && leaf[j] >= '0' && leaf[j] <= '9'; j++ {
		v = v*10 + int64(leaf[j]-'0')
	}
	if d := j - i; d == 0 || d > 18 || (d > 1 && leaf[i] == '0') {
		return 0, 0, false
	}
	return j, v, true
}

// lowerHex64 decodes 64 lowercase hex digits, the form in which the
// ledger writes a commitment (which commit.ParseCommitment reads alike).
func lowerHex64(b []byte) (c commit.Commitment, ok bool) {
	if len(b) != 64 {
		return c, false
	}
	var bad uint8
	for k := range c {
		hi, lo := lowerHexVal[b[2*k]], lowerHexVal[b[2*k+1]]
		bad |= hi | lo
		c[k] = hi<<4 | lo&0x0f
	}
	return c, bad&0x80 == 0
}

// lowerHexVal is the value of a lowercase hex digit, 0x80 for any other
// byte.
var lowerHexVal = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= '0' && c <= '9':
			t[c] = uint8(c - '0')
		case c >= 'a' && c <= 'f':
			t[c] = uint8(c - 'a' + 10)
		default:
			t[c] = 0x80
		}
	}
	return t
}()

// addEntryFast is addEntry for a commit, reveal or edit entry whose leaf
// the fast path reads; false (h unchanged) for any other, which addEntry
// then reads.
func addEntryFast(h *secret.History, e *ledger.Entry) bool {
	switch e.Kind {
	case ledger.KindCommit, ledger.KindReveal, ledger.KindEdit:
	default:
		return false
	}
	var s secretLeaf
	if !scanSecretLeaf(e.Leaf, &s) {
		return false
	}
	st := secret.Stamp{Index: e.Index, IntegratedAt: e.IntegratedAt, PostedAt: e.PostedAt}
	switch e.Kind {
	case ledger.KindCommit:
		c, ok := lowerHex64(s.commitment)
		if !ok {
			return false
		}
		h.Posts = append(h.Posts, secret.Post{Stamp: st, Player: string(s.player), ActionType: string(s.actionType), Channel: string(s.channel), Commitment: c})
	case ledger.KindReveal:
		if s.seen&fCommit == 0 {
			return false
		}
		var text []byte
		if s.seen&fText != 0 {
			t := string(s.text)
			text = []byte(t)
		} else {
			var err error
			if text, err = base64.StdEncoding.DecodeString(string(s.textBase64)); err != nil {
				return false
			}
		}
		h.Reveals = append(h.Reveals, secret.Reveal{Stamp: st, Commit: s.commit, Player: string(s.player), Text: text})
	case ledger.KindEdit:
		if s.seen&fCommit == 0 {
			return false
		}
		h.Edits = append(h.Edits, secret.Edit{Stamp: st, Commit: s.commit, Player: string(s.player)})
	}
	return true
}
