package ledger

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// The lookup-column check's fast path: the columns of a chunk read with
// EntryChunk.Columns compared with the leaves by the leaf checker, in Go,
// in the scan of the leaf it makes anyway. It accepts only leaves whose
// members every reader sees alike (scanMembers' plain), values in the one
// form the ledger writes them, and columns of exactly the expected
// storage classes; anything else, in any chunk, leaves the check to the
// store's own (ColumnChecker, json_extract in SQLite) over the whole log,
// which decides and names the problem as before.

// chunkColumns walks the columns of one chunk, row by row.
type chunkColumns struct {
	kinds, posted, refs, commitments []byte
	commitmentRows                   int64 // the rows expected to have a commitment
}

// startColumns checks a chunk's column aggregates for n rows; ok is false
// if they cannot show every row's columns.
func startColumns(e *EntryChunk, n int64) (chunkColumns, bool) {
	if !e.HasColumns || e.KindRows != n {
		return chunkColumns{}, false
	}
	t := strings.Fields(e.Types)
	if len(t) != 6 || t[0] != "text" || t[1] != "text" ||
		(t[2] != "integer" && t[2] != "null") || (t[3] != "integer" && t[3] != "null") ||
		t[4] != t[5] || (t[4] != "text" && t[4] != "null") {
		return chunkColumns{}, false
	}
	return chunkColumns{kinds: e.Kinds, posted: e.PostedAts, refs: e.Refs, commitments: e.Commitments}, true
}

// cutToken cuts the next comma-separated value from p (the whole rest if
// last).
func cutToken(p *[]byte, last bool) ([]byte, bool) {
	if last {
		t := *p
		*p = nil
		return t, true
	}
	i := bytes.IndexByte(*p, ',')
	if i < 0 {
		return nil, false
	}
	t := (*p)[:i]
	*p = (*p)[i+1:]
	return t, true
}

// knownKinds are the kinds the ledger writes.
var knownKinds = [...]Kind{KindCommit, KindReveal, KindEdit, KindSeedCommit, KindSeedReveal, KindResult, KindContribution}

// row compares the next row's columns with its leaf (members m, kind
// its kind member); false if they differ or the leaf is not one the fast
// path reads.
func (c *chunkColumns) row(leaf []byte, m *leafMembers, kind Kind, last bool) bool {
	known := false
	for _, k := range knownKinds {
		known = known || kind == k
	}
	tk, ok1 := cutToken(&c.kinds, last)
	tp, ok2 := cutToken(&c.posted, last)
	tr, ok3 := cutToken(&c.refs, last)
	tc, ok4 := cutToken(&c.commitments, last)
	if !known || !ok1 || !ok2 || !ok3 || !ok4 || string(tk) != string(kind) {
		return false
	}
	// posted_at: TimeLayout exactly, as Unix nanoseconds.
	if m[mPostedAt] < 0 {
		if len(tp) != 0 {
			return false
		}
	} else {
		s, ok := m.bytes(leaf, mPostedAt)
		if !ok || len(s) != len(TimeLayout) {
			return false
		}
		t, err := time.Parse(TimeLayout, string(s))
		if err != nil || t.Format(TimeLayout) != string(s) {
			return false
		}
		var buf [20]byte
		if string(strconv.AppendInt(buf[:0], t.UnixNano(), 10)) != string(tp) {
			return false
		}
	}
	if !refMatches(leaf, m, tr) {
		return false
	}
	// commitment: a commit's, non-empty text; NULL for other kinds.
	if kind == KindCommit && m[mCommitment] >= 0 {
		v, ok := m.bytes(leaf, mCommitment)
		if !ok || len(v) == 0 || bytes.IndexByte(v, ',') >= 0 || !bytes.Equal(v, tc) {
			return false
		}
		c.commitmentRows++
	} else if len(tc) != 0 {
		return false
	}
	return true
}

// refMatches reports whether tr, a row's ref column as a chunk
// aggregates it (decimal, or empty for NULL), is its leaf's commit or
// seed_commit member (at most one of them, a plain integer), or empty
// when the leaf has neither.
func refMatches(leaf []byte, m *leafMembers, tr []byte) bool {
	rc, rs := m.raw(leaf, mCommit), m.raw(leaf, mSeedCommit)
	switch {
	case m[mCommit] >= 0 && m[mSeedCommit] >= 0:
		return false
	case m[mCommit] >= 0:
		return plainInt(rc) && bytes.Equal(rc, tr)
	case m[mSeedCommit] >= 0:
		return plainInt(rs) && bytes.Equal(rs, tr)
	}
	return len(tr) == 0
}

// done reports whether every value of the chunk was compared and the
// non-NULL commitments are the expected ones.
func (c *chunkColumns) done(e *EntryChunk) bool {
	return len(c.kinds) == 0 && len(c.posted) == 0 && len(c.refs) == 0 && len(c.commitments) == 0 &&
		c.commitmentRows == e.CommitmentRows
}

// plainInt reports whether raw is an integer as JSON and SQLite write it
// and int64 holds: -?(0|[1-9][0-9]*), at most 18 digits.
func plainInt(raw []byte) bool {
	d := raw
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 || (d[0] == '0' && len(d) > 1) || (len(raw) != len(d) && d[0] == '0') {
		return false
	}
	for _, b := range d {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}
