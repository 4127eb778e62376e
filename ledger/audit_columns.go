package ledger

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// checkColumns compares the lookup columns of a stored entry (kind,
// posted_at, ref, commitment) with the top-level members of its leaf, of
// which they are copies: rulings and lookups read the columns, the tree
// signs the leaf. It returns what differs, or "". Stores that implement
// ColumnChecker run the same comparison themselves.
func checkColumns(e *StoredEntry) string {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(e.Leaf, &top); err != nil {
		return fmt.Sprintf("the leaf is not a JSON object: %v", err)
	}
	str := func(k string) (string, bool) {
		raw, ok := top[k]
		if !ok {
			return "", false
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return s, true
	}
	lkind, _ := str("kind")
	lref := int64(-1)
	for _, k := range []string{"commit", "seed_commit"} {
		if raw, ok := top[k]; ok {
			if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
				lref = v
			}
		}
	}
	lcommitment := ""
	if lkind == string(KindCommit) {
		lcommitment, _ = str("commitment")
	}
	lposted, hasPosted := str("posted_at")
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
