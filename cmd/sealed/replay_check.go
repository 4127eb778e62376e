package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sealedhq/sealed/verify"
	"github.com/spf13/cobra"
)

func init() { replaySubcommands = append(replaySubcommands, newReplayCheckCmd) }

// maxReplaySize bounds a replay file read by `sealed replay check`.
const maxReplaySize = 64 << 20

// replayCheckOptions are the inputs of `sealed replay check`.
type replayCheckOptions struct {
	Files []string // replay files; "-" reads stdin
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
	return &cobra.Command{
		Use:   "check FILE...",
		Short: "Re-simulate replays and report every difference from their claims",
		Long: `Re-simulate each replay (Blind Auction sealed.auction.replay.v1 or
Negotiation Games negotiation.replay.v1, docs/replays.md): check the revealed
seed against its commitment, re-derive the values or pools from the seed,
replay every event through the rules and compare every claimed field.
Each difference is printed as "event N: field: claimed X, derived Y"
(header and results differences without the event). With - the replay is
read from stdin.

Exit status: 0 every replay is clean, 1 some replay has differences,
2 some replay could not be read.`,
		Example: `  sealed replay play auction --seed "$SEED" > r.json && sealed replay check r.json`,
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
}

func runReplayCheck(a *app, o *replayCheckOptions) error {
	var out []replayCheckJSON
	unreadable, failed := 0, 0
	for _, f := range o.Files {
		rep, err := checkReplayFile(a, f)
		entry := replayCheckJSON{File: f, Report: rep}
		switch {
		case err != nil:
			unreadable++
			entry.Error = plainDecoderError(err.Error())
			if !a.json && len(o.Files) > 1 {
				fmt.Fprintf(a.errOut, "sealed: %s: %s\n", f, entry.Error)
			}
		case rep.Clean():
			entry.Clean = true
			if !a.json {
				fmt.Fprintf(a.out, "%s: clean: %s, %d events, seed commitment ok\n", f, rep.Format, rep.Events)
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
		return &exitError{code: exitUsage, msg: fmt.Sprintf("%d of %d replays could not be read", unreadable, len(o.Files))}
	case unreadable > 0 && len(o.Files) == 1:
		return usageErrorf("%s: %s", out[0].File, out[0].Error) // its one error line
	case unreadable > 0:
		// Each unreadable file had its "sealed:" line; the summary is not
		// another error.
		fmt.Fprintf(a.errOut, "%d of %d replays could not be read\n", unreadable, len(o.Files))
		return errSilentUsage
	case failed > 0:
		return errSilentFailure
	}
	return nil
}

// printDifferences prints a report with differences, one line each.
func printDifferences(w io.Writer, file string, rep *verify.Report) {
	seed := "seed commitment ok"
	if !rep.SeedCommitmentOK {
		seed = "seed commitment MISMATCH"
	}
	noun := "differences"
	if len(rep.Differences) == 1 {
		noun = "difference"
	}
	fmt.Fprintf(w, "%s: %d %s: %s, %d events re-simulated, %s\n", file, len(rep.Differences), noun, rep.Format, rep.Events, seed)
	for _, d := range rep.Differences {
		field, claimed, derived := terminalSafe(d.Field), terminalSafe(d.Claimed), terminalSafe(d.Derived)
		if d.Event >= 0 {
			fmt.Fprintf(w, "  event %d: %s: claimed %s, derived %s\n", d.Event, field, claimed, derived)
		} else {
			fmt.Fprintf(w, "  %s: claimed %s, derived %s\n", field, claimed, derived)
		}
	}
}

// checkReplayFile reads and re-simulates one replay; "-" is stdin.
func checkReplayFile(a *app, name string) (*verify.Report, error) {
	var r io.Reader = a.in
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, unwrapPathError(err) // the caller names the file
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxReplaySize+1))
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if len(data) > maxReplaySize {
		return nil, fmt.Errorf("replay is larger than %d MiB", maxReplaySize>>20)
	}
	return verify.CheckReplay(data)
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
