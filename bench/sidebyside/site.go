package sidebyside

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// sitePlayers is the number of players of the served ledger's commits (as
// web's benchmarks: a game's few players, many commitments each).
const sitePlayers = 50

// SiteResult is one round of the site part: `sealed serve` started anew,
// then each target loaded in turn.
type SiteResult struct {
	Round int
	// Listening and FirstAnswer are measured from just before the child
	// process is started: to the first TCP connection accepted, and to
	// the first 200 answer to a commitment lookup.
	Listening, FirstAnswer time.Duration
	// RSS of `sealed serve` (kB, /proc/PID/status) after the first answer
	// (RSSFirst), after the load (RSSAfter), and its peak (HWM).
	RSSFirst, RSSAfter, HWM int64
	API, Page, Trivial      loadResult
}

// siteTarget is one thing the load generator is pointed at.
type siteTarget struct {
	name  string
	paths []string
}

// runSite runs the site part.
func runSite(ctx context.Context, cfg *Config, out io.Writer) ([]SiteResult, error) {
	gen, err := pickLoadGen(cfg.LoadGen, cfg.WorkDir)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "\n== site: `sealed serve` (child process, read-only, defaults) on a %d-entry ledger (commits of %d players) vs a trivial net/http server (child process) answering 1,024 bytes of JSON; %d rounds, each starting serve anew, then loading the API, the page and the trivial server in turn for %s at %d connections\n",
		cfg.SiteN, sitePlayers, cfg.SiteRounds, cfg.SiteDuration, cfg.Connections)
	fmt.Fprintf(out, "   load generator: %s\n", gen.Name())
	bin := cfg.SealedBin
	if bin == "" {
		if bin, err = buildSealed(ctx, cfg.WorkDir, out); err != nil {
			return nil, err
		}
	}
	db, err := cachedLedger(ctx, cfg.CacheDir, "site", cfg.SiteN, sitePlayers, out)
	if err != nil {
		return nil, err
	}
	api := siteTarget{name: "api GET /api/v1/commitments/{c}"}
	page := siteTarget{name: "page GET /c/{c}"}
	for k := range cfg.SiteN {
		c := NewEntry(k, sitePlayers).Commitment
		api.paths = append(api.paths, "/api/v1/commitments/"+c)
		page.paths = append(page.paths, "/c/"+c)
	}
	// The trivial server is asked for the API's paths: the same requests.
	trivial := siteTarget{name: "trivial net/http, 1 KB JSON", paths: api.paths}
	fmt.Fprintf(out, "   each target cycles through all %d commitments (each connection from its own offset); the trivial server is sent the API's paths\n", cfg.SiteN)

	taddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	tcmd := exec.Command(self)
	tcmd.Env = append(os.Environ(), trivialEnv+"="+taddr)
	tcmd.Stderr = os.Stderr
	if err := tcmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the trivial server: %w", err)
	}
	defer func() { stop(tcmd) }()
	if _, _, err := firstAnswer(ctx, taddr, "/", 30*time.Second); err != nil {
		return nil, fmt.Errorf("trivial server: %w", err)
	}

	var results []SiteResult
	for r := range cfg.SiteRounds {
		res := SiteResult{Round: r + 1}
		addr, err := freeAddr()
		if err != nil {
			return results, err
		}
		cmd := exec.Command(bin, "serve", "--db", db, "--addr", addr)
		var serveOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &serveOut, &serveOut
		t0 := time.Now()
		if err := cmd.Start(); err != nil {
			return results, fmt.Errorf("starting sealed serve: %w", err)
		}
		listen, first, err := firstAnswer(ctx, addr, api.paths[(r*7919)%len(api.paths)], 60*time.Second)
		if err != nil {
			stop(cmd)
			return results, fmt.Errorf("sealed serve: %w\n%s", err, serveOut.String())
		}
		res.Listening, res.FirstAnswer = listen.Sub(t0), first.Sub(t0)
		res.RSSFirst = kB(procStatus(cmd.Process.Pid, "VmRSS")["VmRSS"])
		base := "http://" + addr
		for _, t := range []struct {
			target siteTarget
			base   string
			into   *loadResult
		}{{api, base, &res.API}, {page, base, &res.Page}, {trivial, "http://" + taddr, &res.Trivial}} {
			lr, err := gen.Run(ctx, t.base, t.target.paths, cfg.SiteDuration, cfg.Connections)
			if err != nil {
				stop(cmd)
				return results, fmt.Errorf("%s: %w", t.target.name, err)
			}
			*t.into = lr
		}
		st := procStatus(cmd.Process.Pid, "VmRSS", "VmHWM")
		res.RSSAfter, res.HWM = kB(st["VmRSS"]), kB(st["VmHWM"])
		if err := stop(cmd); err != nil {
			return results, fmt.Errorf("sealed serve did not stop cleanly: %w\n%s", err, serveOut.String())
		}
		results = append(results, res)
		fmt.Fprintf(out, "   round %d: serve listening after %.0f ms, first lookup answered after %.0f ms, RSS %s MB after it\n",
			res.Round, ms(res.Listening), ms(res.FirstAnswer), mb(res.RSSFirst))
		for _, x := range []struct {
			name string
			r    loadResult
		}{{api.name, res.API}, {page.name, res.Page}, {trivial.name, res.Trivial}} {
			fmt.Fprintf(out, "     %-34s %8.0f req/s  p50 %7.2f ms  p99 %7.2f ms  errors %d  [%s]\n", x.name, x.r.Rate, ms(x.r.P50), ms(x.r.P99), x.r.Bad, x.r.Detail)
		}
		fmt.Fprintf(out, "     serve RSS after the load %s MB, peak (VmHWM) %s MB\n", mb(res.RSSAfter), mb(res.HWM))
	}
	printSiteSummary(out, cfg, results, api.name, page.name, trivial.name)
	return results, nil
}

func printSiteSummary(out io.Writer, cfg *Config, results []SiteResult, apiName, pageName, trivialName string) {
	pick := func(f func(SiteResult) float64) spread {
		var xs []float64
		for _, r := range results {
			xs = append(xs, f(r))
		}
		return spreadOf(xs)
	}
	fmt.Fprintf(out, "\n   medians over %d rounds (min-max)\n", cfg.SiteRounds)
	for _, t := range []struct {
		name string
		get  func(SiteResult) loadResult
	}{
		{apiName, func(r SiteResult) loadResult { return r.API }},
		{pageName, func(r SiteResult) loadResult { return r.Page }},
		{trivialName, func(r SiteResult) loadResult { return r.Trivial }},
	} {
		rate := pick(func(r SiteResult) float64 { return t.get(r).Rate })
		p50 := pick(func(r SiteResult) float64 { return ms(t.get(r).P50) })
		p99 := pick(func(r SiteResult) float64 { return ms(t.get(r).P99) })
		bad := pick(func(r SiteResult) float64 { return float64(t.get(r).Bad) })
		fmt.Fprintf(out, "   %-34s %8.0f req/s (%.0f-%.0f)  p50 %.2f ms  p99 %.2f ms (%.2f-%.2f)  errors max %.0f\n",
			t.name, rate.Median, rate.Min, rate.Max, p50.Median, p99.Median, p99.Min, p99.Max, bad.Max)
	}
	ratio := func(a, b func(SiteResult) float64) spread {
		return pick(func(r SiteResult) float64 {
			if b(r) == 0 {
				return 0
			}
			return a(r) / b(r)
		})
	}
	apiRate := func(r SiteResult) float64 { return r.API.Rate }
	pageRate := func(r SiteResult) float64 { return r.Page.Rate }
	trivRate := func(r SiteResult) float64 { return r.Trivial.Rate }
	apiP99 := func(r SiteResult) float64 { return ms(r.API.P99) }
	pageP99 := func(r SiteResult) float64 { return ms(r.Page.P99) }
	trivP99 := func(r SiteResult) float64 { return ms(r.Trivial.P99) }
	fmt.Fprintf(out, "   ratios taken within each round, median (min-max):\n")
	for _, x := range []struct {
		name string
		s    spread
	}{
		{"req/s api/trivial ", ratio(apiRate, trivRate)},
		{"req/s page/trivial", ratio(pageRate, trivRate)},
		{"p99   api/trivial ", ratio(apiP99, trivP99)},
		{"p99   page/trivial", ratio(pageP99, trivP99)},
	} {
		fmt.Fprintf(out, "     %s %.2f (%.2f-%.2f)\n", x.name, x.s.Median, x.s.Min, x.s.Max)
	}
	l := pick(func(r SiteResult) float64 { return ms(r.Listening) })
	f := pick(func(r SiteResult) float64 { return ms(r.FirstAnswer) })
	fmt.Fprintf(out, "   serve start to listening %.0f ms (%.0f-%.0f); to the first answered lookup %.0f ms (%.0f-%.0f)\n", l.Median, l.Min, l.Max, f.Median, f.Min, f.Max)
	r1 := pick(func(r SiteResult) float64 { return float64(r.RSSFirst) })
	r2 := pick(func(r SiteResult) float64 { return float64(r.RSSAfter) })
	h := pick(func(r SiteResult) float64 { return float64(r.HWM) })
	fmt.Fprintf(out, "   serve RSS: after the first answer %s MB, after the load %s MB (%s-%s), peak %s MB (max %s)\n",
		mb(int64(r1.Median)), mb(int64(r2.Median)), mb(int64(r2.Min)), mb(int64(r2.Max)), mb(int64(h.Median)), mb(int64(h.Max)))
}

// firstAnswer dials addr until it accepts a connection (listening), then
// GETs path until the answer is 200 (first), within limit.
func firstAnswer(ctx context.Context, addr, path string, limit time.Duration) (listening, first time.Time, err error) {
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			listening = time.Now()
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return listening, first, fmt.Errorf("not listening on %s after %s: %v", addr, limit, err)
		}
		time.Sleep(time.Millisecond)
	}
	client := &http.Client{Timeout: limit}
	for {
		resp, err := client.Get("http://" + addr + path)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return listening, time.Now(), nil
			}
			err = fmt.Errorf("GET %s: %s", path, resp.Status)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return listening, first, fmt.Errorf("no 200 answer within %s: %v", limit, err)
		}
		time.Sleep(time.Millisecond)
	}
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// stop interrupts the child (as Ctrl-C would) and waits at most 10 s for
// it, then kills it.
func stop(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) && !ee.Exited() {
			return nil // ended by the signal (the trivial server)
		}
		return err
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		return errors.New("killed after 10 s")
	}
}

// sealedRoot is the directory of the sealed module this module's replace
// directive names (the working tree).
func sealedRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", "github.com/sealedhq/sealed").Output()
	if err != nil {
		return "", fmt.Errorf("finding the sealed module (run from inside bench/): %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildSealed builds the working tree's ./cmd/sealed into work, in the
// sealed module itself (its own go.mod, not this one's).
func buildSealed(ctx context.Context, work string, out io.Writer) (string, error) {
	root, err := sealedRoot(ctx)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(work, "sealed")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/sealed")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building sealed in %s: %v\n%s", root, err, b)
	}
	fmt.Fprintf(out, "   sealed binary: go build ./cmd/sealed in %s\n", root)
	return bin, nil
}

// kB parses "123456 kB".
func kB(s string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(s), " kB"), 10, 64)
	return n
}

// mb formats kB as MB with one decimal.
func mb(kb int64) string { return strconv.FormatFloat(float64(kb)/1024, 'f', 1, 64) }
