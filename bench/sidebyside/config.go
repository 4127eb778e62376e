package sidebyside

import (
	"os"
	"path/filepath"
	"time"
)

// Config says which parts run and how big they are. Default and Quick
// give the two presets; the command's flags adjust them.
type Config struct {
	// Appends, Audit and Site pick the parts to run.
	Appends, Audit, Site bool

	// Rounds of the appends part; in each, every system runs at every
	// writer count in Writers for CellDuration.
	Rounds       int
	Writers      []int
	CellDuration time.Duration
	// Pool is how many entries are generated for the appends part; a cell
	// that uses them all stops early (and says so).
	Pool int
	// TesseraAges are the batch ages of Tessera's WithBatching(64, age),
	// one Tessera system each.
	TesseraAges []time.Duration

	// AuditN is the size of the audited ledger, AuditRounds how many times
	// the audit and the SHA-256 pass each run.
	AuditN      int
	AuditRounds int

	// SiteN is the size of the served ledger; SiteRounds how many times
	// `sealed serve` is started (and the three targets loaded) for
	// SiteDuration each, with Connections connections.
	SiteN        int
	SiteRounds   int
	SiteDuration time.Duration
	Connections  int
	// LoadGen is "wrk", "go", or "" for wrk when it is on PATH, else go.
	LoadGen string
	// SealedBin is the sealed binary to serve with; "" builds
	// ./cmd/sealed of the working tree (the module the replace directive
	// names) into WorkDir.
	SealedBin string

	// CacheDir keeps the audit's and the site's ledgers between runs.
	CacheDir string
	// WorkDir holds the stores made for each cell (removed after it).
	WorkDir string
}

// Default is the full run (a few minutes on 2 cores, plus building the
// 1,000,000-entry ledger once).
func Default() Config {
	return Config{
		Appends: true, Audit: true, Site: true,
		Rounds: 5, Writers: []int{1, 8, 64}, CellDuration: 2 * time.Second, Pool: 400_000,
		TesseraAges: []time.Duration{50 * time.Millisecond, 5 * time.Millisecond},
		AuditN:      1_000_000, AuditRounds: 3,
		SiteN: 50_000, SiteRounds: 3, SiteDuration: 5 * time.Second, Connections: 64,
		CacheDir: filepath.Join(os.TempDir(), "sealed-sidebyside"),
	}
}

// Quick is a smoke test of every part: one round, short cells, small
// ledgers.
func Quick() Config {
	c := Default()
	c.Rounds, c.CellDuration, c.Pool = 1, 300*time.Millisecond, 50_000
	c.AuditN, c.AuditRounds = 20_000, 1
	c.SiteN, c.SiteRounds, c.SiteDuration = 2_000, 1, time.Second
	return c
}
