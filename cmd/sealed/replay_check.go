package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/verify"
	"github.com/spf13/cobra"
)

func init() { replaySubcommands = append(replaySubcommands, newReplayCheckCmd) }

// maxReplaySize bounds a replay file read by `sealed replay check`.
const maxReplaySize = 64 << 20

// replayCheckOptions are the inputs of `sealed replay check`.
type replayCheckOptions struct {
	Files          []string // replay files or directories; "-" reads stdin
	Seed           string   // --seed: the revealed 256-bit seed, or ""
	SeedCommitment string   // --seed-commitment: its commitment, or ""
	Jobs           int      // --jobs: workers; 0 means one per CPU
	Inputs         matchInputFlags
	app            *app
}

// replayCheckJSON is one file's entry in `sealed replay check --json`.
type replayCheckJSON struct {
	File   string         `json:"file"`
	Clean  bool           `json:"clean"`
	Error  string         `json:"error,omitempty"` // the replay could not be read
	Report *verify.Report `json:"report,omitempty"`
}

// newReplayCheckCmd builds `sealed replay check`.
func newReplayCheckCmd(a *app) *cobra.Command { return replayCheckCmd(a, runReplayCheck) }

// replayCheckCmd builds `sealed replay check` with runF as its action, so
// tests can check the parsing alone.
func replayCheckCmd(a *app, runF func(*app, *replayCheckOptions) error) *cobra.Command {
	o := &replayCheckOptions{}
	c := &cobra.Command{
		Use:   "check [--seed SEED [--seed-commitment C]] FILE|DIR...",
		Short: "Re-simulate replays and report every difference from their claims",
		Long: `Re-simulate each replay (Blind Auction sealed.auction.replay.v1, Negotiation
Games negotiation.replay.v1 in sealed's dialect, or a replay the Negotiation
Games engine wrote itself, with "protocol" and an integer config.seed;
docs/replays.md): check the revealed seed against its commitment, re-derive
the values, pools, aliases and schedule from the seed, replay every event
through the rules and compare every claimed field. The dialect is read
from the document. Each difference is printed as "event N: field: claimed
X, derived Y" (header and results differences without the event). With -
the replay is read from stdin; a directory stands for every *.json file
under it. Many files are checked on every CPU, with a progress bar on a
terminal.

An engine replay carries no seed commitment. --seed holds it to a 256-bit
seed from 'sealed seed new' (its config.seed must be the engine seed
derived from it, 'sealed seed engine') and --seed-commitment to the
commitment posted before the episode. Without them the replay is still
re-simulated, and the report says that nothing shows the seed was fixed
before play. For sealed's own replays, --seed and --seed-commitment must
equal the replay's seed and seed_commitment. An engine replay played with
contributions or a beacon round takes them as --contribution SEAT:TEXT and
--beacon-file FILE (with --seed): its config.seed must then be derived from
the match seed.

A replay carrying "contributions" (players' client seeds) or a "beacon"
(a drand round) is re-simulated from the match seed derived from them and
the revealed seed (docs/rng.md, "The match seed"); the round's BLS
signature is verified offline, and the output names the match seed, the
client seeds and the round. Whether they count for the match is a
question for the ledger: 'sealed ledger check-result'.

Exit status: 0 every replay is clean, 1 some replay has differences,
2 some replay could not be read.`,
		Example: `  sealed replay play auction --seed "$SEED" > r.json && sealed replay check r.json
  sealed replay check --seed "$SEED" --seed-commitment "$COMMITMENT" engine-replay.json
  sealed replay check replays/`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("replay check needs at least one FILE").withHint("make one with 'sealed replay play auction --seed SEED > r.json'")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			o.Files = args
			return runF(a, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.Seed, "seed", "", "hold every replay to this revealed `SEED` (64 hex digits)")
	f.StringVar(&o.SeedCommitment, "seed-commitment", "", "and to this seed `COMMITMENT`, posted before play (needs --seed)")
	f.IntVar(&o.Jobs, "jobs", 0, "check this many replays at once (0: one per CPU the process may use)")
	o.Inputs.register(f)
	o.app = a
	return c
}

// options reads --seed and --seed-commitment.
func (o *replayCheckOptions) options() (verify.ReplayOptions, error) {
	var ro verify.ReplayOptions
	if o.SeedCommitment != "" && o.Seed == "" {
		return ro, usageErrorf("--seed-commitment needs --seed").withHint("give the revealed seed the commitment was made for")
	}
	if o.Seed != "" {
		s, err := parseSeedFlag("--seed", o.Seed)
		if err != nil {
			return ro, err
		}
		ro.Seed = &s
	}
	if o.SeedCommitment != "" {
		c, err := commit.ParseCommitment(o.SeedCommitment)
		if err != nil {
			return ro, usageErrorf("--seed-commitment: %v", err)
		}
		ro.SeedCommitment = &c
	}
	if o.Jobs < 0 {
		return ro, usageErrorf("--jobs is %d; expected 0 (one per CPU) or more", o.Jobs)
	}
	if len(o.Inputs.Contributions) > 0 || o.Inputs.BeaconFile != "" {
		if ro.Seed == nil {
			return ro, usageErrorf("--contribution and --beacon-file need --seed").withHint("they hold an engine replay, which carries neither, to the match seed; a sealed replay carries its own")
		}
		cs, b, err := o.Inputs.parse(o.app)
		if err != nil {
			return ro, err
		}
		ro.Contributions, ro.Beacon = cs, b
	}
	return ro, nil
}

// expandFiles replaces each directory argument by the *.json files under
// it, in lexical order. A *.json name under a directory that is not a
// regular file, nor a symbolic link to one (a named pipe, a socket, a
// device), is listed with its error in refused and never opened: opening a
// named pipe waits for a writer, which would hold up the whole check. A
// file named as an argument is opened whatever it is (`<(cmd)` is a pipe).
func expandFiles(args []string) (files []string, refused map[string]error, err error) {
	for _, f := range args {
		st, err := os.Stat(f)
		if f == "-" || err != nil || !st.IsDir() {
			files = append(files, f) // a missing file is reported as unreadable
			continue
		}
		err = filepath.WalkDir(f, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".json") {
				return nil
			}
			if !d.Type().IsRegular() {
				st, err := os.Stat(p) // a symbolic link is followed
				switch {
				case err == nil && st.IsDir():
					return nil // a link to a directory is not walked, as WalkDir does not
				case err == nil && !st.Mode().IsRegular():
					if refused == nil {
						refused = map[string]error{}
					}
					refused[p] = fmt.Errorf("not a regular file (%s); a replay under a directory must be one", fileKind(st.Mode()))
				}
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			return nil, nil, usageErrorf("%s: %v", f, unwrapPathError(err))
		}
	}
	return files, refused, nil
}

// fileKind names the kind of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// checkResult is one file's outcome.
type checkResult struct {
	rep *verify.Report
	err error
}

// checkAll checks every file on jobs workers (0: one per CPU the process
// may use, runtime.GOMAXPROCS) and returns the outcomes in file order and
// how many files each worker checked; on a terminal it shows a progress
// bar on a.errOut.
func checkAll(a *app, files []string, jobs int, ro verify.ReplayOptions) (out []checkResult, perWorker []int) {
	out = make([]checkResult, len(files))
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = min(jobs, len(files))
	var bar *progressbar.ProgressBar
	if len(files) > 1 && isTerminal(a.errOut) {
		bar = progressbar.NewOptions(len(files), progressbar.OptionSetWriter(a.errOut),
			progressbar.OptionSetDescription("checking"), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("replays"),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	perWorker = make([]int, jobs)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				out[i].rep, out[i].err = checkReplayFile(a, files[i], ro)
				perWorker[w]++
				if bar != nil {
					bar.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if bar != nil {
		bar.Finish()
	}
	return out, perWorker
}

func runReplayCheck(a *app, o *replayCheckOptions) error {
	ro, err := o.options()
	if err != nil {
		return err
	}
	files, refused, err := expandFiles(o.Files)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErrorf("no *.json replay files in %s", strings.Join(o.Files, ", "))
	}
	toCheck := files
	if len(refused) > 0 {
		toCheck = nil
		for _, f := range files {
			if refused[f] == nil {
				toCheck = append(toCheck, f)
			}
		}
	}
	checked, _ := checkAll(a, toCheck, o.Jobs, ro)
	results := make([]checkResult, len(files))
	for i, j := 0, 0; i < len(files); i++ {
		if err := refused[files[i]]; err != nil {
			results[i].err = err
			continue
		}
		results[i] = checked[j]
		j++
	}
	var out []replayCheckJSON
	unreadable, failed := 0, 0
	for i, f := range files {
		rep, err := results[i].rep, results[i].err
		entry := replayCheckJSON{File: f, Report: rep}
		switch {
		case err != nil:
			unreadable++
			entry.Error = plainDecoderError(err.Error())
			if !a.json && len(files) > 1 {
				fmt.Fprintf(a.errOut, "sealed: %s: %s\n", f, entry.Error)
			}
		case rep.Clean():
			entry.Clean = true
			if !a.json {
				fmt.Fprintf(a.out, "%s: clean: %s, %d events, %s\n", f, formatName(rep), rep.Events, seedStatus(rep))
				printMatchInputs(a.out, rep)
			}
		default:
			failed++
			if !a.json {
				printDifferences(a.out, f, rep)
			}
		}
		out = append(out, entry)
	}
	if a.json {
		if err := printJSONNoControls(a.out, out); err != nil {
			return err
		}
	}
	switch {
	case unreadable > 0 && a.json:
		return &exitError{code: exitUsage, msg: fmt.Sprintf("%d of %d replays could not be read", unreadable, len(files))}
	case unreadable > 0 && len(files) == 1:
		return usageErrorf("%s: %s", out[0].File, out[0].Error) // its one error line
	case unreadable > 0:
		// Each unreadable file had its "sealed:" line; the summary is not
		// another error.
		fmt.Fprintf(a.errOut, "%d of %d replays could not be read\n", unreadable, len(files))
		return errSilentUsage
	case failed > 0:
		return errSilentFailure
	}
	return nil
}

// formatName names a report's format, with the engine's dialect marked.
func formatName(rep *verify.Report) string {
	if rep.Dialect != "" {
		return rep.Format + " (" + rep.Dialect + " dialect)"
	}
	return rep.Format
}

// seedStatus says in words what the report shows about the seed, and what
// it did not check.
func seedStatus(rep *verify.Report) string {
	s := "seed commitment ok"
	switch {
	case rep.SeedNotCommitted:
		s = "NO seed commitment checked: nothing shows the seed was fixed before play"
	case !rep.SeedCommitmentOK:
		s = "seed commitment MISMATCH"
	}
	if rep.Dialect == verify.DialectEngine {
		s += "; which turns results.fallbacks counts is not derivable (each seat's count is checked against its turns)"
	}
	return s
}

// printDifferences prints a report with differences, one line each.
func printDifferences(w io.Writer, file string, rep *verify.Report) {
	noun := "differences"
	if len(rep.Differences) == 1 {
		noun = "difference"
	}
	fmt.Fprintf(w, "%s: %d %s: %s, %d events re-simulated, %s\n", file, len(rep.Differences), noun, formatName(rep), rep.Events, seedStatus(rep))
	for _, d := range rep.Differences {
		field, claimed, derived := terminalSafe(d.Field), terminalSafe(d.Claimed), terminalSafe(d.Derived)
		if d.Event >= 0 {
			fmt.Fprintf(w, "  event %d: %s: claimed %s, derived %s\n", d.Event, field, claimed, derived)
		} else {
			fmt.Fprintf(w, "  %s: claimed %s, derived %s\n", field, claimed, derived)
		}
	}
	printMatchInputs(w, rep)
}

// printMatchInputs says, when the draws came from a match seed, which
// contributions and which drand round went into it.
func printMatchInputs(w io.Writer, rep *verify.Report) {
	if rep.MatchSeed == "" {
		return
	}
	fmt.Fprintf(w, "  match seed %s, from the revealed seed", rep.MatchSeed)
	for _, c := range rep.Contributions {
		fmt.Fprintf(w, ", seat %d's client seed %s", c.Seat, strconv.Quote(c.ClientSeed))
		if c.Entry != nil {
			fmt.Fprintf(w, " (entry %d)", *c.Entry)
		}
	}
	if b := rep.Beacon; b != nil {
		sig := "signature ok"
		if !b.SignatureOK {
			sig = "signature does NOT verify"
		}
		pub := "published " + b.Published
		if b.Published == "" {
			pub = "never published"
		}
		fmt.Fprintf(w, " and drand %s round %d (%s, %s)", b.Network, b.Round, pub, sig)
	}
	fmt.Fprintln(w)
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}

// checkReplayFile reads and re-simulates one replay; "-" is stdin.
func checkReplayFile(a *app, name string, ro verify.ReplayOptions) (*verify.Report, error) {
	var r io.Reader = a.in
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, unwrapPathError(err) // the caller names the file
		}
		defer f.Close()
		r = f
	}
	data, err := readAtMost(r, maxReplaySize+1)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if len(data) > maxReplaySize {
		return nil, fmt.Errorf("replay is larger than %d MiB", maxReplaySize>>20)
	}
	return verify.CheckReplayWith(data, ro)
}

// readAtMost reads r to its end or to n bytes, whichever comes first, in
// one buffer of the file's size when r is a regular file (as os.ReadFile
// does).
func readAtMost(r io.Reader, n int64) ([]byte, error) {
	size := int64(512)
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = min(st.Size()+1, n) // +1: room for the read that sees the end
		}
	}
	r = io.LimitReader(r, n)
	data := make([]byte, 0, size)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		k, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+k]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
}

// terminalSafe returns s as it is when every rune of it prints as itself
// (strconv.IsPrint, or a space), and otherwise s quoted as strconv.Quote
// writes it. A replay's strings are the replay author's: raw, a control
// character (ESC starting an ANSI sequence that clears the screen or
// paints fake output), a format character (U+202E RIGHT-TO-LEFT OVERRIDE
// reversing what follows) or invalid UTF-8 would reach the terminal.
func terminalSafe(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || (r != ' ' && !strconv.IsPrint(r)) {
			return strconv.Quote(s)
		}
	}
	return s
}

// printJSONNoControls writes v as the --json output (indented, no HTML
// escaping), with every rune encoding/json leaves raw that does not print
// as itself escaped as \uXXXX (a UTF-16 surrogate pair above U+FFFF, RFC
// 8259 section 7): DEL, the C1 controls U+0080..U+009F (U+009B is CSI on
// some terminals) and the format characters such as U+202E. Outside strings
// encoding/json writes only ASCII, so every such rune is inside a string
// and the output decodes to the same value.
func printJSONNoControls(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b := buf.Bytes()
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == 0x7f || (r >= 0x80 && !strconv.IsPrint(r)) {
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	_, err := w.Write(out)
	return err
}
