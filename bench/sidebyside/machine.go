package sidebyside

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// uptime is the output of uptime(1), trimmed, or the error that kept it.
func uptime() string {
	out, err := exec.Command("uptime").Output()
	if err != nil {
		return "uptime: " + err.Error()
	}
	return strings.TrimSpace(string(out))
}

// cpuModel is the first "model name" of /proc/cpuinfo and the number of
// processors it lists ("?" where it cannot be read).
func cpuModel() (model string, cpus int) {
	model = "?"
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return model, runtime.NumCPU()
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			if model == "?" {
				model = strings.TrimSpace(v)
			}
		case "processor":
			cpus++
		}
	}
	return model, cpus
}

// procStatus returns the fields of /proc/PID/status (or /proc/self/status
// for pid 0) named in keys, such as "VmRSS" and "VmHWM", as printed there
// ("123456 kB").
func procStatus(pid int, keys ...string) map[string]string {
	p := "/proc/self/status"
	if pid > 0 {
		p = "/proc/" + strconv.Itoa(pid) + "/status"
	}
	out := map[string]string{}
	b, err := os.ReadFile(p)
	if err != nil {
		return out
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && slices.Contains(keys, k) {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}
