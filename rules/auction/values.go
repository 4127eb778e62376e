package auction

import (
	"fmt"

	"github.com/sealedhq/sealed/rules/rng"
)

// Values derives the private values table from a 32-byte seed (docs/design.md,
// "Blind Auction draws"; docs/rng.md): for item 1..cfg.Items, for seat
// 0..cfg.Players-1, Range(cfg.ValueMin, cfg.ValueMax) from the stream
// "auction-0.2/values". values[i][s] is item i+1's value to seat s, in
// ValueMin..ValueMax. It returns an error if the seed is not 32 bytes or cfg
// is invalid (wrapping ErrConfig).
func Values(seed []byte, cfg Config) ([][]int, error) {
	flat, err := deriveValues(seed, &cfg)
	if err != nil {
		return nil, err
	}
	rows := make([][]int, cfg.Items)
	for i := range rows {
		rows[i] = flat[i*cfg.Players : (i+1)*cfg.Players : (i+1)*cfg.Players]
	}
	return rows, nil
}

// deriveValues returns the values table flattened item-major: index
// (item-1)*Players + seat.
func deriveValues(seed []byte, cfg *Config) ([]int, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s, err := rng.New(seed, rng.LabelAuctionValues)
	if err != nil {
		return nil, fmt.Errorf("seed is %d bytes, expected %d (64 hex characters)", len(seed), rng.SeedSize)
	}
	flat := make([]int, cfg.Items*cfg.Players)
	for i := range flat {
		flat[i] = s.Range(cfg.ValueMin, cfg.ValueMax)
	}
	return flat, nil
}
