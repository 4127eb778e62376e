package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// topLevel returns the raw value of key among the top-level members of
// the canonical JSON leaf, or nil.
func topLevel(leaf []byte, key string) []byte {
	i := topLevelValue(leaf, key)
	if i < 0 {
		return nil
	}
	j := valueEnd(leaf, i)
	if j < 0 {
		return nil
	}
	return leaf[i:j]
}

// topLevelString returns the string value of key at the leaf's top level;
// ok is false if there is none or it is not a string.
func topLevelString(leaf []byte, key string) (string, bool) {
	return jsonString(topLevel(leaf, key))
}

// jsonString decodes raw, a JSON value, as a string; ok is false if it is
// not one.
func jsonString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// checkColumns compares the lookup columns of a stored entry (kind,
// posted_at, ref, commitment) with the top-level members of its leaf, of
// which they are copies: rulings and lookups read the columns, the tree
// signs the leaf. It returns what differs, or "". Stores that implement
// ColumnChecker run the same comparison themselves.
func checkColumns(e *StoredEntry) string {
	// One scan finds every member compared (scanMembers keeps the first
	// of each name, as topLevel does).
	var m leafMembers
	scanMembers(e.Leaf, &m)
	lkind, _ := m.str(e.Leaf, mKind)
	lref := leafRef(e.Leaf, &m)
	lcommitment := ""
	if lkind == string(KindCommit) {
		lcommitment, _ = m.str(e.Leaf, mCommitment)
	}
	lposted, hasPosted := m.str(e.Leaf, mPostedAt)
	var lpostedNS int64
	postedOK := !hasPosted
	if hasPosted {
		if t, err := time.Parse(TimeLayout, lposted); err == nil {
			lpostedNS, postedOK = t.UnixNano(), true
		}
	}
	if string(e.Kind) == lkind && e.Ref == lref && e.Commitment == lcommitment &&
		postedOK && e.HasPostedAt == hasPosted && (!hasPosted || e.PostedAt == lpostedNS) {
		if d, ok := dedupOfMembers(Kind(lkind), e.Leaf, &m); !ok || !bytes.Equal(d[:], e.Dedup) {
			return fmt.Sprintf("the stored dedup column %x is not the duplicate key of the leaf, %x", e.Dedup, d)
		}
		return ""
	}
	show := func(ok bool, v any) string {
		if !ok {
			return "none"
		}
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("the stored columns disagree with the leaf: kind %q (leaf %q), posted_at %s (leaf %s), ref %s (leaf %s), commitment %s (leaf %s)",
		e.Kind, lkind, show(e.HasPostedAt, e.PostedAt), show(hasPosted, strconv.Quote(lposted)),
		show(e.Ref >= 0, e.Ref), show(lref >= 0, lref), show(e.Commitment != "", strconv.Quote(e.Commitment)), show(lcommitment != "", strconv.Quote(lcommitment)))
}

// leafRef is the ref column's value for a leaf (members m): its
// seed_commit member if it has an integer one, else its commit member if
// it has an integer one, else -1 (NULL).
func leafRef(leaf []byte, m *leafMembers) int64 {
	ref := int64(-1)
	for _, k := range [...]int{mCommit, mSeedCommit} {
		if raw := m.raw(leaf, k); raw != nil {
			if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
				ref = v
			}
		}
	}
	return ref
}

// dedupOfLeaf recomputes the duplicate key of a canonical leaf
// (docs/ledger.md "Duplicates"; finishPrepared computes it at append): for
// a commit, SHA-256 of kind, player, action type and commitment, each
// followed by a NUL byte; for any other kind, SHA-256 of the leaf without
// its integrated_at member. ok is false for a leaf without the members.
func dedupOfLeaf(kind Kind, leaf []byte) (d [32]byte, ok bool) {
	var m leafMembers
	scanMembers(leaf, &m)
	return dedupOfMembers(kind, leaf, &m)
}

// dedupOfMembers is dedupOfLeaf with the leaf's members already found.
func dedupOfMembers(kind Kind, leaf []byte, m *leafMembers) (d [32]byte, ok bool) {
	if kind == KindCommit {
		var arr [512]byte
		buf := arr[:0]
		buf = append(append(buf, KindCommit...), 0)
		for _, k := range [...]int{mPlayer, mActionType, mCommitment} {
			v, ok := m.bytes(leaf, k)
			if !ok {
				return d, false
			}
			buf = append(append(buf, v...), 0)
		}
		return sha256.Sum256(buf), true
	}
	start := m[mIntegratedAt]
	end := start + len(placeholderTime) + 2 // the comma after the value
	if start < len(integratedKey) || end >= len(leaf) || leaf[end] != ',' {
		return d, false
	}
	h := sha256.New()
	h.Write(leaf[:start-len(integratedKey)])
	h.Write(leaf[end+1:])
	h.Sum(d[:0])
	return d, true
}
