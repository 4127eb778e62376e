package ledger

import (
	"bytes"
)

// The top-level members of a leaf the audit reads, found in one scan of
// the leaf instead of one scan per member (the audit reads up to nine
// per entry).

// The members of memberKeys, by index.
const (
	mKind = iota
	mIntegratedAt
	mPlayer
	mActionType
	mCommitment
	mReplay
	mPostedAt
	mCommit
	mSeedCommit
	nMembers
)

// memberKeys are the top-level member names leafMembers finds.
var memberKeys = [nMembers]string{"kind", "integrated_at", "player", "action_type", "commitment", "replay_sha256", "posted_at", "commit", "seed_commit"}

// leafMembers holds, for each of memberKeys, the offset of its value in
// the leaf exactly as topLevelValue(leaf, key) returns it (the first
// member of that name at the top level), or -1.
type leafMembers [nMembers]int

// memberIndex is the index of key in memberKeys, or -1.
func memberIndex(key []byte) int {
	switch string(key) {
	case "kind":
		return mKind
	case "integrated_at":
		return mIntegratedAt
	case "player":
		return mPlayer
	case "action_type":
		return mActionType
	case "commitment":
		return mCommitment
	case "replay_sha256":
		return mReplay
	case "posted_at":
		return mPostedAt
	case "commit":
		return mCommit
	case "seed_commit":
		return mSeedCommit
	}
	return -1
}

// scanMembers fills m from data in one pass, with topLevelValue's rules:
// strings (with their escapes) and nested values are skipped, and a
// quote at depth 1 followed by a member name, a quote and a colon starts
// that member's value. plain reports that data is one object, its
// brackets balanced, ending at its last byte, with none of the names
// twice at the top level: a leaf on which any JSON reader finds the same
// members (the audit's fast column check accepts no other).
func scanMembers(data []byte, m *leafMembers) (plain bool) {
	for k := range m {
		m[k] = -1
	}
	plain = len(data) > 0 && data[0] == '{'
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			// Up to the next quote at once, unless a backslash comes
			// first (then past it and the byte it escapes).
			rest := data[i:]
			q := bytes.IndexByte(rest, '"')
			if q < 0 {
				q = len(rest)
			}
			if b := bytes.IndexByte(rest[:q], '\\'); b >= 0 {
				i += b + 1
				continue
			}
			i += q
			inString = i >= len(data)
			continue
		}
		switch c {
		case '"':
			if depth == 1 {
				// The names have no quote: the next quote ends the
				// candidate, as topLevelValue compares it.
				if j := bytes.IndexByte(data[i+1:], '"'); j >= 0 {
					q := i + 1 + j
					if q+1 < len(data) && data[q+1] == ':' {
						if k := memberIndex(data[i+1 : q]); k >= 0 && m[k] < 0 {
							m[k] = q + 2
						} else if k >= 0 {
							plain = false
						}
					}
				}
			}
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 && i != len(data)-1 {
				plain = false
			}
		}
	}
	return plain && depth == 0 && !inString
}

// raw is the raw value of member k, as topLevel returns it, or nil.
func (m *leafMembers) raw(leaf []byte, k int) []byte {
	i := m[k]
	if i < 0 {
		return nil
	}
	if i < len(leaf) && leaf[i] == '"' {
		// A string without a backslash ends at the next quote.
		if q := bytes.IndexByte(leaf[i+1:], '"'); q >= 0 && bytes.IndexByte(leaf[i+1:i+1+q], '\\') < 0 {
			return leaf[i : i+q+2]
		}
	}
	j := valueEnd(leaf, i)
	if j < 0 {
		return nil
	}
	return leaf[i:j]
}

// str is the string value of member k, as topLevelString returns it.
func (m *leafMembers) str(leaf []byte, k int) (string, bool) {
	return jsonString(m.raw(leaf, k))
}

// bytes is str as bytes, a slice of the leaf when the string has no
// escape (no allocation).
func (m *leafMembers) bytes(leaf []byte, k int) ([]byte, bool) {
	raw := m.raw(leaf, k)
	if len(raw) < 2 || raw[0] != '"' {
		return nil, false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], true
	}
	s, ok := m.str(leaf, k)
	return []byte(s), ok
}

// kindOf is the Kind of a leaf's kind member, without allocating for the
// kinds the ledger writes.
func kindOf(b []byte) Kind {
	for _, k := range [...]Kind{KindCommit, KindReveal, KindResult} {
		if string(b) == string(k) {
			return k
		}
	}
	return Kind(b)
}
