package auction

import (
	"fmt"
	"slices"

	"github.com/sealedhq/sealed/rules/rng"
)

// Values derives the private values table from a 32-byte seed (docs/design.md,
// "Blind Auction draws"; docs/rng.md): for item 1..cfg.Items, for seat
// 0..cfg.Players-1, Range(cfg.ValueMin, cfg.ValueMax) from the stream
// "auction-0.2/values". values[i][s] is item i+1's value to seat s, in
// ValueMin..ValueMax. It returns an error if the seed is not 32 bytes or cfg
// is invalid (wrapping ErrConfig).
func Values(seed []byte, cfg Config) ([][]int, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	src, err := rng.NewSource(seed)
	if err != nil {
		return nil, seedSizeError(seed)
	}
	flat := deriveValues(nil, src, &cfg)
	rows := make([][]int, cfg.Items)
	for i := range rows {
		rows[i] = flat[i*cfg.Players : (i+1)*cfg.Players : (i+1)*cfg.Players]
	}
	return rows, nil
}

// seedSizeError is the error for a seed that is not rng.SeedSize bytes.
func seedSizeError(seed []byte) error {
	return fmt.Errorf("seed is %d bytes, expected %d (64 hex characters)", len(seed), rng.SeedSize)
}

// deriveValues fills the values table of the validated cfg into dst's
// storage (growing it if needed) and returns it, flattened item-major:
// index (item-1)*Players + seat.
func deriveValues(dst []int, src *rng.Source, cfg *Config) []int {
	s := src.Stream(rng.LabelAuctionValues)
	dst = slices.Grow(dst[:0], cfg.Items*cfg.Players)[:cfg.Items*cfg.Players]
	for i := range dst {
		dst[i] = s.Range(cfg.ValueMin, cfg.ValueMax)
	}
	return dst
}
