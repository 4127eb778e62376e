package sidebyside

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// loadResult is what a load generator measured against one target.
type loadResult struct {
	Requests int64
	Rate     float64 // requests/s
	P50, P99 time.Duration
	Bad      int64  // answers other than 2xx/3xx, and socket errors
	Detail   string // the generator's own summary line(s)
}

// loadGen sends GETs of paths (cycled through, each connection from its
// own offset) to base over conns keep-alive connections for d.
type loadGen interface {
	Name() string
	Run(ctx context.Context, base string, paths []string, d time.Duration, conns int) (loadResult, error)
}

// pickLoadGen returns wrk when name is "wrk", or "" and wrk is on PATH;
// the Go generator otherwise.
func pickLoadGen(name, work string) (loadGen, error) {
	switch name {
	case "go":
		return goLoad{}, nil
	case "wrk", "":
		p, err := exec.LookPath("wrk")
		if err != nil {
			if name == "wrk" {
				return nil, errors.New("-loadgen wrk: wrk is not on PATH (Debian: apt-get install wrk)")
			}
			return goLoad{}, nil
		}
		return wrkLoad{bin: p, work: work, threads: runtime.NumCPU()}, nil
	}
	return nil, fmt.Errorf("-loadgen %q: expected wrk, go, or nothing for wrk when installed", name)
}

// wrkLoad runs wrk(1) with a Lua script that cycles through the paths.
type wrkLoad struct {
	bin, work string
	threads   int
}

func (w wrkLoad) Name() string {
	out, _ := exec.Command(w.bin, "-v").CombinedOutput() // wrk -v prints its version and exits 1
	v, _, _ := strings.Cut(strings.SplitN(string(out), "\n", 2)[0], " Copyright")
	return fmt.Sprintf("%s (-t%d --latency, a Lua script cycling through the paths)", v, w.threads)
}

// wrkScript reads the paths from a file (a table constructor of 50,000
// strings would pass LuaJIT's limits) and gives each thread its own
// starting offset.
const wrkScript = `local paths = {}
for line in io.lines(%q) do paths[#paths + 1] = line end
local n = #paths
local threads = 0
function setup(thread)
  thread:set("offset", threads * 7919)
  threads = threads + 1
end
local i = 0
function init(args)
  i = offset or 0
end
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i %% n) + 1])
end
`

func (w wrkLoad) Run(ctx context.Context, base string, paths []string, d time.Duration, conns int) (loadResult, error) {
	dir, err := os.MkdirTemp(w.work, "wrk-")
	if err != nil {
		return loadResult{}, err
	}
	defer os.RemoveAll(dir)
	pf := filepath.Join(dir, "paths.txt")
	if err := os.WriteFile(pf, []byte(strings.Join(paths, "\n")+"\n"), 0o600); err != nil {
		return loadResult{}, err
	}
	sf := filepath.Join(dir, "paths.lua")
	if err := os.WriteFile(sf, fmt.Appendf(nil, wrkScript, pf), 0o600); err != nil {
		return loadResult{}, err
	}
	secs := max(1, int(d.Round(time.Second)/time.Second))
	cmd := exec.CommandContext(ctx, w.bin, "-t"+strconv.Itoa(min(w.threads, conns)), "-c"+strconv.Itoa(conns),
		"-d"+strconv.Itoa(secs)+"s", "--timeout", "10s", "--latency", "-s", sf, strings.TrimSuffix(base, "/"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return loadResult{}, fmt.Errorf("wrk: %v\n%s", err, out)
	}
	return parseWrk(string(out))
}

var (
	wrkRate     = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkRequests = regexp.MustCompile(`(\d+) requests in ([0-9.]+\w+),`)
	wrkPct      = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([0-9.]+)(us|ms|s|m)\s*$`)
	wrkNon2xx   = regexp.MustCompile(`Non-2xx or 3xx responses:\s+(\d+)`)
	wrkSocket   = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

// parseWrk reads wrk's --latency report.
func parseWrk(out string) (loadResult, error) {
	var r loadResult
	m := wrkRate.FindStringSubmatch(out)
	n := wrkRequests.FindStringSubmatch(out)
	if m == nil || n == nil {
		return r, fmt.Errorf("wrk: no Requests/sec in its output:\n%s", out)
	}
	r.Rate, _ = strconv.ParseFloat(m[1], 64)
	r.Requests, _ = strconv.ParseInt(n[1], 10, 64)
	for _, p := range wrkPct.FindAllStringSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(p[2], 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second, "m": time.Minute}[p[3]]
		d := time.Duration(v * float64(unit))
		if p[1] == "50" {
			r.P50 = d
		} else {
			r.P99 = d
		}
	}
	if r.P50 == 0 || r.P99 == 0 {
		return r, fmt.Errorf("wrk: no latency distribution in its output:\n%s", out)
	}
	if m := wrkNon2xx.FindStringSubmatch(out); m != nil {
		x, _ := strconv.ParseInt(m[1], 10, 64)
		r.Bad += x
	}
	if m := wrkSocket.FindStringSubmatch(out); m != nil {
		for _, s := range m[1:] {
			x, _ := strconv.ParseInt(s, 10, 64)
			r.Bad += x
		}
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); strings.Contains(t, "requests in") || strings.HasPrefix(t, "Socket errors") || strings.HasPrefix(t, "Non-2xx") {
			lines = append(lines, t)
		}
	}
	r.Detail = strings.Join(lines, "; ")
	return r, nil
}

// goLoad is a closed-loop Go load generator: conns goroutines, each with
// its own keep-alive connection, each sending its next GET as soon as the
// previous answer is read.
type goLoad struct{}

func (goLoad) Name() string {
	return "the Go load generator of bench/sidebyside (wrk is not on PATH): one goroutine per connection, closed loop"
}

func (goLoad) Run(ctx context.Context, base string, paths []string, d time.Duration, conns int) (loadResult, error) {
	tr := &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	base = strings.TrimSuffix(base, "/")
	lats := make([][]time.Duration, conns)
	bad := make([]int64, conns)
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c * 7919; time.Now().Before(deadline) && ctx.Err() == nil; i++ {
				s := time.Now()
				resp, err := client.Get(base + paths[i%len(paths)])
				if err != nil {
					bad[c]++
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode >= 400 {
					bad[c]++
				}
				lats[c] = append(lats[c], time.Since(s))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	var r loadResult
	for c := range conns {
		all = append(all, lats[c]...)
		r.Bad += bad[c]
	}
	r.Requests = int64(len(all))
	r.Rate = float64(r.Requests) / elapsed.Seconds()
	r.P50, r.P99 = percentile(all, 0.50), percentile(all, 0.99)
	r.Detail = fmt.Sprintf("%d requests in %.2fs", r.Requests, elapsed.Seconds())
	return r, nil
}
