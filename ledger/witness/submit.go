package witness

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sealedhq/sealed/ledger"
	"golang.org/x/mod/sumdb/tlog"
)

// ConflictError is an add-checkpoint answer of 409 Conflict: the witness
// last cosigned a tree of Size entries, not the old size sent.
type ConflictError struct {
	Witness string
	Size    int64
}

// Error names the witness and the size it last cosigned.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("witness %s: 409 Conflict: it last cosigned size %d", e.Witness, e.Size)
}

// RefusedError is any other add-checkpoint answer that is not 200: the
// witness, the HTTP status and the start of the body.
type RefusedError struct {
	Witness string
	Status  int
	Body    string
}

// Error names the witness, the status and what it means, and the
// answer's body (at most 200 bytes).
func (e *RefusedError) Error() string {
	why := map[int]string{
		http.StatusNotFound:            "the witness does not know this log's origin",
		http.StatusForbidden:           "the witness does not trust this log's key",
		http.StatusUnprocessableEntity: "the checkpoint is not consistent with what the witness cosigned (a fork or a rollback?)",
		http.StatusBadRequest:          "the witness found the request malformed",
	}[e.Status]
	if why == "" {
		why = "unexpected answer"
	}
	return fmt.Sprintf("witness %s: %d %s: %s (%q)", e.Witness, e.Status, http.StatusText(e.Status), why, e.Body)
}

// AddCheckpoint posts one add-checkpoint request (C2SP tlog-witness) to
// w: old size, consistency proof lines, a blank line and the signed
// checkpoint. It returns the cosignatures of w in the answer, verified
// against the checkpoint (lines by other keys are ignored). Errors:
// *ConflictError on 409, *RefusedError on any other status, an error if
// the answer holds no valid cosignature of w, or one with timestamp 0.
func AddCheckpoint(ctx context.Context, hc *http.Client, w *Witness, oldSize int64, proof tlog.TreeProof, signed []byte) ([]Cosignature, error) {
	var body bytes.Buffer
	fmt.Fprintf(&body, "old %d\n", oldSize)
	for _, h := range proof {
		body.WriteString(base64.StdEncoding.EncodeToString(h[:]) + "\n")
	}
	body.WriteString("\n")
	body.Write(signed)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL+"/add-checkpoint", &body)
	if err != nil {
		return nil, fmt.Errorf("witness %s: %w", w.Name, err)
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("witness %s: %w", w.Name, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("witness %s: reading the answer: %w", w.Name, err)
	}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusConflict:
		s := strings.TrimSuffix(string(b), "\n")
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return nil, &RefusedError{Witness: w.Name, Status: resp.StatusCode, Body: trim(b)}
		}
		return nil, &ConflictError{Witness: w.Name, Size: n}
	default:
		return nil, &RefusedError{Witness: w.Name, Status: resp.StatusCode, Body: trim(b)}
	}
	// Concatenate the answer to the checkpoint and verify with w's key
	// (C2SP tlog-witness "add-checkpoint").
	p := &Policy{Witnesses: []*Witness{w}, Quorum: 1}
	cs, err := p.Check(append(stripSigs(signed), b...))
	if err != nil {
		return nil, fmt.Errorf("witness %s: answer: %w", w.Name, err)
	}
	// "The cosignature MUST NOT omit the timestamp, i.e. the timestamp
	// MUST NOT be zero" (C2SP tlog-witness): one would be shown as
	// evidence that the entries existed by 1970.
	for _, c := range cs {
		if c.Time.Unix() == 0 {
			return nil, fmt.Errorf("witness %s: answer: a cosignature with timestamp 0, which a witness must not send (C2SP tlog-witness)", w.Name)
		}
	}
	return cs, nil
}

// stripSigs returns the note text and the blank line, without signatures.
func stripSigs(signed []byte) []byte {
	i := bytes.Index(signed, []byte("\n\n"))
	if i < 0 {
		return signed
	}
	return append([]byte(nil), signed[:i+2]...)
}

func trim(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// Cosigner submits a ledger's checkpoints to the witnesses of a policy
// and stores their cosignatures.
type Cosigner struct {
	Store  ledger.Store
	Policy *Policy
	HTTP   *http.Client // nil: a client with a 10 s timeout
	Log    *slog.Logger // nil: slog.Default()
	// RetryAfter is how long a witness that refused or failed is left
	// alone before the next Cosign submits to it again; 0: every time.
	RetryAfter time.Duration

	sizes    map[string]int64     // size each witness last cosigned, as known
	failed   map[string]time.Time // when each witness last refused or failed
	notLogOK bool                 // the policy was checked against the log's key
}

// Result is what one witness answered in a round.
type Result struct {
	Witness string
	Size    int64 // the checkpoint size submitted
	Err     error // nil: cosigned and stored
}

// Cosign submits the latest stored checkpoint to every witness of the
// policy with a URL that has not cosigned it yet, and stores the
// cosignatures. A 409 is retried once from the size the witness gives; a
// witness that refuses is logged and reported in its Result, never a
// failure of the others. The error is a store error, or a policy naming
// the log's own key as a witness's (Policy.CheckNotLog: the log's own
// cosignature line would be stored as a witness's), before anything is
// submitted.
func (c *Cosigner) Cosign(ctx context.Context) ([]Result, error) {
	if !c.notLogOK { // once: the log's key never changes
		m, err := c.Store.Meta(ctx)
		if err != nil {
			return nil, err
		}
		if err := c.Policy.CheckNotLog(m.VerifierKey); err != nil {
			return nil, err
		}
		c.notLogOK = true
	}
	if c.sizes == nil {
		c.sizes, c.failed = map[string]int64{}, map[string]time.Time{}
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	log := c.Log
	if log == nil {
		log = slog.Default()
	}
	cp, err := c.Store.LatestCheckpoint(ctx)
	if err != nil {
		return nil, err
	}
	have, err := c.Store.Cosignatures(ctx, cp.ID, 0, 0)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for _, h := range have {
		done[h.Witness] = true
	}
	var out []Result
	for _, w := range c.Policy.Witnesses {
		if w.URL == "" || done[w.Name] {
			continue
		}
		if t, ok := c.failed[w.Name]; ok && time.Since(t) < c.RetryAfter {
			continue
		}
		r := Result{Witness: w.Name, Size: cp.Size}
		cs, err := c.submit(ctx, hc, w, cp)
		if err == nil {
			for _, s := range cs {
				err = c.Store.PutCosignature(ctx, &ledger.StoredCosignature{CheckpointID: cp.ID, Size: cp.Size,
					Witness: s.Witness, Line: []byte(s.Line), Time: s.Time.Unix()})
				if err != nil {
					return out, err
				}
			}
			c.sizes[w.Name] = cp.Size
			delete(c.failed, w.Name)
			log.Info("witness cosigned", "witness", w.Name, "size", cp.Size)
		} else {
			c.failed[w.Name] = time.Now()
			log.Warn("witness did not cosign", "witness", w.Name, "size", cp.Size, "err", err)
		}
		r.Err = err
		out = append(out, r)
	}
	return out, nil
}

// submit sends cp to w from the size w is known to hold, and once more
// from the size a 409 names; cosignatures whose timestamps are off by more
// than MaxClockSkew are refused (checkWitnessClock).
func (c *Cosigner) submit(ctx context.Context, hc *http.Client, w *Witness, cp *ledger.StoredCheckpoint) ([]Cosignature, error) {
	signed := cp.Note
	old := c.sizes[w.Name]
	for try := 0; ; try++ {
		if old > cp.Size {
			return nil, fmt.Errorf("witness %s has cosigned size %d, beyond this log's checkpoint of size %d: the log was cut (a rollback) or this is another log with the same key", w.Name, old, cp.Size)
		}
		var proof tlog.TreeProof
		if old > 0 {
			p, err := tlog.ProveTree(cp.Size, old, storeHashes{ctx, c.Store})
			if err != nil {
				return nil, fmt.Errorf("witness %s: consistency proof from size %d: %w", w.Name, old, err)
			}
			proof = p
		}
		cs, err := AddCheckpoint(ctx, hc, w, old, proof, signed)
		var conflict *ConflictError
		if errors.As(err, &conflict) && try == 0 {
			old = conflict.Size
			c.sizes[w.Name] = old
			continue
		}
		if err == nil {
			err = checkWitnessClock(w, cs, cp.CreatedAt, time.Now())
		}
		if err != nil {
			return nil, err
		}
		return cs, nil
	}
}

// MaxClockSkew is how far a witness's clock may be from the log's: a
// cosignature is refused when its timestamp is more than this before the
// checkpoint was signed (the log's created_at, by the writer's clock) or
// after this machine's clock when the answer came. Either way one of the
// clocks is off (the messages do not say which), and the timestamp, shown
// as "witnessed by", would be no evidence of when the entries existed.
const MaxClockSkew = 10 * time.Minute

// checkWitnessClock holds cs, w's cosignatures of a checkpoint signed at
// signedAt (Unix ns; 0 for a checkpoint from before the log's timestamped
// signature, whose time is not checked) and received at now, to
// MaxClockSkew.
func checkWitnessClock(w *Witness, cs []Cosignature, signedAt int64, now time.Time) error {
	for _, c := range cs {
		if signedAt > 0 && c.Time.Before(time.Unix(0, signedAt).Add(-MaxClockSkew)) {
			return fmt.Errorf("witness %s: answer: a cosignature timestamped %s, before the checkpoint was signed (%s, by the log's clock): the witness's clock and the log's differ by more than %v, so the timestamp is no evidence of when the entries existed",
				w.Name, c.Time.UTC().Format(time.RFC3339), time.Unix(0, signedAt).UTC().Format(time.RFC3339), MaxClockSkew)
		}
		if c.Time.After(now.Add(MaxClockSkew)) {
			return fmt.Errorf("witness %s: answer: a cosignature timestamped %s, after this machine's clock (%s): the witness's clock and this machine's differ by more than %v, so the timestamp is no evidence of when the entries existed",
				w.Name, c.Time.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339), MaxClockSkew)
		}
	}
	return nil
}

type storeHashes struct {
	ctx context.Context
	s   ledger.Store
}

func (h storeHashes) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	return h.s.ReadHashes(h.ctx, indexes)
}
