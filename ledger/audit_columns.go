package ledger

import (
	"bytes"
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
	raw := topLevel(leaf, key)
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
	lkind, _ := topLevelString(e.Leaf, "kind")
	lref := int64(-1)
	for _, k := range []string{"commit", "seed_commit"} {
		if raw := topLevel(e.Leaf, k); raw != nil {
			if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
				lref = v
			}
		}
	}
	lcommitment := ""
	if lkind == string(KindCommit) {
		lcommitment, _ = topLevelString(e.Leaf, "commitment")
	}
	lposted, hasPosted := topLevelString(e.Leaf, "posted_at")
	var lpostedNS int64
	postedOK := !hasPosted
	if hasPosted {
		if t, err := time.Parse(TimeLayout, lposted); err == nil {
			lpostedNS, postedOK = t.UnixNano(), true
		}
	}
	if string(e.Kind) == lkind && e.Ref == lref && e.Commitment == lcommitment &&
		postedOK && e.HasPostedAt == hasPosted && (!hasPosted || e.PostedAt == lpostedNS) {
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
