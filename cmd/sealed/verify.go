package main

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sealedhq/sealed/commit"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func init() { register(newVerifyCmd) }

// maxHintBytes is the largest reveal whose near-miss hints are computed;
// a larger one is still hashed and checked exactly.
const maxHintBytes = 1 << 20

// verifyOptions are the inputs of `sealed verify`.
type verifyOptions struct {
	Hash    string // --hash: the posted commitment
	File    string // --file: the reveal text
	Text    string // --text: the reveal text
	TextSet bool
	// Check (-c) checks the sha256sum-style lists Lists, the command's
	// arguments ("-" for stdin, which is also the list when none is
	// given), as sha256sum -c does.
	Check bool
	Lists []string
	// Report is what -c prints, set by --quiet, --status and --warn (the
	// last given wins, as in GNU sha256sum); Strict (--strict) makes an
	// improperly formatted line fail the check.
	Report checkReport
	Strict bool
}

// checkReport is what 'sealed verify -c' prints, as GNU coreutils 9.1
// sha256sum -c does: everything (the default), quiet (no "OK" lines),
// status (nothing on stdout and no summary warnings: the exit status
// tells), or warn (also a warning per improperly formatted line).
type checkReport string

const (
	reportAll    checkReport = ""
	reportQuiet  checkReport = "quiet"
	reportStatus checkReport = "status"
	reportWarn   checkReport = "warn"
)

// reportFlag is one of the boolean flags --quiet, --status and --warn:
// each sets the shared checkReport when given, so the last one given
// wins, as in GNU sha256sum (md5sum.c: each option clears the others).
type reportFlag struct {
	p    *checkReport
	v    checkReport
	seen bool
}

func (f *reportFlag) String() string   { return strconv.FormatBool(f.seen) }
func (f *reportFlag) Type() string     { return "bool" }
func (f *reportFlag) IsBoolFlag() bool { return true }

// Set takes "true" (the flag given alone) or "false" (which leaves the
// report as it is).
func (f *reportFlag) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	if b {
		*f.p, f.seen = f.v, true
	}
	return nil
}

// checkSwitch is the -c (--check) switch of `sealed verify`: a boolean
// flag, as sha256sum's, whose lists are the arguments. Given a value that
// is not true or false (--check=SUMS, the form of an older -c FILE), it
// says where the list goes.
type checkSwitch struct{ p *bool }

func (f *checkSwitch) String() string {
	if f.p == nil {
		return "false"
	}
	return strconv.FormatBool(*f.p)
}
func (f *checkSwitch) Type() string     { return "bool" }
func (f *checkSwitch) IsBoolFlag() bool { return true }

// Set takes "true" or "false"; anything else is a list name given as the
// switch's value, refused with the form to use.
func (f *checkSwitch) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("%q is not true or false: -c is a switch, as in sha256sum, and the lists are arguments (sealed verify -c %s)", s, s)
	}
	*f.p = b
	return nil
}

// newVerifyCmd builds `sealed verify`.
func newVerifyCmd(a *app) *cobra.Command { return verifyCmd(a, runVerify) }

// verifyCmd builds `sealed verify` with runF as its action.
func verifyCmd(a *app, runF func(*app, *verifyOptions) error) *cobra.Command {
	o := &verifyOptions{}
	c := &cobra.Command{
		Use:   "verify --hash H [--file F | --text T | < reveal] | -c [FILE...]",
		Short: "Check a reveal against a posted commitment, byte for byte (docs/commitments.md)",
		Long: `Check that the SHA-256 of the exact bytes of a reveal text is the posted
hash. The hash is 64 hex digits in any case, optionally prefixed "sha256:".
The reveal comes from --file, --text or stdin, read as is: nothing is
trimmed or normalised.

On a mismatch the verdict stays mismatch, but each common slip that would
have matched is named (a trailing newline added or lost, CRLF/LF, outer
whitespace, Unicode NFC/NFD, a UTF-8 byte order mark).

With -c (--check), read lines "<64 hex>  <path>" (as sha256sum writes
them) from each FILE in turn (- or no FILE for stdin) and check each file
they list, as GNU sha256sum -c does: -c is a switch, so its options may
come before or after the lists (sealed verify -c --strict SUMS). The
options: --quiet prints no "OK" lines, --status prints nothing on stdout
and no summary (the exit status tells; a file that cannot be read is still
named on stderr), --warn warns of each improperly formatted line; the last
of the three given wins. --strict fails (exit 1) a list with an
improperly formatted line. Empty lines and lines starting with # are
skipped.

Exit status: 0 match, 1 mismatch or an unreadable listed file, 2 bad input.`,
		Example: `  sealed verify --hash 4a2e0736f59b691e1b9b19abcd66ac0b374e2fce06ea652336b3a9cae1e9b5ef --text 'hazelnut, you fool!'
  sealed verify --hash "$h" --file bid.txt
  sha256sum bid.txt > SUMS && sealed verify -c SUMS`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && !o.Check {
				return usageErrorf("verify takes no arguments (got %q); give the reveal with --file, --text or stdin", args[0]).
					withHint("sealed verify --hash H --file reveal.txt")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.TextSet = cmd.Flags().Changed("text")
			if o.Check {
				o.Lists = args
				if len(o.Lists) == 0 {
					o.Lists = []string{stdioName}
				}
				if cmd.Flags().Changed("hash") || o.File != "" || o.TextSet {
					return usageErrorf("-c reads hashes and paths from its list; it does not go with --hash, --file or --text")
				}
				return runF(a, o)
			}
			for _, f := range []string{"quiet", "status", "warn", "strict"} {
				if cmd.Flags().Changed(f) {
					return usageErrorf("--%s goes with -c, checking a list of files", f).
						withHint("sealed verify -c SUMS --%s", f)
				}
			}
			if !cmd.Flags().Changed("hash") {
				return usageErrorf("verify needs --hash, the posted commitment (64 hex digits)").
					withHint("sealed verify --hash H --file reveal.txt, or sealed verify -c SUMS")
			}
			if o.File != "" && o.TextSet {
				return usageErrorf("give the reveal with one of --file or --text, not both")
			}
			return runF(a, o)
		},
	}
	c.Flags().StringVar(&o.Hash, "hash", "", "the posted commitment: 64 hex digits, optionally prefixed sha256:")
	c.Flags().StringVarP(&o.File, "file", "f", "", "read the reveal text from `FILE` (- for stdin)")
	c.Flags().StringVarP(&o.Text, "text", "t", "", "the reveal text itself")
	c.Flags().VarPF(&checkSwitch{&o.Check}, "check", "c", "check the files listed in the FILE arguments (sha256sum format; - or none for stdin)").NoOptDefVal = "true"
	c.Flags().VarPF(&reportFlag{p: &o.Report, v: reportQuiet}, "quiet", "", "with -c: do not print OK for each file that matches").NoOptDefVal = "true"
	c.Flags().VarPF(&reportFlag{p: &o.Report, v: reportStatus}, "status", "", "with -c: print nothing; the exit status tells").NoOptDefVal = "true"
	c.Flags().VarPF(&reportFlag{p: &o.Report, v: reportWarn}, "warn", "w", "with -c: warn of each improperly formatted line").NoOptDefVal = "true"
	c.Flags().BoolVar(&o.Strict, "strict", false, "with -c: exit 1 when a line is improperly formatted")
	return c
}

// revealInput is a reveal read from a file or stdin.
type revealInput struct {
	sum      commit.Commitment
	data     []byte // the bytes, or the first maxHintBytes of them
	complete bool   // data holds every byte
}

// readReveal hashes everything r holds and keeps up to maxHintBytes.
func readReveal(r io.Reader) (revealInput, error) {
	h := sha256.New()
	buf := make([]byte, 32<<10)
	var in revealInput
	in.complete = true
	for {
		n, err := r.Read(buf)
		if n > 0 {
			h.Write(buf[:n])
			if in.complete {
				if len(in.data)+n <= maxHintBytes {
					in.data = append(in.data, buf[:n]...)
				} else {
					in.complete, in.data = false, nil
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return in, err
		}
	}
	copy(in.sum[:], h.Sum(nil))
	return in, nil
}

// check compares the reveal with c and returns the result; hints are
// computed only on a mismatch of a reveal of at most maxHintBytes.
func (in revealInput) check(c commit.Commitment) commit.Result {
	if in.complete {
		return commit.Verify(c, in.data)
	}
	return commit.Result{Match: in.sum == c, Commitment: c, Got: in.sum}
}

// verifyJSON is the --json output of `sealed verify --hash`.
type verifyJSON struct {
	Match        bool     `json:"match"`
	Commitment   string   `json:"commitment"`
	Got          string   `json:"got"`
	Hints        []string `json:"hints"`
	HintsSkipped bool     `json:"hints_skipped,omitempty"`
}

func newVerifyJSON(r commit.Result, in revealInput) verifyJSON {
	v := verifyJSON{Match: r.Match, Commitment: r.Commitment.String(), Got: r.Got.String(), Hints: hintNames(r.Hints)}
	v.HintsSkipped = !r.Match && !in.complete
	return v
}

func hintNames(hs []commit.Hint) []string {
	names := []string{}
	for _, h := range hs {
		names = append(names, h.Name)
	}
	return names
}

// runVerify checks one reveal, or a -c list.
func runVerify(a *app, o *verifyOptions) error {
	if o.Check {
		return runVerifyLists(a, o)
	}
	c, err := commit.ParseCommitment(o.Hash)
	if err != nil {
		return usageErrorf("--hash: %v", err)
	}
	var in revealInput
	switch {
	case o.TextSet:
		in, _ = readReveal(strings.NewReader(o.Text)) // a strings.Reader does not fail
	case o.File != "" && o.File != stdioName:
		var f *os.File
		if f, err = os.Open(o.File); err != nil {
			return usageErrorf("cannot read the reveal: %s: %v", o.File, unwrapPathError(err))
		}
		defer f.Close()
		if in, err = readReveal(f); err != nil {
			return usageErrorf("cannot read the reveal: %s: %v", o.File, unwrapPathError(err))
		}
	default:
		if f, ok := a.in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			fmt.Fprintln(a.errOut, "reading the reveal text from stdin; end it with Ctrl-D (a newline you type counts as a byte)")
		}
		if in, err = readReveal(a.in); err != nil {
			return usageErrorf("cannot read the reveal from stdin: %v", err)
		}
		if in.complete && len(in.data) == 0 && !a.json {
			fmt.Fprintln(a.errOut, "sealed: read 0 bytes from stdin: the reveal checked is empty (give it with --file, --text, or pipe it in)")
		}
	}
	r := in.check(c)
	if a.json {
		if err := a.printJSON(newVerifyJSON(r, in)); err != nil {
			return err
		}
	} else {
		printVerdict(a.out, "", r, in)
	}
	if !r.Match {
		return errSilentFailure
	}
	return nil
}

// printVerdict writes the text verdict of one reveal; prefix names the file
// in -c mode.
func printVerdict(w io.Writer, prefix string, r commit.Result, in revealInput) {
	if r.Match {
		fmt.Fprintf(w, "%smatch: the reveal hashes to %s\n", prefix, r.Got)
		return
	}
	fmt.Fprintf(w, "%smismatch: the reveal hashes to %s, the posted hash is %s\n", prefix, r.Got, r.Commitment)
	for _, h := range r.Hints {
		fmt.Fprintf(w, "%snear miss: it matches with %s; the rule is the exact bytes, so this is still a mismatch\n", prefix, h.Name)
	}
	if !in.complete {
		fmt.Fprintf(w, "%s(reveal larger than %d bytes: near misses not searched)\n", prefix, maxHintBytes)
	}
}

// listEntry is one file of a -c list and its outcome.
type listEntry struct {
	Path       string   `json:"path"`
	Status     string   `json:"status"` // "ok", "failed" or "unreadable"
	Commitment string   `json:"commitment"`
	Got        string   `json:"got,omitempty"`
	Hints      []string `json:"hints,omitempty"`
	Error      string   `json:"error,omitempty"`
}

// listJSON is the --json output of `sealed verify -c`.
type listJSON struct {
	Files      []listEntry `json:"files"`
	OK         int         `json:"ok"`
	Failed     int         `json:"failed"`
	Unreadable int         `json:"unreadable"`
	Improper   int         `json:"improper"`
}

// runVerifyLists checks each list of o.Lists in turn (checkList), as
// `sha256sum -c` does, and exits 1 when any listed file failed or could
// not be read, or (--strict) when a line was improperly formatted. A list
// that cannot be read or has no properly formatted line is bad input
// (exit 2) and stops the check. --json prints one object for all the
// lists.
func runVerifyLists(a *app, o *verifyOptions) error {
	all := listJSON{Files: []listEntry{}}
	for _, list := range o.Lists {
		out, err := checkList(a, o, list)
		if err != nil {
			return err
		}
		all.Files = append(all.Files, out.Files...)
		all.OK += out.OK
		all.Failed += out.Failed
		all.Unreadable += out.Unreadable
		all.Improper += out.Improper
	}
	if a.json {
		if err := a.printJSON(all); err != nil {
			return err
		}
	}
	if all.Failed > 0 || all.Unreadable > 0 || (o.Strict && all.Improper > 0) {
		return errSilentFailure
	}
	return nil
}

// checkList checks every file of one sha256sum-style list as `sha256sum
// -c` does: "PATH: OK" or "PATH: FAILED" per file, "PATH: FAILED open or
// read" for a file it cannot read, then the list's warnings, counted, on
// stderr.
func checkList(a *app, o *verifyOptions, list string) (listJSON, error) {
	var r io.Reader = a.in
	name, lineName := "stdin", "'standard input'"
	if list != "-" {
		f, err := os.Open(list)
		if err != nil {
			return listJSON{}, usageErrorf("cannot read the list: %s: %v", list, unwrapPathError(err))
		}
		defer f.Close()
		r, name, lineName = f, list, list
	}
	printOK := o.Report == reportAll || o.Report == reportWarn
	printFailed := o.Report != reportStatus
	var out listJSON
	out.Files = []listEntry{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var lines sumListParser
	var read int64
	lineNo := 0
	improper := func() {
		out.Improper++
		if o.Report == reportWarn {
			fmt.Fprintf(a.errOut, "sealed: %s: %d: improperly formatted SHA256 checksum line\n", lineName, lineNo)
		}
	}
	for sc.Scan() {
		lineNo++
		read += int64(len(sc.Bytes())) + 1
		// As GNU sha256sum: an empty line (or a lone CR) and a line
		// starting with # are skipped; any other line that does not parse
		// is improperly formatted.
		if t := strings.TrimSuffix(sc.Text(), "\r"); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		hash, path, ok := lines.parse(sc.Text())
		if !ok {
			improper()
			continue
		}
		c, err := commit.ParseCommitment(hash)
		if err != nil {
			improper()
			continue
		}
		e := listEntry{Path: path, Commitment: c.String()}
		shown := checkedName(path)
		in, err := readRevealFile(path)
		if err != nil {
			e.Status, e.Error = "unreadable", err.Error()
			out.Unreadable++
			fmt.Fprintf(a.errOut, "sealed: %s: %s\n", shown, e.Error)
			if !a.json && printFailed {
				fmt.Fprintf(a.out, "%s: FAILED open or read\n", shown)
			}
			out.Files = append(out.Files, e)
			continue
		}
		res := in.check(c)
		e.Got = res.Got.String()
		if res.Match {
			e.Status = "ok"
			out.OK++
		} else {
			e.Status, e.Hints = "failed", hintNames(res.Hints)
			out.Failed++
		}
		if !a.json {
			if res.Match {
				if printOK {
					fmt.Fprintf(a.out, "%s: OK\n", shown)
				}
			} else if printFailed {
				fmt.Fprintf(a.out, "%s: FAILED\n", shown)
				for _, h := range res.Hints {
					fmt.Fprintf(a.out, "%s: near miss: it matches with %s\n", shown, h.Name)
				}
			}
		}
		out.Files = append(out.Files, e)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return listJSON{}, usageErrorf("%s: line %d is longer than 1 MiB; expected checksum lines \"<64 hex digits>  <path>\" as sha256sum writes them", lineName, lineNo+1)
	} else if err != nil {
		return listJSON{}, usageErrorf("cannot read the list %s: %v", name, unwrapPathError(err))
	}
	if len(out.Files) == 0 {
		if read == 0 {
			return listJSON{}, usageErrorf("%s: no properly formatted checksum lines found: read 0 bytes; expected lines \"<64 hex digits>  <path>\" as sha256sum writes them", name)
		}
		return listJSON{}, usageErrorf("%s: no properly formatted checksum lines found; expected lines \"<64 hex digits>  <path>\" as sha256sum writes them", name)
	}
	if o.Report != reportStatus {
		if out.Improper > 0 {
			fmt.Fprintf(a.errOut, "sealed: warning: %d %s improperly formatted\n", out.Improper, plural(out.Improper, "line is", "lines are"))
		}
		if out.Unreadable > 0 {
			fmt.Fprintf(a.errOut, "sealed: warning: %d listed %s could not be read\n", out.Unreadable, plural(out.Unreadable, "file", "files"))
		}
		if out.Failed > 0 {
			fmt.Fprintf(a.errOut, "sealed: warning: %d computed %s did not match\n", out.Failed, plural(out.Failed, "checksum", "checksums"))
		}
	}
	return out, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// readRevealFile reads and hashes the file at path.
func readRevealFile(path string) (revealInput, error) {
	f, err := os.Open(path)
	if err != nil {
		return revealInput{}, unwrapPathError(err)
	}
	defer f.Close()
	in, err := readReveal(f)
	if err != nil {
		return in, unwrapPathError(err)
	}
	return in, nil
}

// checkedName is a file name as GNU sha256sum -c prints it on a result
// line (coreutils 9.1, md5sum.c digest_check): a name holding a newline
// gets a leading backslash on the line and "\\" for each backslash and
// "\n" for each newline, so one file is always one line; any other name is
// printed as is. Checked with coreutils 9.1:
//
//	printf x > "$(printf 'n\nb\\s')"; sha256sum n*s | sha256sum -c  ->  \n\nb\\s: OK
//	printf x > 'b\c'; sha256sum 'b\c' | sha256sum -c                ->  b\c: OK
func checkedName(path string) string {
	if !strings.Contains(path, "\n") {
		return path
	}
	return `\` + strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(path)
}

// sumListParser splits the lines of one sha256sum list as GNU coreutils
// 9.1 does (md5sum.c split_3). Leading blanks are skipped. After the 64
// hex digits comes one blank (space or tab); then either a space or "*"
// (text or binary mode, "HEX  PATH", "HEX *PATH") or directly the path
// ("HEX PATH", the BSD-reversed form). The first line of the list fixes
// which of the two a list uses, so a later line is read the same way: in a
// list begun with "HEX PATH" the line "HEX  PATH" names " PATH", and in a
// list begun with "HEX  PATH" a line "HEX PATH" is improperly formatted.
type sumListParser struct {
	reversed int // 0 not yet known, 1 "HEX  PATH" list, 2 "HEX PATH" list
}

// parse splits one line: "<hex>  <path>", "<hex> *<path>", "<hex> <path>"
// (see sumListParser), or the tagged "SHA256 (<path>) = <hex>". A line
// starting with a backslash has "\\", "\n" and "\r" escapes in its path, as
// GNU sha256sum writes for names holding those characters. The hash is
// not checked here (commit.ParseCommitment does).
func (p *sumListParser) parse(line string) (hash, path string, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	line = strings.TrimLeft(line, " \t")
	escaped := strings.HasPrefix(line, "\\")
	if escaped {
		line = line[1:]
	}
	if rest, found := strings.CutPrefix(line, "SHA256"); found && strings.HasPrefix(strings.TrimPrefix(rest, " "), "(") {
		// As GNU sha256sum reads a tagged line (coreutils md5sum.c,
		// bsd_split_3): one optional space before "(", the path up to
		// the last ")", then "=" with any spaces or tabs around it, and
		// the hash to the end of the line.
		rest = strings.TrimPrefix(rest, " ")[1:]
		i := strings.LastIndexByte(rest, ')')
		if i < 0 {
			return "", "", false
		}
		eq, found := strings.CutPrefix(strings.TrimLeft(rest[i+1:], " \t"), "=")
		if !found {
			return "", "", false
		}
		hash, path = strings.TrimLeft(eq, " \t"), rest[:i]
		if strings.TrimRight(hash, " \t") != hash {
			return "", "", false // sha256sum reads the spaces as part of the hash
		}
	} else {
		if len(line) < 65 || (line[64] != ' ' && line[64] != '\t') {
			return "", "", false
		}
		hash, path = line[:64], line[65:]
		if len(path) <= 1 || (path[0] != ' ' && path[0] != '*') {
			if p.reversed == 1 {
				return "", "", false
			}
			p.reversed = 2
		} else if p.reversed != 2 {
			p.reversed = 1
			path = path[1:]
		}
	}
	if escaped {
		path = strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\r`, "\r").Replace(path)
	}
	return hash, path, path != ""
}
