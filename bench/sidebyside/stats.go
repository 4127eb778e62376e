package sidebyside

import (
	"slices"
	"time"
)

// percentile returns the p-quantile (0 <= p <= 1, nearest rank) of d,
// sorting d in place; 0 for an empty slice.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d)-1)*p+0.5))]
}

// median returns the median of xs (the mean of the two middle values for
// an even count); 0 for an empty slice. xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// spread is a median with the smallest and largest of its values.
type spread struct {
	Median, Min, Max float64
	N                int // how many values
}

// spreadOf summarises xs.
func spreadOf(xs []float64) spread {
	if len(xs) == 0 {
		return spread{}
	}
	return spread{Median: median(xs), Min: slices.Min(xs), Max: slices.Max(xs), N: len(xs)}
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
