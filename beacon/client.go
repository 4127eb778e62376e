package beacon

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Round is one published round as a drand relay serves it
// (/<chain hash>/public/<round>): its number, its signature and its
// randomness (SHA-256 of the signature), both in lowercase hex.
type Round struct {
	Round      uint64 `json:"round"`
	Randomness string `json:"randomness"`
	Signature  string `json:"signature"`
}

// DefaultRelay is the relay Client uses when BaseURL is empty.
const DefaultRelay = "https://api.drand.sh"

// Client fetches rounds from a drand HTTP relay.
type Client struct {
	// BaseURL is the relay's URL without the chain hash
	// ("https://api.drand.sh"); empty means DefaultRelay.
	BaseURL string
	// HTTP is the client used; nil means http.DefaultClient.
	HTTP *http.Client
}

// maxRoundBody bounds a relay's answer, in bytes (a round is about 250).
const maxRoundBody = 64 << 10

// Get fetches round of chain from the relay and checks it: the answer
// must be that round, its signature must verify (Chain.CheckRound) and its
// randomness, when given, must be SHA-256 of the signature. Errors: the
// relay cannot be reached or answers other than 200 (a round not yet
// published is typically 404 or 425), an answer that is not a round, a
// *SignatureError.
func (c *Client) Get(ctx context.Context, chain *Chain, round uint64) (*Round, error) {
	base := c.BaseURL
	if base == "" {
		base = DefaultRelay
	}
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, fmt.Errorf("relay %q: expected a URL starting http:// or https://", base)
	}
	url := fmt.Sprintf("%s/%s/public/%d", strings.TrimRight(base, "/"), chain.Hash, round)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("relay %q: not a URL", base)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxRoundBody))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s; expected 200 with the round (a round not yet published is refused: round %d is due at %s)",
			url, resp.Status, round, chain.RoundTime(round).Format("2006-01-02T15:04:05Z"))
	}
	var r Round
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a drand round; expected a JSON object with \"round\" and \"signature\"", url)
	}
	if r.Round != round {
		return nil, fmt.Errorf("%s answered round %d; expected round %d", url, r.Round, round)
	}
	if err := r.Check(chain); err != nil {
		return nil, err
	}
	return &r, nil
}

// Check verifies r as a round of chain: its signature (lowercase or
// uppercase hex) must verify, and its randomness, when not empty, must be
// SHA-256 of the signature. It normalises both to lowercase hex.
func (r *Round) Check(chain *Chain) error {
	sig, err := hex.DecodeString(strings.TrimSpace(r.Signature))
	if err != nil {
		return &SignatureError{Chain: chain.Hash, Round: r.Round, Msg: fmt.Sprintf("the signature is not hex: %v", err)}
	}
	if err := chain.CheckRound(r.Round, sig); err != nil {
		return err
	}
	rnd := Randomness(sig)
	want := hex.EncodeToString(rnd[:])
	if r.Randomness != "" && !strings.EqualFold(strings.TrimSpace(r.Randomness), want) {
		return fmt.Errorf("drand round %d: randomness %s is not SHA-256 of the signature (%s)", r.Round, r.Randomness, want)
	}
	r.Signature, r.Randomness = hex.EncodeToString(sig), want
	return nil
}
